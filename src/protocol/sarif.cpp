#include "protocol/sarif.hpp"

#include <algorithm>
#include <map>

#include "core/guard/rule_help.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::protocol {
namespace {

const char* sarif_level(core::ThreatSeverity severity) {
  switch (severity) {
  case core::ThreatSeverity::critical:
  case core::ThreatSeverity::high:
    return "error";
  case core::ThreatSeverity::medium:
    return "warning";
  case core::ThreatSeverity::low:
    return "note";
  }
  return "error";
}

// GitHub code scanning ranks alerts by this property (0.0-10.0).
const char* security_severity(core::ThreatSeverity severity) {
  switch (severity) {
  case core::ThreatSeverity::critical:
    return "9.5";
  case core::ThreatSeverity::high:
    return "7.5";
  case core::ThreatSeverity::medium:
    return "5.0";
  case core::ThreatSeverity::low:
    return "2.0";
  }
  return "9.5";
}

// The rule's default severity: the table's for a line pattern, else the first finding's.
core::ThreatSeverity default_severity(const core::GuardFinding& finding) {
  for (const core::ThreatPattern& p : core::threat_patterns()) {
    if (p.id == finding.pattern_id) {
      return p.severity;
    }
  }
  return finding.severity;
}

std::string rule_description(const core::GuardFinding& finding) {
  for (const core::ThreatPattern& p : core::threat_patterns()) {
    if (p.id == finding.pattern_id) {
      return std::string(p.description);
    }
  }
  return finding.description;
}

// The rule's help for a code-scanning UI: why, fix, how to dismiss, and where
// the rules document has it.
Json rule_help_sarif(const std::string& id, core::ThreatSeverity severity) {
  const std::optional<core::RuleHelp> help = core::rule_help(id);
  const std::string dismiss =
      severity == core::ThreatSeverity::critical
          ? "only an operator's dismissal file (HOME/guard/dismissals/*.yaml or scan --dismissals) can dismiss it"
          : "dismiss a false positive in the skill's .skillrt-guard.yaml or an operator's dismissal file";
  const std::string explain = "skillrt scan --explain " + id;
  const std::string where = core::help_uri(id);
  std::string text;
  std::string markdown;
  if (help) {
    text = std::string(help->summary) + ".\nWhy: " + std::string(help->why) + "\nFix: " + std::string(help->fix) + "\n";
    markdown = "**" + core::markdown_escape(help->summary) + "**\n\n**Why:** " + core::markdown_escape(help->why) +
               "\n\n**Fix:** " + core::markdown_escape(help->fix) + "\n\n";
  }
  text +=
      "Dismiss: " + dismiss + " (" + explain + " prints the entry).\nMore: " + where + " in the skillrt repository.";
  markdown += "**Dismiss:** " + dismiss + " (`" + explain + "` prints the entry).\n\nMore: `" + where +
              "` in the skillrt repository.";
  return {{"text", text}, {"markdown", markdown}};
}

Json result_json(const core::GuardFinding& f, std::size_t rule_index) {
  Json r = Json::object();
  r["ruleId"] = f.pattern_id;
  r["ruleIndex"] = rule_index;
  r["level"] = sarif_level(f.severity);
  std::string text = f.description;
  if (!f.snippet.empty()) {
    text += ": " + f.snippet;
  }
  r["message"] = {{"text", text}};
  Json physical = Json::object();
  physical["artifactLocation"] = {{"uri", f.file.empty() ? std::string(".") : sarif_uri(f.file)}};
  if (f.line > 0) {
    Json region = Json::object();
    region["startLine"] = f.line;
    if (f.column > 0) {
      region["startColumn"] = f.column;
    }
    physical["region"] = std::move(region);
  }
  r["locations"] = Json::array({Json{{"physicalLocation", std::move(physical)}}});
  if (f.related_line > 0) {
    // A flow finding: where the secret was read, beside where it leaves.
    Json source = Json::object();
    source["artifactLocation"] = {{"uri", f.file.empty() ? std::string(".") : sarif_uri(f.file)}};
    source["region"] = {{"startLine", f.related_line}};
    r["relatedLocations"] = Json::array(
        {Json{{"id", 1}, {"physicalLocation", std::move(source)}, {"message", {{"text", "source of the flow"}}}}});
  }
  // Stable across edits that only move the line: id, file and the matched text.
  std::string key = f.pattern_id;
  key.push_back('\0');
  key += f.file;
  key.push_back('\0');
  key += f.snippet;
  r["partialFingerprints"] = {{"skillrtFinding/v1", core::sha256_hex(key).substr(0, 32)}};
  r["properties"] = {{"severity", core::threat_severity_name(f.severity)}, {"category", core::category_name(f.category)}};
  return r;
}

} // namespace

