// `skillrt scan PATH [--source S] [--format text|json|sarif] [--dismissals FILE]...
// [--help-base-url URL]`: runs the skills guard on a folder or file and prints
// the report. Exit 0 when the install policy would allow the skill, 1 when it
// would block it (or the verdict is dangerous) or the scan could not run, 2 on
// a usage error.
//
// `skillrt scan --explain RULE [--format text|json]`: what one rule means, why
// it matters, how to fix the skill and how to dismiss a false positive (both
// dismissal files, with a sample entry). An unknown rule is a usage error that
// names the closest known ids. `skillrt scan --rules [--format
// text|json|markdown]`: every rule; markdown is docs/guard-rules.md.
#include <iostream>
#include <vector>

#include "command.hpp"
#include "core/guard/guard.hpp"
#include "core/guard/rule_help.hpp"
#include "protocol/sarif.hpp"
#include "protocol/scan_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::app {
namespace {

// `text` with every line indented by `prefix`.
std::string indented(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::size_t stop = end == std::string::npos ? text.size() : end;
    out += prefix + text.substr(start, stop - start) + "\n";
    start = stop + 1;
  }
  return out;
}

std::string explanation_text(const Json& e) {
  const auto str = [&](const char* key) { return e.value(key, std::string()); };
  std::string out = str("id") + "  (" + str("category") + ", " + str("severity") + ")\n";
  out += "  " + (str("summary").empty() ? std::string("(no help text yet)") : str("summary")) + "\n";
  if (!str("why").empty()) {
    out += "\nWhy it matters:\n  " + str("why") + "\n";
  }
  if (!str("fix").empty()) {
    out += "\nHow to fix the skill:\n  " + str("fix") + "\n";
  }
  out += "\nHow to dismiss a false positive (after a person has read the line):\n";
  const Json& dismiss = e["dismiss"];
  if (dismiss["skill_file"].is_object()) {
    out += "  in the skill's own " + dismiss["skill_file"]["file"].get<std::string>() + " (at its root):\n";
    out += indented(dismiss["skill_file"]["yaml"].get<std::string>(), "    ");
  }
  if (dismiss["operator_file"].is_object()) {
    out += "  in an operator file, " + dismiss["operator_file"]["file"].get<std::string>() +
           " (install, update and audit read that folder; scan takes a file with --dismissals):\n";
    out += indented(dismiss["operator_file"]["yaml"].get<std::string>(), "    ");
    out += "  `source:` limits an operator file to one source and the paths below it; `file` (a glob) and\n"
           "  `line` are optional, and without them the entry dismisses the rule everywhere it applies.\n";
  }
  out += "  Note: " + dismiss["note"].get<std::string>() + ".\n";
  out += "\nMore: " + str("help_uri") + "\n";
  return out;
}

