// Resetting one bundled skill (see bundled_reset.hpp).
#include "core/sync/bundled_reset.hpp"

#include <algorithm>
#include <system_error>

#include "core/files/pristine.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_set.hpp"
#include "core/sync/dir_hash.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/sync/shared_skill_event.hpp"
#include "core/sync/sync_lock.hpp"
#include "core/tenancy/permissions.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

ResetResult outcome(bool ok, ResetAction action, std::string message) {
  ResetResult result;
  result.ok = ok;
  result.action = action;
  result.message = std::move(message);
  return result;
}

// Drops the entry, syncs, and says whether the sync recorded the skill again.
ResetResult drop_and_resync(const Context& ctx, const Config& cfg, const std::string& name, BundledManifest manifest,
                            const SyncOptions& options, ResetAction success_action, std::string success_message) {
  manifest.erase(name);
  if (auto written = write_bundled_manifest(bundled_manifest_path(ctx), manifest); !written) {
    return outcome(false, ResetAction::manifest_write_failed, written.error().message);
  }
  auto synced = sync_bundled_skills_locked(ctx, cfg, options);
  if (!synced) {
    return outcome(false, ResetAction::not_rebaselined,
                   "the manifest entry of " + name + " was dropped, but the sync failed: " + synced.error().message);
  }
  auto after = read_bundled_manifest(bundled_manifest_path(ctx));
  const bool tracked = after && after->count(name) > 0;
  ResetResult result = tracked ? outcome(true, success_action, std::move(success_message))
                               : outcome(false, ResetAction::not_rebaselined,
                                         "the manifest entry of " + name +
                                             " was dropped, but the sync did not record it again (see the sync's "
                                             "errors and warnings)");
  result.synced = std::move(*synced);
  return result;
}

} // namespace

const char* reset_action_name(ResetAction action) {
  switch (action) {
  case ResetAction::restored:
    return "restored";
  case ResetAction::manifest_cleared:
    return "manifest_cleared";
  case ResetAction::not_in_manifest:
    return "not_in_manifest";
  case ResetAction::bundled_missing:
    return "bundled_missing";
  case ResetAction::not_reset:
    return "not_reset";
  case ResetAction::refused_copy_diverges:
    return "refused_copy_diverges";
  case ResetAction::not_rebaselined:
    return "not_rebaselined";
  case ResetAction::manifest_write_failed:
    return "manifest_write_failed";
  }
  return "not_reset";
}

Result<ResetResult> reset_bundled_skill(const Context& ctx, const Config& cfg, std::string_view name_view, bool restore,
                                        const SyncOptions& options) {
  if (auto allowed = check_permission(ctx, Operation::create, Layer::shared); !allowed) {
    return tl::unexpected(allowed.error());
  }
  const std::string name(name_view);
  const fs::path root = ctx.skills_dir();
  auto bundled = resolve_bundled_dir(options.bundled_dir, root);
  if (!bundled) {
    return tl::unexpected(bundled.error());
  }
  auto lock = SyncLock::acquire(ctx);
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  auto manifest = read_bundled_manifest(bundled_manifest_path(ctx));
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  const bool tracked = manifest->count(name) > 0;
  const BundledSet set = discover_bundled_skills(*bundled);
  const BundledSkill* shipped = set.find(name);
  if (!tracked && !shipped) {
    return outcome(false, ResetAction::not_in_manifest, "'" + name + "' is not a tracked bundled skill");
  }
  if (restore && !shipped) {
    return outcome(false, ResetAction::bundled_missing,
                   "'" + name + "' is no longer bundled, so there is no shipped version to restore");
  }
  std::error_code ec;
  if (restore) {
    const fs::path dest = root / shipped->relative;
    if (fs::is_symlink(fs::symlink_status(dest, ec))) {
      // A link in place of the copy: removing it loses nothing (its target stays).
      if (auto removed = remove_skill_tree(dest, root); !removed) {
        return outcome(false, ResetAction::not_reset, "cannot remove the link " + dest.string() + ": " +
                                                          removed.error().message);
      }
      publish_shared_skill_change(ctx, ChangeKind::deleted, name, dest);
    }
    if (!fs::exists(fs::symlink_status(dest, ec))) {
      // No copy: without its entry the sync copies the bundled version anew.
      return drop_and_resync(ctx, cfg, name, std::move(*manifest), options, ResetAction::restored,
                             "restored " + name + " from the bundled version");
    }
    // The sync swaps the bundled version in (and records it): the user's copy
    // goes only once the new one is in place, and stays tracked when it fails.
    SyncOptions restoring = options;
    restoring.restore = name;
    auto synced = sync_bundled_skills_locked(ctx, cfg, restoring);
    if (!synced) {
      return outcome(false, ResetAction::not_reset, "cannot restore " + name + ": " + synced.error().message);
    }
    const bool replaced =
        std::find(synced->updated.begin(), synced->updated.end(), name) != synced->updated.end();
    ResetResult result = replaced ? outcome(true, ResetAction::restored, "restored " + name + " from the bundled version")
                                  : outcome(false, ResetAction::not_reset,
                                            "your copy of " + name +
                                                " was left as it was: the bundled version could not be put in its "
                                                "place (see the sync's errors)");
    result.synced = std::move(*synced);
    return result;
  }
  if (shipped) {
    const fs::path dest = root / shipped->relative;
    const fs::file_status status = fs::symlink_status(dest, ec);
    if (fs::exists(status) && !fs::is_symlink(status)) {
      auto user_hash = skill_dir_hash(dest);
      if (!files::is_pristine(user_hash, shipped->hash)) {
        return outcome(false, ResetAction::refused_copy_diverges,
                       "your copy of " + name + " at " + dest.string() +
                           " differs from the bundled version; keep it as it is, or run `skillrt reset " + name +
                           " --restore` to replace it with the bundled version (your changes are then lost)");
      }
    }
  }
  return drop_and_resync(ctx, cfg, name, std::move(*manifest), options, ResetAction::manifest_cleared,
                         "cleared the manifest entry of " + name + "; it follows bundled updates again");
}

} // namespace skillrt::core::sync
