// Looking at the user's copies of the bundled skills without changing them
// (spec §2.13 rule 12): the diff of one copy against the shipped version,
// and the list of copies the user changed.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.hpp"
#include "core/diff/unified_diff.hpp"
#include "core/sync/copy_state.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::sync {

struct BundledDiff {
  std::string name;
  std::filesystem::path path;         // the user's copy, HOME/skills/<category>/<name>
  std::filesystem::path bundled_path; // the shipped version
  bool tracked = false;               // in the manifest
  bool origin_known = false;          // the manifest entry is a hash we can check (is_known_origin_hash)
  std::optional<CopyState> state;     // tracked copies only: what sync would make of it
  bool identical = false;             // the folder hashes agree (they also cover symlinks, which `diff` skips)
  core::diff::TreeDiff diff;           // from the shipped version to the user's copy: what the user changed
};

// The diff of `name`'s copy against its shipped version, per file (added,
// removed, modified, binary) with unified hunks; runtime caches are left out
// as they are from the hash. Read-only, no lock (the manifest is replaced
// atomically). Errors: refused for a caller who may not read the shared
// layer, or when the copy is (or is reached through) a symlink; not_found
// when the bundled folder is missing, the name is not bundled (or no longer
// is), or there is no copy (the user deleted it, or it was never synced);
// errors of the manifest read and the folder hash.
Result<BundledDiff> diff_bundled_skill(const Context& ctx, std::string_view name,
                                       const std::filesystem::path& bundled_dir);

struct ModifiedSkill {
  std::string name;
  std::filesystem::path path;
  bool origin_known =
      false; // false: a v1/MD5 entry, counted as modified because the copy differs from the shipped version
};

struct ModifiedReport {
  std::filesystem::path bundled_dir;
  std::vector<ModifiedSkill> modified; // in bundled path order
  std::vector<std::string> symlinked;  // tracked, but the copy goes through a symlink: never judged
  std::size_t total_bundled = 0;
  std::vector<std::string> errors; // bundled skills skipped, copies that could not be hashed
};

// The manifest-tracked, still-bundled skills whose copy exists and is
// user_modified by judge_copy (the rule sync applies). A copy the user
// deleted is not listed; neither is a skill no longer bundled (its copy has
// no shipped path to be found at). Read-only, no lock. Errors: refused (may
// not read the shared layer), not_found (bundled folder), manifest errors.
Result<ModifiedReport> list_user_modified_bundled_skills(const Context& ctx, const std::filesystem::path& bundled_dir);

} // namespace skillrt::core::sync
