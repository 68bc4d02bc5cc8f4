// The hub's folders and its operation lock (see hub_paths.hpp).
#include "core/hub/hub_paths.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <system_error>
#include <thread>

#include "core/limits.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

// mkdir 0700 unless it exists as a real directory; a symlink is refused so
// the hub state can never be redirected outside the root.
Result<void> make_private_dir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) {
    return {};
  }
  const int err = errno;
  struct stat st {};
  if (err == EEXIST && ::lstat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return {};
    }
    return fail(ErrorCode::refused,
                dir.string() + " exists but is not a directory (a symlink or a file); refusing to use it");
  }
  return fail(ErrorCode::io_error, "Cannot create " + dir.string() + ": " + errno_text(err));
}

} // namespace

Result<HubPaths> resolve_hub_paths(const Context& ctx, bool shared, Operation op, HubTarget target) {
  HubPaths paths;
  if (ctx.user_id && !shared) {
    paths.layer = Layer::user;
    paths.owner = *ctx.user_id;
  }
  if (auto allowed = check_permission(ctx, op, paths.layer, paths.owner); !allowed) {
    return tl::unexpected(allowed.error());
  }
  if (paths.layer == Layer::user) {
    auto home = ensure_user_home(ctx);
    if (!home) {
      return tl::unexpected(home.error());
    }
    paths.root = target == HubTarget::plugins ? home->root / "plugins" : home->skills;
  } else {
    paths.root = target == HubTarget::plugins ? shared_plugins_dir(ctx) : ctx.skills_dir();
  }
  paths.hub = paths.root / ".hub";
  paths.lock_json = paths.hub / "lock.json";
  paths.audit_log = paths.hub / "audit.log";
  paths.quarantine = paths.hub / "quarantine";
  paths.pending = paths.hub / "pending";
  paths.trash = paths.hub / "trash";
  paths.op_lock = paths.hub / "lock";
  return paths;
}

Result<void> ensure_hub_dirs(const HubPaths& paths) {
  std::error_code ec;
  if (!fs::exists(paths.root, ec)) {
    fs::create_directories(paths.root, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "Cannot create the skills root " + paths.root.string() + ": " + ec.message());
    }
  }
  for (const fs::path* dir : {&paths.hub, &paths.quarantine, &paths.pending, &paths.trash}) {
    if (auto made = make_private_dir(*dir); !made) {
      return made;
    }
  }
  return {};
}

Result<HubOperationLock> HubOperationLock::acquire(const HubPaths& paths) {
  // A bounded wait: a stuck hub command must not hang the next one forever.
  auto lock = FileLock::acquire(paths.op_lock, std::chrono::milliseconds(limits::k_skill_lock_timeout_ms),
                               {"Cannot open the hub lock", "Cannot lock",
                                "Another hub command has held " + paths.op_lock.string() + " for over " +
                                    std::to_string(limits::k_skill_lock_timeout_ms / 1000) +
                                    " s; try again later."});
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return HubOperationLock(std::move(*lock));
}

} // namespace skillrt::core::hub
