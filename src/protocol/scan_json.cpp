#include "protocol/scan_json.hpp"

#include <algorithm>

#include "core/guard/dismissals.hpp"

namespace skillrt::protocol {

Json rule_help_json(std::string_view id) {
  Json out = Json::object();
  if (const std::optional<core::RuleHelp> help = core::rule_help(id)) {
    out["summary"] = std::string(help->summary);
    out["why"] = std::string(help->why);
    out["fix"] = std::string(help->fix);
  }
  out["help_uri"] = core::help_uri(id);
  return out;
}

core::GuardFinding sample_finding(const core::GuardRule& rule) {
  core::GuardFinding f;
  f.pattern_id = std::string(rule.id);
  f.category = rule.category;
  f.severity = rule.severity;
  // Line patterns, and the other rules about a line (Unicode, names); the
  // structural and symlink rules are about a file or the whole skill.
  const bool line_rule = std::any_of(core::threat_patterns().begin(), core::threat_patterns().end(),
                                     [&](const core::ThreatPattern& p) { return p.id == rule.id; }) ||
                         (rule.category != core::ThreatCategory::structural &&
                          rule.category != core::ThreatCategory::traversal);
  if (line_rule) {
    f.file = "SKILL.md";
    f.line = 12;
  }
  return f;
}

Json rule_explanation_json(const core::GuardRule& rule, const std::string& operator_dir) {
  Json out = Json::object();
  out["success"] = true;
  out["id"] = std::string(rule.id);
  out["category"] = core::category_name(rule.category);
  out["severity"] = core::threat_severity_name(rule.severity);
  const Json help = rule_help_json(rule.id);
  for (const char* key : {"summary", "why", "fix"}) {
    out[key] = help.value(key, std::string());
  }
  out["help_uri"] = help["help_uri"];
  const core::GuardFinding sample = sample_finding(rule);
  Json dismiss = Json::object();
  const auto own = core::dismissal_snippet(sample, core::DismissalScope::skill_file);
  const auto by_operator = core::dismissal_snippet(sample, core::DismissalScope::operator_file, k_sample_source);
  if (own && own->scope == core::DismissalScope::skill_file) {
    dismiss["skill_file"] = {{"file", std::string(core::k_skill_dismissal_file)}, {"yaml", own->yaml}};
  } else {
    dismiss["skill_file"] = nullptr;
  }
  if (by_operator) {
    std::string dir = operator_dir;
    if (!dir.empty() && dir.back() != '/') {
      dir.push_back('/');
    }
    dismiss["operator_file"] = {{"file", dir + core::operator_dismissal_file_name(k_sample_source)},
                                {"yaml", by_operator->yaml}};
  } else {
    dismiss["operator_file"] = nullptr;
  }
  dismiss["note"] = !by_operator ? "this finding can never be dismissed: fix the dismissal file it names"
                    : own && !own->note.empty()
                        ? own->note
                        : "a skill's own file may dismiss it; an operator's file may dismiss anything";
  out["dismiss"] = std::move(dismiss);
  return out;
}

Json guard_finding_json(const core::GuardFinding& finding) {
  Json out = Json::object();
  out["pattern_id"] = finding.pattern_id;
  out["severity"] = core::threat_severity_name(finding.severity);
  out["category"] = core::category_name(finding.category);
  out["file"] = finding.file;
  out["line"] = finding.line;
  out["column"] = finding.column;
  if (finding.related_line > 0) {
    out["related_line"] = finding.related_line; // a flow finding's source line
  }
  out["match"] = finding.snippet;
  out["description"] = finding.description;
  return out;
}

Json scan_result_json(const core::ScanResult& result, const core::PolicyDecision& decision) {
  Json out = Json::object();
  out["success"] = true;
  out["verdict"] = core::verdict_name(result.verdict);
  out["trust_level"] = core::trust_level_name(result.trust);
  out["decision"] = core::install_decision_name(decision.decision);
  out["reason"] = decision.reason;
  out["summary"] = result.summary;
  out["content_hash"] = result.content_hash;
  out["scanned_at"] = result.scanned_at;
  out["scanner_version"] = std::string(core::scanner_version());
  Json findings = Json::array();
  for (const core::GuardFinding& f : result.findings) {
    findings.push_back(guard_finding_json(f));
  }
  out["findings"] = std::move(findings);
  Json dismissed = Json::array();
  for (const core::DismissedFinding& d : result.dismissed) {
    Json item = guard_finding_json(d.finding);
    item["reason"] = d.reason;
    item["dismissed_by"] = d.dismissed_by;
    dismissed.push_back(std::move(item));
  }
  out["dismissed"] = std::move(dismissed);
  out["skill_name"] = result.skill_name;
  out["source"] = result.source;
  out["files_scanned"] = result.files_scanned;
  out["bytes_scanned"] = result.bytes_scanned;
  // The help of each rule once, keyed by id, rather than a copy on every
  // finding: a skill with forty hits of one rule would repeat the same text
  // forty times. Like SARIF's rule descriptors; a reader looks a finding's
  // pattern_id up here.
  Json rules = Json::object();
  for (const core::GuardFinding& f : result.findings) {
    if (!rules.contains(f.pattern_id)) {
      rules[f.pattern_id] = rule_help_json(f.pattern_id);
    }
  }
  for (const core::DismissedFinding& d : result.dismissed) {
    if (!rules.contains(d.finding.pattern_id)) {
      rules[d.finding.pattern_id] = rule_help_json(d.finding.pattern_id);
    }
  }
  out["rules"] = std::move(rules);
  return out;
}

} // namespace skillrt::protocol
