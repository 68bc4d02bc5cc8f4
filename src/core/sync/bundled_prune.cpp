// Removing pristine bundled copies (see bundled_prune.hpp).
#include "core/sync/bundled_prune.hpp"

#include <system_error>

#include "core/files/pristine.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_set.hpp"
#include "core/sync/dir_hash.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/sync/shared_skill_event.hpp"
#include "core/sync/sync_lock.hpp"
#include "core/tenancy/permissions.hpp"

namespace skillrt::core::sync {
namespace fs = std::filesystem;

Result<PruneResult> remove_pristine_bundled_skills(const Context& ctx, const fs::path& bundled_dir, bool dry_run) {
  if (auto allowed = check_permission(ctx, Operation::create, Layer::shared); !allowed) {
    return tl::unexpected(allowed.error());
  }
  const fs::path root = ctx.skills_dir();
  auto bundled = resolve_bundled_dir(bundled_dir, root);
  if (!bundled) {
    return tl::unexpected(bundled.error());
  }
  PruneResult out;
  out.bundled_dir = *bundled;
  out.dry_run = dry_run;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root, ec))) {
    return out; // no skills folder: nothing to remove, and a dry run creates nothing
  }
  auto lock = SyncLock::acquire(ctx);
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  auto manifest = read_bundled_manifest(bundled_manifest_path(ctx));
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  BundledSet set = discover_bundled_skills(*bundled);
  out.errors = std::move(set.problems);
  for (const BundledSkill& skill : set.skills) {
    if (manifest->count(skill.name) == 0) {
      continue; // not put there by sync: never ours to remove
    }
    const fs::path dest = root / skill.relative;
    if (goes_through_symlink(dest, root)) {
      out.symlinked.push_back(skill.name);
      continue;
    }
    if (!fs::exists(fs::symlink_status(dest, ec))) {
      continue; // already gone
    }
    auto copy_hash = skill_dir_hash(dest);
    if (!copy_hash) {
      out.errors.push_back(skill.name + ": cannot hash " + dest.string() +
                           ", left as it is: " + copy_hash.error().message);
      continue;
    }
    if (!files::is_pristine(std::string_view(*copy_hash), skill.hash)) {
      out.kept_differing.push_back(skill.name);
      continue;
    }
    if (!strictly_inside(dest, root)) {
      out.errors.push_back(skill.name + ": " + dest.string() + " is not strictly inside " + root.string() +
                           "; left as it is");
      continue;
    }
    if (!dry_run) {
      if (auto removed = remove_skill_tree(dest, root); !removed) {
        out.errors.push_back(skill.name + ": " + removed.error().message);
        continue;
      }
      publish_shared_skill_change(ctx, ChangeKind::deleted, skill.name, dest);
    }
    out.removed.push_back({skill.name, dest});
  }
  if (!dry_run && !out.removed.empty()) {
    invalidate_skill_caches(ctx);
  }
  return out;
}

} // namespace skillrt::core::sync
