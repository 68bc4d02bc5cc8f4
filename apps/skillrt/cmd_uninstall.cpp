// `skillrt uninstall NAME [--shared]`: removes a skill the hub installed
// (core/hub/uninstall.hpp); bundled and hand-made skills are refused.
#include <iostream>

#include "command.hpp"
#include "recovery_notes.hpp"
#include "core/hub/uninstall.hpp"
#include "protocol/hub_json.hpp"

namespace skillrt::app {
namespace {

class UninstallCommand final : public Command {
public:
  const char* name() const override { return "uninstall"; }
  const char* summary() const override { return "Remove a hub-installed skill"; }
  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "The skill's name (as lock.json records it)")->required();
    sub.add_flag("--shared", m_shared, "With --user: uninstall from the shared HOME/skills (owner org only)");
  }
  Outcome run(const Invocation& inv) override {
    const core::hub::UninstallOutcome outcome = core::hub::uninstall_skill(inv.ctx, m_name, m_shared);
    const Json result = protocol::uninstall_outcome_json(outcome);
    if (!inv.json) {
      print_recovery_notes(outcome.recovered);
    }
    return finish_result(inv.json, result, outcome.message + "\n");
  }

private:
  std::string m_name;
  bool m_shared = false;
};

} // namespace

std::unique_ptr<Command> make_uninstall_command() {
  return std::make_unique<UninstallCommand>();
}

} // namespace skillrt::app
