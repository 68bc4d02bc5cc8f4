// `skillrt check [NAME] [--offline] [--shared]`: per hub-installed skill, is
// it still there, changed on disk, and does its source have a newer version
// (core/hub/check.hpp)? Exit 0 when the check ran (whatever it found).
#include <iostream>

#include "command.hpp"
#include "core/hub/check.hpp"
#include "progress_line.hpp"
#include "protocol/hub_json.hpp"
#include "sources/source_fetcher.hpp"

namespace skillrt::app {
namespace {

class CheckCommand final : public Command {
public:
  const char* name() const override { return "check"; }
  const char* summary() const override { return "Check hub-installed skills: upstream changed? locally modified?"; }
  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "Only this skill");
    sub.add_flag("--offline", m_offline, "Local checks only: do not fetch the sources again");
    sub.add_flag("--shared", m_shared, "With --user: check the shared HOME/skills");
  }
  Outcome run(const Invocation& inv) override {
    const auto fetcher = sources::make_source_fetcher();
    ProgressLine progress(inv.json);
    const std::optional<std::string> only = m_name.empty() ? std::nullopt : std::optional<std::string>(m_name);
    const core::hub::CheckOutcome outcome =
        core::hub::check_installed(inv.ctx, *fetcher, only, m_shared, !m_offline, &progress);
    progress.finish();
    const Json result = protocol::check_outcome_json(outcome);
    return finish_result(inv.json, result, protocol::check_outcome_text(outcome, inv.color));
  }

private:
  std::string m_name;
  bool m_offline = false;
  bool m_shared = false;
};

} // namespace

std::unique_ptr<Command> make_check_command() {
  return std::make_unique<CheckCommand>();
}

} // namespace skillrt::app
