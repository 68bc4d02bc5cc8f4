// `update [NAME] [--force] [--dry-run]`: each hub-installed skill (or NAME)
// is fetched again from its recorded SOURCE into quarantine. A skill changed
// on disk since install is skipped unless --force (which overrides the local
// change only, never the guard or the signature policy). A new bundle goes
// through the whole judgement again (validate, scan at the recorded trust,
// signature, policy) and replaces the old folder through the same crash-safe
// placement as install. The unified diff of what changes is reported.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/judge.hpp"
#include "core/hub/pending_commit.hpp"
#include "core/diff/unified_diff.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct UpdateRequest {
  std::optional<std::string> name;
  bool force = false;
  bool dry_run = false;
  bool shared = false;
  bool require_signature = false;
};

// What happened to one skill; would_update is a dry run's "updated".
enum class UpdateStatus : unsigned char { updated, would_update, up_to_date, skipped_modified, blocked, unavailable, failed };
// "updated" | "would_update" | "up_to_date" | "skipped_modified" | "blocked" | "unavailable" | "failed"
const char* update_status_name(UpdateStatus status);

struct UpdateReport {
  std::string name;
  UpdateStatus status = UpdateStatus::failed;
  std::string reason;
  std::string old_hash;
  std::string new_hash;
  std::optional<diff::TreeDiff> diff;
  std::optional<Judgement> judgement; // when the new bundle was judged
};

struct UpdateOutcome {
  bool success = false; // nothing blocked, unavailable or failed
  std::optional<Error> error;
  std::vector<UpdateReport> skills;
  std::vector<RecoveryNote> recovered;
};

UpdateOutcome update_skills(const Context& ctx, const Config& config, Fetcher& fetcher, const UpdateRequest& request,
                            Progress* progress);

} // namespace skillrt::core::hub
