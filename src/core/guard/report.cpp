// The human report (spec §2.12 rule 10, plus dismissed findings) and the
// scanner version.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "core/guard/guard.hpp"
#include "core/guard/rule_help.hpp"
#include "core/guard/snippet.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::core {
namespace {

// Bumped by hand when a scanner rule (not the pattern table) changes meaning.
constexpr std::string_view k_scanner_rules_version = "skillrt-guard-2";

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) {
    s.append(width - s.size(), ' ');
  }
  return s;
}

std::string location(const GuardFinding& f) {
  std::string where = f.file.empty() ? "(directory)" : f.file;
  if (f.line > 0) {
    where += ':';
    where += std::to_string(f.line);
  }
  return where;
}

std::string row(const GuardFinding& f) {
  return "  " + pad(upper(threat_severity_name(f.severity)), 8) + " " + pad(category_name(f.category), 14) + " " +
         pad(location(f), 30) + " \"" + truncate_chars(f.snippet, limits::k_guard_report_match_chars) + "\"";
}

template <typename T, typename Get> std::vector<const T*> by_severity(const std::vector<T>& items, Get get) {
  std::vector<const T*> sorted;
  sorted.reserve(items.size());
  for (const T& item : items) {
    sorted.push_back(&item);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const T* a, const T* b) { return get(*a).severity > get(*b).severity; });
  return sorted;
}

// The hint under a row: the rule's id and help the first time the id
// appears in the report, the id alone after that.
std::string hint(const GuardFinding& f, std::set<std::string>& explained) {
  if (!explained.insert(f.pattern_id).second) {
    return "    rule " + f.pattern_id + " (see above)\n";
  }
  const std::optional<RuleHelp> help = rule_help(f.pattern_id);
  if (!help) {
    return "    rule " + f.pattern_id + "\n";
  }
  return "    rule " + f.pattern_id + ": " + std::string(help->summary) + "\n      why: " + std::string(help->why) +
         "\n      fix: " + std::string(help->fix) + "\n";
}

} // namespace

std::string format_scan_report(const ScanResult& result, const PolicyDecision& decision, ReportDetail detail) {
  std::string out = "Scan: " + result.skill_name + " (" + result.source + "/" + trust_level_name(result.trust) +
                    ")  Verdict: " + upper(verdict_name(result.verdict)) + "\n";
  std::set<std::string> explained;
  for (const GuardFinding* f :
       by_severity(result.findings, [](const GuardFinding& g) -> const GuardFinding& { return g; })) {
    out += row(*f) + "\n";
    if (detail == ReportDetail::explained) {
      out += hint(*f, explained);
    }
  }
  if (detail == ReportDetail::explained && !result.findings.empty()) {
    out += "\nEach rule in full, and how to dismiss a false positive: skillrt scan --explain RULE (" +
           std::string(k_rules_document) + ").\n";
  }
  if (!result.dismissed.empty()) {
    out += "\nDismissed:\n";
    for (const DismissedFinding* d :
         by_severity(result.dismissed, [](const DismissedFinding& g) -> const GuardFinding& { return g.finding; })) {
      out += row(d->finding) + "\n    reason: " + d->reason + " (" + d->dismissed_by + ")\n";
    }
  }
  const char* word = decision.decision == InstallDecision::allow ? "ALLOWED"
                     : decision.decision == InstallDecision::ask ? "NEEDS CONFIRMATION"
                                                                 : "BLOCKED";
  out += "\nDecision: " + std::string(word) + " \u2014 " + decision.reason + "\n";
  return out;
}

std::string_view scanner_version() {
  // The rules version plus a digest of the pattern table, so any change to a
  // pattern (id, regex, severity, category) invalidates cached verdicts.
  static const std::string version = [] {
    Sha256 hash;
    for (const ThreatPattern& p : threat_patterns()) {
      hash.update(p.id);
      hash.update(std::string_view("\0", 1));
      hash.update(p.regex);
      hash.update(std::string_view("\0", 1));
      hash.update(threat_severity_name(p.severity));
      hash.update(category_name(p.category));
      hash.update(std::string_view("\n", 1));
    }
    return std::string(k_scanner_rules_version) + "+" + hash.hex_digest().substr(0, 12);
  }();
  return version;
}

} // namespace skillrt::core
