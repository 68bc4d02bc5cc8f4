// The optional security scan after a skill_manage write (spec §2.10 rule 17,
// §3.3), with "ask" made a confirmation instead of a hard block (§5.1 item 11).
#pragma once

#include <filesystem>
#include <string>

#include "core/config/config.hpp"

namespace skillrt::core {

struct GuardVerdict {
  enum class Kind : unsigned char {
    not_run,            // skills.guard_agent_created is off
    allowed,            // allow, or ask kept because the caller confirmed
    blocked,            // block: roll back
    needs_confirmation, // ask without confirmation: roll back, tell how to confirm
    scanner_failed,     // the write stands; `warning` says why
  };
  Kind kind = Kind::not_run;
  std::string reason;  // the policy's reason
  std::string report;  // format_scan_report
  std::string warning; // scanner_failed only
};

// Scans `skill_dir` as source "agent-created" when cfg enables the guard and
// applies the install policy; `confirmed` keeps an "ask" (never a "block").
GuardVerdict guard_agent_write(const Config& cfg, const std::filesystem::path& skill_dir, bool confirmed);

} // namespace skillrt::core
