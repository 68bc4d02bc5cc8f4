// `skillrt update [NAME] [--force] [--dry-run] [--require-signature]
// [--shared]`: fetch each hub-installed skill's source again and replace it
// through the whole pipeline (core/hub/update.hpp), showing the unified diff.
// Locally modified skills are skipped unless --force. Exit 1 when a skill was
// blocked, unavailable or failed.
#include <iostream>

#include "command.hpp"
#include "recovery_notes.hpp"
#include "core/hub/update.hpp"
#include "progress_line.hpp"
#include "protocol/hub_json.hpp"
#include "sources/source_fetcher.hpp"

namespace skillrt::app {
namespace {

class UpdateCommand final : public Command {
public:
  const char* name() const override { return "update"; }
  const char* summary() const override { return "Update hub-installed skills from their sources"; }
  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "Only this skill");
    sub.add_flag("--force", m_force, "Also replace skills changed on disk since install (their changes are lost)");
    sub.add_flag("--dry-run", m_dry_run, "Show what would change; change nothing");
    sub.add_flag("--require-signature", m_require_signature, "Refuse new versions without a valid trusted signature");
    sub.add_flag("--shared", m_shared, "With --user: update the shared HOME/skills (owner org only)");
  }
  Outcome run(const Invocation& inv) override {
    core::hub::UpdateRequest request;
    if (!m_name.empty()) {
      request.name = m_name;
    }
    request.force = m_force;
    request.dry_run = m_dry_run;
    request.shared = m_shared;
    request.require_signature = m_require_signature;
    const auto fetcher = sources::make_source_fetcher();
    ProgressLine progress(inv.json);
    const core::hub::UpdateOutcome outcome =
        core::hub::update_skills(inv.ctx, inv.config, *fetcher, request, &progress);
    progress.finish();
    const Json result = protocol::update_outcome_json(outcome);
    if (inv.json) {
      print_json(result);
      return outcome_of(result);
    }
    print_recovery_notes(outcome.recovered);
    if (outcome.error) {
      print_error_text(result);
      return Outcome::failed;
    }
    std::cout << protocol::update_outcome_text(outcome, inv.color);
    return outcome.success ? Outcome::ok : Outcome::failed;
  }

private:
  std::string m_name;
  bool m_force = false;
  bool m_dry_run = false;
  bool m_require_signature = false;
  bool m_shared = false;
};

} // namespace

std::unique_ptr<Command> make_update_command() {
  return std::make_unique<UpdateCommand>();
}

} // namespace skillrt::app
