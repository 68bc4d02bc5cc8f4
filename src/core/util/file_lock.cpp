#include "core/util/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

int open_lock_file(const std::filesystem::path& path) {
  return ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& path, std::chrono::milliseconds wait,
                                   const Wording& wording) {
  const int fd = open_lock_file(path);
  if (fd < 0) {
    return fail(ErrorCode::io_error, wording.open_failure + " " + path.string() + ": " + errno_text(errno));
  }
  FileLock lock(fd);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return fail(ErrorCode::io_error, wording.lock_failure + " " + path.string() + ": " + errno_text(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return fail(ErrorCode::io_error, wording.busy);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  return lock;
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  const int fd = open_lock_file(path);
  if (fd < 0) {
    return std::nullopt;
  }
  FileLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    return std::nullopt;
  }
  return lock;
}

FileLock::FileLock(FileLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }

FileLock::~FileLock() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

}  // namespace skillrt::core