std::string sarif_uri(std::string_view rel_path) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : rel_path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(k_hex[c >> 4]);
      out.push_back(k_hex[c & 0x0F]);
    }
  }
  return out;
}

bool valid_help_base_url(std::string_view url) {
  std::string_view rest;
  if (url.substr(0, 8) == "https://") {
    rest = url.substr(8);
  } else if (url.substr(0, 7) == "http://") {
    rest = url.substr(7);
  } else {
    return false;
  }
  if (rest.empty() || rest.front() == '/') {
    return false;
  }
  return std::none_of(url.begin(), url.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u <= 0x20 || u == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '#';
  });
}

Json scan_result_sarif(const core::ScanResult& result, const core::PolicyDecision& decision,
                       std::string_view help_base_url) {
  std::string base(help_base_url);
  if (!base.empty() && base.back() != '/') {
    base.push_back('/');
  }
  Json rules = Json::array();
  std::map<std::string, std::size_t> rule_index;
  auto index_of = [&](const core::GuardFinding& f) {
    const auto [it, added] = rule_index.emplace(f.pattern_id, rules.size());
    if (added) {
      const core::ThreatSeverity severity = default_severity(f);
      Json rule = Json::object();
      rule["id"] = f.pattern_id;
      rule["shortDescription"] = {{"text", rule_description(f)}};
      if (const std::optional<core::RuleHelp> help = core::rule_help(f.pattern_id)) {
        rule["fullDescription"] = {{"text", std::string(help->why)}};
      }
      rule["help"] = rule_help_sarif(f.pattern_id, severity);
      if (!base.empty()) {
        rule["helpUri"] = base + core::help_uri(f.pattern_id);
      }
      rule["defaultConfiguration"] = {{"level", sarif_level(severity)}};
      rule["properties"] = {{"category", core::category_name(f.category)},
                            {"severity", core::threat_severity_name(severity)},
                            {"security-severity", security_severity(severity)},
                            {"tags", Json::array({"security", core::category_name(f.category)})}};
      rules.push_back(std::move(rule));
    }
    return it->second;
  };

  Json results = Json::array();
  for (const core::GuardFinding& f : result.findings) {
    results.push_back(result_json(f, index_of(f)));
  }
  for (const core::DismissedFinding& d : result.dismissed) {
    Json r = result_json(d.finding, index_of(d.finding));
    r["suppressions"] = Json::array({Json{
        {"kind", "external"}, {"status", "accepted"}, {"justification", d.reason + " (" + d.dismissed_by + ")"}}});
    results.push_back(std::move(r));
  }

  Json driver = Json::object();
  driver["name"] = "skillrt-guard";
  driver["version"] = std::string(core::scanner_version());
  driver["rules"] = std::move(rules);

  Json run = Json::object();
  run["tool"] = {{"driver", std::move(driver)}};
  run["invocations"] = Json::array({Json{{"executionSuccessful", true}, {"endTimeUtc", result.scanned_at}}});
  run["results"] = std::move(results);
  run["properties"] = {{"skill_name", result.skill_name},
                       {"source", result.source},
                       {"trust_level", core::trust_level_name(result.trust)},
                       {"verdict", core::verdict_name(result.verdict)},
                       {"decision", core::install_decision_name(decision.decision)},
                       {"reason", decision.reason},
                       {"content_hash", result.content_hash},
                       {"summary", result.summary}};

  Json out = Json::object();
  out["version"] = "2.1.0";
  out["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  out["runs"] = Json::array({std::move(run)});
  return out;
}

} // namespace skillrt::protocol
