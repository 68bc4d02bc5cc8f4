// The per-home sync lock (see sync_lock.hpp).
#include "core/sync/sync_lock.hpp"


#include <chrono>
#include <system_error>

#include "core/limits.hpp"

namespace skillrt::core::sync {

namespace fs = std::filesystem;

fs::path sync_lock_path(const Context& ctx) {
  return ctx.skills_dir() / ".bundled_manifest.lock";
}

Result<SyncLock> SyncLock::acquire(const Context& ctx) {
  const fs::path path = sync_lock_path(ctx);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + path.parent_path().string() + ": " + ec.message());
  }
  // A bounded wait: a stuck sync must not hang every later one.
  auto lock = FileLock::acquire(path, std::chrono::milliseconds(limits::k_skill_lock_timeout_ms),
                               {"cannot open the sync lock", "cannot lock",
                                "another skillrt sync or reset has held " + path.string() + " for over " +
                                    std::to_string(limits::k_skill_lock_timeout_ms / 1000) + " s; try again later"});
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return SyncLock(std::move(*lock));
}

} // namespace skillrt::core::sync
