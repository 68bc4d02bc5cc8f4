// Diff and user-modified list of the bundled skills (see bundled_inspect.hpp).
#include "core/sync/bundled_inspect.hpp"

#include <system_error>

#include "core/files/runtime_cache.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_set.hpp"
#include "core/sync/dir_hash.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/tenancy/permissions.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

bool exists_no_follow(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

// What both read-only operations start from: the caller may read the shared
// layer, the bundled folder resolves, the manifest reads.
struct InspectStart {
  fs::path root;    // HOME/skills
  fs::path bundled; // resolved
  BundledManifest manifest;
};

Result<InspectStart> start_inspection(const Context& ctx, const fs::path& bundled_dir) {
  if (auto allowed = check_permission(ctx, Operation::read, Layer::shared); !allowed) {
    return tl::unexpected(allowed.error());
  }
  InspectStart out;
  out.root = ctx.skills_dir();
  auto bundled = resolve_bundled_dir(bundled_dir, out.root);
  if (!bundled) {
    return tl::unexpected(bundled.error());
  }
  out.bundled = std::move(*bundled);
  auto manifest = read_bundled_manifest(bundled_manifest_path(ctx));
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  out.manifest = std::move(*manifest);
  return out;
}

} // namespace

Result<BundledDiff> diff_bundled_skill(const Context& ctx, std::string_view name_view, const fs::path& bundled_dir) {
  auto start = start_inspection(ctx, bundled_dir);
  if (!start) {
    return tl::unexpected(start.error());
  }
  const fs::path& root = start->root;
  const BundledManifest& manifest = start->manifest;
  const std::string name(name_view);
  const auto entry = manifest.find(name);
  const BundledSet set = discover_bundled_skills(start->bundled);
  const BundledSkill* shipped = set.find(name);
  if (shipped == nullptr) {
    if (entry != manifest.end()) {
      return fail(ErrorCode::not_found,
                  "'" + name + "' is no longer bundled: there is no shipped version to compare your copy with");
    }
    return fail(ErrorCode::not_found, "'" + name + "' is not a bundled skill");
  }
  BundledDiff out;
  out.name = name;
  out.path = root / shipped->relative;
  out.bundled_path = shipped->dir;
  out.tracked = entry != manifest.end();
  out.origin_known = out.tracked && is_known_origin_hash(entry->second);
  if (goes_through_symlink(out.path, root)) {
    return fail(ErrorCode::refused, "your copy of " + name + " at " + out.path.string() +
                                        " is (or is reached through) a symlink; sync does not manage it, so "
                                        "there is nothing to compare");
  }
  if (!exists_no_follow(out.path)) {
    return fail(ErrorCode::not_found, out.tracked ? "you have no copy of " + name + " at " + out.path.string() +
                                                        " (deleted?); `skillrt reset " + name +
                                                        "` brings the bundled version back"
                                                  : "'" + name + "' is bundled but has no copy at " +
                                                        out.path.string() + "; `skillrt sync` copies it");
  }
  auto copy_hash = skill_dir_hash(out.path);
  if (!copy_hash) {
    return tl::unexpected(copy_hash.error());
  }
  out.identical = *copy_hash == shipped->hash;
  if (out.tracked) {
    out.state = judge_copy(*copy_hash, entry->second, shipped->hash);
  }
  // What the hash leaves out, the diff leaves out too.
  out.diff = diff::diff_trees(shipped->dir, out.path, files::is_runtime_cache);
  return out;
}

Result<ModifiedReport> list_user_modified_bundled_skills(const Context& ctx, const fs::path& bundled_dir) {
  auto start = start_inspection(ctx, bundled_dir);
  if (!start) {
    return tl::unexpected(start.error());
  }
  const fs::path& root = start->root;
  const BundledManifest& manifest = start->manifest;
  BundledSet set = discover_bundled_skills(start->bundled);
  ModifiedReport out;
  out.bundled_dir = start->bundled;
  out.total_bundled = set.skills.size();
  out.errors = std::move(set.problems);
  for (const BundledSkill& skill : set.skills) {
    const auto entry = manifest.find(skill.name);
    if (entry == manifest.end()) {
      continue; // not ours: a local skill of the same name, or never synced
    }
    const fs::path dest = root / skill.relative;
    if (goes_through_symlink(dest, root)) {
      out.symlinked.push_back(skill.name);
      continue;
    }
    if (!exists_no_follow(dest)) {
      continue; // deleted by the user: nothing of theirs to keep
    }
    auto copy_hash = skill_dir_hash(dest);
    if (!copy_hash) {
      out.errors.push_back(skill.name + ": cannot hash " + dest.string() + ": " + copy_hash.error().message);
      continue;
    }
    if (judge_copy(*copy_hash, entry->second, skill.hash) == CopyState::user_modified) {
      out.modified.push_back({skill.name, dest, is_known_origin_hash(entry->second)});
    }
  }
  return out;
}

} // namespace skillrt::core::sync
