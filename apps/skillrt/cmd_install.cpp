// `skillrt install SOURCE [--category C] [--force] [--trust LEVEL]
// [--require-signature] [--shared]`: fetch into quarantine, judge every skill
// of the bundle (validate, guard scan, signature, policy) and place the allowed
// ones (core/hub/install.hpp). Exit 0 when every skill was installed, 1 when
// one was blocked or the operation failed, 2 on a usage error.
#include <iostream>

#include "command.hpp"
#include "recovery_notes.hpp"
#include "core/hub/install.hpp"
#include "progress_line.hpp"
#include "protocol/hub_json.hpp"
#include "sources/source_fetcher.hpp"

namespace skillrt::app {
namespace {

class InstallCommand final : public Command {
public:
  const char* name() const override { return "install"; }
  const char* summary() const override { return "Install skills from a folder, archive, git repository or https URL"; }
  void configure(CLI::App& sub) override {
    sub.add_option("source", m_source, "SOURCE[//subdir][#ref]: folder, .tar.gz/.tgz/.zip, git repository or URL")
        ->required();
    sub.add_option("--category", m_category, "Install below this category folder (nested allowed: a/b)");
    sub.add_flag("--force", m_force,
                 "Reinstall an installed skill; install despite a caution verdict (never a dangerous one)");
    // Not "builtin": that level allows even a dangerous verdict, and only
    // skills that ship with skillrt (the bundled sync) have it.
    sub.add_option("--trust", m_trust, "Trust level for the scan policy: trusted or community")
        ->check(CLI::IsMember({"trusted", "community"}));
    sub.add_flag("--require-signature", m_require_signature, "Refuse skills without a valid trusted signature");
    sub.add_flag("--shared", m_shared, "With --user: install into the shared HOME/skills (owner org only)");
  }
  Outcome run(const Invocation& inv) override {
    core::hub::InstallRequest request;
    request.source = m_source;
    request.category = m_category;
    request.force = m_force;
    if (!m_trust.empty()) {
      request.trust = core::parse_trust_level(m_trust);
    }
    request.require_signature = m_require_signature;
    request.shared = m_shared;
    const auto fetcher = sources::make_source_fetcher();
    ProgressLine progress(inv.json);
    const core::hub::InstallOutcome outcome =
        core::hub::install_skills(inv.ctx, inv.config, *fetcher, request, &progress);
    progress.finish();
    const Json result = protocol::install_outcome_json(outcome);
    if (inv.json) {
      print_json(result);
      return outcome_of(result);
    }
    print_recovery_notes(outcome.recovered);
    if (outcome.error) {
      print_error_text(result);
      return Outcome::failed;
    }
    for (const core::hub::InstallReport& r : outcome.skills) {
      if (r.judgement.scan && r.judgement.policy) {
        std::cout << core::format_scan_report(*r.judgement.scan, *r.judgement.policy, core::ReportDetail::explained)
                  << '\n';
      }
      for (const std::string& w : r.judgement.warnings) {
        std::cout << "  warning: " << w << '\n';
      }
      for (const std::string& e : r.judgement.validation_errors) {
        std::cout << "  validation: " << e << '\n';
      }
      if (r.judgement.signature) {
        std::cout << "Signature: " << core::hub::signature_status_name(r.judgement.signature->status)
                  << (r.judgement.signature_required ? " (required)" : "") << " - " << r.judgement.signature->message
                  << '\n';
      }
      switch (r.outcome) {
      case core::hub::SkillOutcome::installed:
      case core::hub::SkillOutcome::reinstalled:
      case core::hub::SkillOutcome::updated:
        std::cout << "Installed '" << r.name << "' into " << r.path.string() << " ("
                  << (r.entry ? r.entry->content_hash : std::string()) << ")\n";
        break;
      case core::hub::SkillOutcome::blocked:
        std::cout << "BLOCKED '" << r.name << "': " << r.reason << '\n' << protocol::guard_block_text(r.judgement);
        break;
      case core::hub::SkillOutcome::failed:
        std::cout << "FAILED '" << r.name << "': " << r.reason << '\n';
        break;
      case core::hub::SkillOutcome::allowed:  // a preview's answer; the CLI installs in one step
        std::cout << "Allowed '" << r.name << "' (not installed)\n";
        break;
      }
    }
    return outcome.success ? Outcome::ok : Outcome::failed;
  }

private:
  std::string m_source;
  std::string m_category;
  bool m_force = false;
  std::string m_trust;
  bool m_require_signature = false;
  bool m_shared = false;
};

} // namespace

std::unique_ptr<Command> make_install_command() {
  return std::make_unique<InstallCommand>();
}

} // namespace skillrt::app
