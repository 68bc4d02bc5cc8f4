// `skillrt sync` (spec §2.13 rules 4-9): brings the bundled skills into the
// shared layer HOME/skills without ever losing a user's edit.
//
// Per bundled skill: new ones are copied; a copy still identical to what we
// last wrote (its origin hash in the manifest) is replaced by the new version
// through a backup that is put back on failure; a copy the user changed is
// left alone ("user_modified"); a copy the user deleted is not re-added.
// Names no longer bundled leave the manifest once no copy remains.
//
// Stronger than Hermes on data safety: an entry whose origin we cannot check
// (a v1 line without hash, or a 32-hex MD5 from Hermes) is re-baselined only
// when the user's copy equals the bundled one; otherwise the copy counts as
// user-modified until `reset`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/progress.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::sync {

// The opt-out marker: HOME/.no-bundled-skills.
std::filesystem::path opt_out_marker_path(const Context& ctx);

// Seeded even with the opt-out marker: the skill that teaches an agent how to
// use skillrt itself (Hermes' ESSENTIAL_SKILLS, whose counterpart is its own
// usage skill).
inline constexpr std::string_view k_essential_skill = "using-skillrt";
bool is_essential_skill(std::string_view name);

struct SyncOptions {
  std::filesystem::path bundled_dir; // where the shipped skills are
  Progress* progress = nullptr; // phase "sync", one step per bundled skill
  // `reset --restore`: the copy of this bundled skill is replaced by the
  // bundled version whatever its state (one folder swap, so a failure leaves
  // the user's copy as it was). Empty: none.
  std::string restore;
};

// Spec §2.13 rule 9, without `suppressed` and `optional_provenance_backfilled`
// (skillrt has no curator and no optional-skills hub source).
struct SyncResult {
  std::filesystem::path bundled_dir;
  std::vector<std::string> copied;
  std::vector<std::string> updated;
  std::size_t skipped = 0; // bundled skills left as they were
  std::vector<std::string> user_modified;
  std::vector<std::string> cleaned;   // manifest entries dropped (no longer bundled, no copy left)
  std::vector<std::string> relocated; // a renamed/moved pristine copy moved back to its bundled path
  std::vector<std::string> symlinked; // destination is (or goes through) a symlink: never written
  std::vector<std::string> shadowed_by_external;
  std::size_t total_bundled = 0;
  bool skipped_opt_out = false;
  std::vector<std::string> descriptions_copied; // DESCRIPTION.md files written (relative paths)
  std::vector<std::string> warnings;            // nothing lost, but the user should know
  std::vector<std::string> errors;              // a skill could not be handled; retried next sync
  bool manifest_written = false;
};

// Runs the sync under the sync lock. Fails as a whole (nothing written) when
// the actor may not write the shared layer (check_permission create/shared),
// the bundled folder is missing, the lock cannot be taken, or the manifest
// cannot be read; per-skill problems land in `errors` and the rest proceeds.
// Publishes a SkillEvent (Layer::shared) per copied, updated or relocated
// skill, and per stale copy removed, when ctx.events is set.
Result<SyncResult> sync_bundled_skills(const Context& ctx, const Config& cfg, const SyncOptions& options);

// The same, for a caller that already holds the SyncLock (reset) and has
// checked the permission.
Result<SyncResult> sync_bundled_skills_locked(const Context& ctx, const Config& cfg, const SyncOptions& options);

} // namespace skillrt::core::sync
