// Human renderings of the hub outcomes (declared in hub_json.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"
#include "core/guard/rule_help.hpp"
#include "protocol/hub_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::protocol {

namespace {

constexpr std::size_t k_max_name_column = 30;
constexpr std::size_t k_max_category_column = 18;

// lock.json's install_path ends with the skill name: what comes before it is
// the category, which is all the table adds to the NAME column.
std::string category_of(std::string_view install_path) {
  const std::size_t slash = install_path.rfind('/');
  return slash == std::string_view::npos || slash == 0 ? std::string("-") : std::string(install_path.substr(0, slash));
}

std::string plural(std::size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

} // namespace

std::string check_outcome_text(const core::hub::CheckOutcome& outcome, bool color) {
  if (outcome.rows.empty()) {
    return "No hub-installed skills.\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const core::hub::CheckRow& row : outcome.rows) {
    std::string status = core::hub::check_status_name(row.status);
    if (row.locally_modified && row.upstream == core::hub::UpstreamStatus::update_available) {
      status += " (and update_available)";
    }
    rows.push_back({row.name, category_of(row.install_path), status, row.message.empty() ? "-" : row.message});
  }
  return render_table({{"NAME", k_max_name_column}, {"CATEGORY", k_max_category_column}, {"STATUS", 0}, {"MESSAGE", 0}},
                      rows, color) +
         plural(outcome.rows.size(), "skill checked", "skills checked") + "\n";
}

std::string audit_outcome_text(const core::hub::AuditOutcome& outcome, bool color) {
  std::string out;
  if (!outcome.rows.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const core::hub::AuditRow& row : outcome.rows) {
      const std::string verdict = row.scan ? std::string(core::verdict_name(row.scan->verdict)) : "n/a";
      rows.push_back({row.name, category_of(row.install_path), row.issues.empty() ? "ok" : "ISSUES",
                      name_or_empty(row.trust_level, core::trust_level_name),
                      verdict + " (recorded " + name_or_empty(row.recorded_verdict, core::verdict_name) + ")"});
    }
    out += render_table(
        {{"NAME", k_max_name_column}, {"CATEGORY", k_max_category_column}, {"RESULT", 0}, {"TRUST", 0}, {"VERDICT", 0}},
        rows, color);
    for (const core::hub::AuditRow& row : outcome.rows) {
      if (row.issues.empty()) {
        continue;
      }
      out += "\n" + row.name + ":\n";
      for (const std::string& issue : row.issues) {
        out += "  - " + issue + "\n";
      }
    }
  }
  for (const std::string& folder : outcome.untracked) {
    out += "not installed by the hub: " + folder + "\n";
  }
  out += plural(outcome.rows.size(), "installed skill", "installed skills") + " audited, " +
         plural(outcome.issue_count, "issue", "issues") + ".\n";
  return out;
}

std::string guard_block_text(const core::hub::Judgement& judgement) {
  if (judgement.blocking.empty()) {
    return {};
  }
  std::string out = "  Over the line:\n";
  for (const core::GuardFinding& f : judgement.blocking) {
    const std::optional<core::RuleHelp> help = core::rule_help(f.pattern_id);
    std::string where = f.file.empty() ? "(directory)" : f.file;
    if (f.line > 0) {
      where += ":" + std::to_string(f.line);
    }
    out += "    " + f.pattern_id + " (" + core::threat_severity_name(f.severity) + ") " + where +
           (help ? " \u2014 " + std::string(help->summary) : std::string()) + "\n";
  }
  if (judgement.dismissal_yaml.empty()) {
    return out;
  }
  out += "  After reading those lines, to allow it write this to " + judgement.dismissal_file.string() +
         "\n  (or add its entries under `dismiss:` there) and run the command again:\n";
  std::size_t start = 0;
  const std::string& yaml = judgement.dismissal_yaml;
  while (start < yaml.size()) {
    const std::size_t end = yaml.find('\n', start);
    const std::size_t stop = end == std::string::npos ? yaml.size() : end;
    out += "    " + yaml.substr(start, stop - start) + "\n";
    start = stop + 1;
  }
  out += "  Replace each reason with why the line is safe; skillrt scan --explain RULE explains a rule.\n";
  return out;
}

std::string update_outcome_text(const core::hub::UpdateOutcome& outcome, bool color) {
  if (outcome.skills.empty()) {
    return "No hub-installed skills.\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const core::hub::UpdateReport& r : outcome.skills) {
    rows.push_back({r.name, core::hub::update_status_name(r.status), r.reason.empty() ? "-" : r.reason});
  }
  std::string out = render_table({{"NAME", k_max_name_column}, {"STATUS", 0}, {"REASON", 0}}, rows, color);
  // What a row cannot hold: the guard's report and the diff, under the skill's name.
  for (const core::hub::UpdateReport& r : outcome.skills) {
    const bool report = r.judgement && r.judgement->scan && r.judgement->policy &&
                        (r.status == core::hub::UpdateStatus::blocked || !r.judgement->scan->findings.empty());
    const bool diff = r.diff && !r.diff->text.empty();
    if (!report && !diff) {
      continue;
    }
    out += "\n" + r.name + ":\n";
    if (report) {
      out += core::format_scan_report(*r.judgement->scan, *r.judgement->policy, core::ReportDetail::explained) + "\n";
      out += guard_block_text(*r.judgement);
    }
    if (diff) {
      out += r.diff->text;
    }
  }
  return out;
}

} // namespace skillrt::protocol
