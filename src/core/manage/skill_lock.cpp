#include "core/manage/skill_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <system_error>
#include <thread>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

// FNV-1a: stable across builds and platforms, which std::hash is not.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

} // namespace

fs::path skill_lock_path(const Context& ctx, const fs::path& skill_dir) {
  std::error_code ec;
  fs::path key = fs::weakly_canonical(skill_dir, ec);
  if (ec) {
    key = skill_dir.lexically_normal();
  }
  char name[32];
  std::snprintf(name, sizeof name, "skill-%016llx.lock", static_cast<unsigned long long>(fnv1a(key.native())));
  return ctx.home / "cache" / "locks" / name;
}

Result<SkillLock> SkillLock::acquire(const Context& ctx, const fs::path& skill_dir) {
  const fs::path path = skill_lock_path(ctx, skill_dir);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return fail(ErrorCode::io_error,
                "Cannot create the lock folder " + path.parent_path().string() + ": " + ec.message());
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return fail(ErrorCode::io_error,
                "Cannot open the lock file " + path.string() + ": " + std::generic_category().message(errno));
  }
  SkillLock lock(fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::k_skill_lock_timeout_ms);
  // Polling with LOCK_NB instead of a blocking flock keeps a bound on the wait
  // (a stuck writer must not hang every other one forever).
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return fail(ErrorCode::io_error, "Cannot lock " + path.string() + ": " + std::generic_category().message(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return fail(ErrorCode::io_error, "Another writer has held the lock on " + skill_dir.string() + " for over " +
                                           std::to_string(limits::k_skill_lock_timeout_ms / 1000) +
                                           " s; try again later.");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  return lock;
}

std::optional<SkillLock> SkillLock::try_acquire(const Context& ctx, const fs::path& skill_dir) {
  const fs::path path = skill_lock_path(ctx, skill_dir);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return std::nullopt;
  }
  SkillLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    return std::nullopt;
  }
  return lock;
}

SkillLock::SkillLock(SkillLock&& other) noexcept : m_fd(other.m_fd) {
  other.m_fd = -1;
}

SkillLock::~SkillLock() {
  if (m_fd >= 0) {
    ::close(m_fd); // closing drops the flock
  }
}

} // namespace skillrt::core
