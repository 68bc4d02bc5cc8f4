// `skillrt scan PATH [--source S] [--format text|json|sarif] [--dismissals FILE]...`:
// runs the skills guard on a folder or file and prints the report. Exit 0 when
// the install policy would allow the skill, 1 when it would block it (or the
// verdict is dangerous) or the scan could not run, 2 on a usage error.
#include <iostream>
#include <vector>

#include "command.hpp"
#include "core/guard/guard.hpp"
#include "protocol/sarif.hpp"
#include "protocol/scan_json.hpp"

namespace skillrt::app {
namespace {

class ScanCommand final : public Command {
public:
  const char* name() const override { return "scan"; }
  const char* summary() const override { return "Scan a skill folder or file with the skills guard"; }
  void configure(CLI::App& sub) override {
    sub.add_option("path", m_path, "Skill folder or file")->required();
    sub.add_option("--source", m_source, "Source id that sets the trust level (default: community)");
    sub.add_option("--format", m_format, "Output format: text, json or sarif")
        ->check(CLI::IsMember({"text", "json", "sarif"}));
    sub.add_option("--dismissals", m_dismissals, "Operator dismissal file (repeatable)");
  }
  Outcome run(const Invocation& inv) override {
    const std::string format = inv.json ? "json" : m_format;
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
      print_json(protocol::scan_result_sarif(*result, decision));
    } else {
      std::cout << core::format_scan_report(*result, decision);
    }
    const bool blocked =
        decision.decision == core::InstallDecision::block || result->verdict == core::Verdict::dangerous;
    return blocked ? Outcome::failed : Outcome::ok;
  }

private:
  std::string m_path;
  std::string m_source = "community";
  std::string m_format = "text";
  std::vector<std::string> m_dismissals;
};

} // namespace

std::unique_ptr<Command> make_scan_command() {
  return std::make_unique<ScanCommand>();
}

} // namespace skillrt::app
