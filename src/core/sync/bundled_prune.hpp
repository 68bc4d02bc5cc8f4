// Removing the pristine copies of the bundled skills (spec §2.13 rule 12,
// `remove_pristine_bundled_skills`): for someone who wants only the skills
// they changed, or none, without losing an edit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::sync {

struct PrunedSkill {
  std::string name;
  std::filesystem::path path;
};

struct PruneResult {
  std::filesystem::path bundled_dir;
  bool dry_run = false;
  std::vector<PrunedSkill> removed;        // removed, or with dry_run: would be removed
  std::vector<std::string> kept_differing; // tracked copies that differ from the shipped version (changed by the user,
                                           // or not yet updated): kept
  std::vector<std::string> symlinked;      // the copy is (or goes through) a symlink: never touched
  std::vector<std::string> errors;         // bundled skills skipped, copies not hashed or not removed
};

// Removes (or with `dry_run` only reports) every copy that is in the
// manifest, still bundled, not reached through a symlink, strictly inside
// HOME/skills, and whose folder hash equals the shipped version's. Nothing
// else is touched: not untracked skills, not changed copies, not category
// folders or their DESCRIPTION.md, and not the manifest — the entries stay,
// so the next sync takes the missing copies for deleted by the user and does
// not bring them back (`skillrt reset NAME` does). Runs under the sync lock
// after check_permission(create, shared). Publishes a deleted SkillEvent
// (Layer::shared) per removed copy when ctx.events is set. Errors: refused,
// not_found (bundled folder), the lock, an unreadable manifest.
Result<PruneResult> remove_pristine_bundled_skills(const Context& ctx, const std::filesystem::path& bundled_dir,
                                                   bool dry_run);

} // namespace skillrt::core::sync