class ScanCommand final : public Command {
public:
  const char* name() const override { return "scan"; }
  const char* summary() const override { return "Scan a skill folder or file with the skills guard"; }
  void configure(CLI::App& sub) override {
    // Not required: --explain and --rules run without a PATH (checked in run()).
    sub.add_option("path", m_path, "Skill folder or file");
    sub.add_option("--source", m_source, "Source id that sets the trust level (default: community)");
    sub.add_option("--format", m_format, "Output format: text, json or sarif (--rules: also markdown)")
        ->check(CLI::IsMember({"text", "json", "sarif", "markdown"}));
    sub.add_option("--dismissals", m_dismissals, "Operator dismissal file (repeatable)");
    sub.add_option("--explain", m_explain, "Explain one rule: why it matters, how to fix and dismiss it");
    sub.add_flag("--rules", m_rules, "List every rule the guard can report (--format markdown: docs/guard-rules.md)");
    sub.add_option("--help-base-url", m_help_base_url,
                   "SARIF: absolute URL the repository's files are served from; rules then get a helpUri");
  }
  Outcome run(const Invocation& inv) override {
    const std::string format = inv.json ? "json" : m_format;
    const int modes = (m_path.empty() ? 0 : 1) + (m_explain.empty() ? 0 : 1) + (m_rules ? 1 : 0);
    if (modes != 1) {
      return finish_usage(inv.json,
                          modes == 0 ? "scan needs a PATH, --explain RULE or --rules"
                                     : "give one of PATH, --explain RULE and --rules",
                          "scan");
    }
    if (!m_help_base_url.empty() && !protocol::valid_help_base_url(m_help_base_url)) {
      return finish_usage(inv.json, "--help-base-url must be an absolute http(s) URL: " + m_help_base_url, "scan");
    }
    if (!m_explain.empty()) {
      return explain(inv, format);
    }
    if (m_rules) {
      return list_rules(inv, format);
    }
    if (format == "markdown") {
      return finish_usage(inv.json, "--format markdown is for --rules", "scan");
    }
    core::ScanOptions options;
    options.source = m_source;
    for (const std::string& file : m_dismissals) {
      options.dismissal_files.emplace_back(file);
    }
    const Result<core::ScanResult> result = core::scan_skill(m_path, options);
    if (!result) {
      Json out = Json::object();
      out["success"] = false;
      out["error"] = result.error().message;
      if (format == "text") {
        print_error_text(out);
      } else {
        print_json(out);
      }
      return Outcome::failed;
    }
    const core::PolicyDecision decision = core::decide_install(*result, false);
    if (format == "json") {
      print_json(protocol::scan_result_json(*result, decision));
    } else if (format == "sarif") {
      print_json(protocol::scan_result_sarif(*result, decision, m_help_base_url));
    } else {
      std::cout << core::format_scan_report(*result, decision, core::ReportDetail::explained);
    }
    const bool blocked =
        decision.decision == core::InstallDecision::block || result->verdict == core::Verdict::dangerous;
    return blocked ? Outcome::failed : Outcome::ok;
  }

private:
  Outcome explain(const Invocation& inv, const std::string& format) {
    if (format != "text" && format != "json") {
      return finish_usage(inv.json, "--explain prints text or json", "scan");
    }
    const std::optional<core::GuardRule> rule = core::find_guard_rule(m_explain);
    if (!rule) {
      const std::vector<std::string> closest = core::closest_rule_ids(m_explain, 3);
      std::string list;
      for (const std::string& id : closest) {
        list += (list.empty() ? "" : ", ") + id;
      }
      const std::string message = "unknown rule '" + m_explain + "'" + (list.empty() ? "" : "; closest: " + list);
      if (inv.json) {
        Json out = usage_error_json(message);
        out["closest"] = closest;
        print_json(out);
      } else {
        std::cerr << "skillrt: " << message << "\nRun 'skillrt scan --rules' for every rule.\n";
      }
      return Outcome::usage;
    }
    const Json out = protocol::rule_explanation_json(*rule, core::operator_dismissal_dir(inv.ctx.home).string());
    if (format == "json") {
      print_json(out);
    } else {
      std::cout << explanation_text(out);
    }
    return Outcome::ok;
  }

  Outcome list_rules(const Invocation& inv, const std::string& format) {
    if (format == "sarif") {
      return finish_usage(inv.json, "--rules prints text, json or markdown", "scan");
    }
    if (format == "markdown") {
      std::cout << core::rules_markdown();
      return Outcome::ok;
    }
    const std::vector<core::GuardRule> rules = core::guard_rules();
    if (format == "json") {
      Json list = Json::array();
      for (const core::GuardRule& rule : rules) {
        Json item = Json::object();
        item["id"] = std::string(rule.id);
        item["category"] = core::category_name(rule.category);
        item["severity"] = core::threat_severity_name(rule.severity);
        const Json help = protocol::rule_help_json(rule.id);
        for (auto it = help.begin(); it != help.end(); ++it) {
          item[it.key()] = it.value();
        }
        list.push_back(std::move(item));
      }
      Json out = Json::object();
      out["success"] = true;
      out["rules"] = std::move(list);
      print_json(out);
      return Outcome::ok;
    }
    std::vector<std::vector<std::string>> rows;
    for (const core::GuardRule& rule : rules) {
      const std::optional<core::RuleHelp> help = core::rule_help(rule.id);
      rows.push_back({std::string(rule.id), core::threat_severity_name(rule.severity),
                      core::category_name(rule.category), help ? std::string(help->summary) : std::string("-")});
    }
    std::cout << protocol::render_table({{"ID", 0}, {"SEVERITY", 0}, {"CATEGORY", 0}, {"SUMMARY", 0}}, rows, inv.color)
              << rules.size() << " rules; skillrt scan --explain RULE for one in full.\n";
    return Outcome::ok;
  }

  std::string m_path;
  std::string m_source = "community";
  std::string m_format = "text";
  std::vector<std::string> m_dismissals;
  std::string m_explain;
  bool m_rules = false;
  std::string m_help_base_url;
};

} // namespace

std::unique_ptr<Command> make_scan_command() {
  return std::make_unique<ScanCommand>();
}

} // namespace skillrt::app
