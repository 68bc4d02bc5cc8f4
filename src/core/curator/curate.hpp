// The curator (Hermes' curator, done safely; issue 2/6 item 5): ages the
// skills the agent made — active → stale after 30 days unused → archived
// after 90, where archiving moves the skill into the archive/ folder (out of
// the prompt index, still viewable). It never deletes, and never touches a
// pinned skill or one a person, the hub or the bundle made. A stale skill
// used again is active again. --dry-run reports without changing anything.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/usage/usage_record.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct CurateOptions {
  bool dry_run = false;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
  int stale_days = 30;
  int archive_days = 90;
};

struct CurateChange {
  std::string name;
  SkillLifecycle from = SkillLifecycle::active;
  SkillLifecycle to = SkillLifecycle::active;
  int idle_days = 0;           // days since the last view or use (or since creation)
  std::string moved_to;        // archived: the new folder ("" otherwise)
  std::string error;           // the change could not be made ("" = made, or would be with --dry-run)
};

struct CurateReport {
  std::vector<CurateChange> changes;
  std::size_t examined = 0;    // agent-made skills looked at
  std::size_t skipped_pinned = 0;
  bool dry_run = false;
};

// Curates the writable layer of ctx (the user's own skills with a user, else
// HOME/skills).
Result<CurateReport> curate_skills(const Context& ctx, const Config& cfg, const CurateOptions& options);

}  // namespace skillrt::core
