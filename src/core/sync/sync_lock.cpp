// The per-home sync lock (see sync_lock.hpp).
#include "core/sync/sync_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <system_error>
#include <thread>

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
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return fail(ErrorCode::io_error,
                "cannot open the sync lock " + path.string() + ": " + std::generic_category().message(errno));
  }
  SyncLock lock(fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::k_skill_lock_timeout_ms);
  // LOCK_NB in a loop keeps the wait bounded: a stuck sync must not hang every later one.
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return fail(ErrorCode::io_error, "cannot lock " + path.string() + ": " + std::generic_category().message(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return fail(ErrorCode::io_error, "another skillrt sync or reset has held " + path.string() + " for over " +
                                           std::to_string(limits::k_skill_lock_timeout_ms / 1000) +
                                           " s; try again later");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  return lock;
}

SyncLock::SyncLock(SyncLock&& other) noexcept : m_fd(other.m_fd) {
  other.m_fd = -1;
}

SyncLock::~SyncLock() {
  if (m_fd >= 0) {
    ::close(m_fd); // closing drops the flock
  }
}

} // namespace skillrt::core::sync
