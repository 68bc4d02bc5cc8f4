// `skillrt audit [--format text|json] [--shared]`: rescan every hub-installed
// skill with today's guard, verify signatures again, report drift, missing
// folders and skills lock.json does not know (core/hub/audit.hpp). Exit 0
// when nothing was found, 1 when an issue was.
#include <iostream>

#include "command.hpp"
#include "core/hub/audit.hpp"
#include "progress_line.hpp"
#include "protocol/hub_json.hpp"

namespace skillrt::app {
namespace {

class AuditCommand final : public Command {
public:
  const char* name() const override { return "audit"; }
  const char* summary() const override { return "Rescan installed skills and report drift"; }
  void configure(CLI::App& sub) override {
    sub.add_option("--format", m_format, "Output format: text or json")->check(CLI::IsMember({"text", "json"}));
    sub.add_flag("--shared", m_shared, "With --user: audit the shared HOME/skills");
  }
  Outcome run(const Invocation& inv) override {
    const bool json = inv.json || m_format == "json";
    ProgressLine progress(json);
    const core::hub::AuditOutcome outcome = core::hub::audit_installed(inv.ctx, inv.config, m_shared, &progress);
    progress.finish();
    const Json result = protocol::audit_outcome_json(outcome);
    if (json) {
      print_json(result);
      return outcome_of(result);
    }
    if (outcome.error) {
      print_error_text(result);
      return Outcome::failed;
    }
    std::cout << protocol::audit_outcome_text(outcome, inv.color);
    return outcome.success ? Outcome::ok : Outcome::failed;
  }

private:
  std::string m_format = "text";
  bool m_shared = false;
};

} // namespace

std::unique_ptr<Command> make_audit_command() {
  return std::make_unique<AuditCommand>();
}

} // namespace skillrt::app
