#include "core/manage/guard_hook.hpp"

#include "core/guard/guard.hpp"

namespace skillrt::core {

GuardVerdict guard_agent_write(const Config& cfg, const std::filesystem::path& skill_dir, bool confirmed) {
  GuardVerdict verdict;
  if (!cfg.skills.guard_agent_created) {
    return verdict;
  }
  ScanOptions options;
  options.source = "agent-created";
  auto scanned = scan_skill(skill_dir, options);
  if (!scanned) {
    // Hermes logs a scanner exception and lets the write stand; we say so in the result.
    verdict.kind = GuardVerdict::Kind::scanner_failed;
    verdict.warning = "Security scan could not run: " + scanned.error().message;
    return verdict;
  }
  const PolicyDecision decision = decide_install(*scanned, false);
  verdict.reason = decision.reason;
  verdict.report = format_scan_report(*scanned, decision);
  switch (decision.decision) {
  case InstallDecision::allow:
    verdict.kind = GuardVerdict::Kind::allowed;
    break;
  case InstallDecision::ask:
    verdict.kind = confirmed ? GuardVerdict::Kind::allowed : GuardVerdict::Kind::needs_confirmation;
    break;
  case InstallDecision::block:
    verdict.kind = GuardVerdict::Kind::blocked;
    break;
  }
  return verdict;
}

} // namespace skillrt::core
