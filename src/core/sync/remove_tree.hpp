// Removing a skill folder that sync or reset owns the decision about, with the
// containment rule of spec §2.13 rule 10: nothing outside the skills root,
// and never the root itself, is ever removed.
#pragma once

#include <filesystem>

#include "skillrt/result.hpp"

namespace skillrt::core::sync {

// Removes `path` when it lies strictly inside `skills_root` (compared after
// resolving both parents, so a symlinked category folder pointing elsewhere
// does not count as inside). A symlink at `path` is removed as a link, never
// followed. Read-only folders inside are made writable and the removal
// retried. Errors: refused ("refusing to remove ...") for the root itself,
// `/`, anything outside; io_error when the removal fails.
Result<void> remove_skill_tree(const std::filesystem::path& path, const std::filesystem::path& skills_root);

// True when `dest` (below `skills_root`, as spelt from it) is a symlink or is
// reached through one: every existing component from the first below the
// root down to `dest` is checked, without following anything. Sync never
// writes such a destination, and nothing judges or removes it.
bool goes_through_symlink(const std::filesystem::path& dest, const std::filesystem::path& skills_root);

// True when `path` would be accepted by remove_skill_tree (no I/O beyond
// resolving the parents).
bool strictly_inside(const std::filesystem::path& path, const std::filesystem::path& skills_root);

} // namespace skillrt::core::sync
