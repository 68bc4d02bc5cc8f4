#include "core/files/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <utility>

#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

files::UniqueFd open_lock_file(const std::filesystem::path& path) {
  return files::UniqueFd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& path, std::chrono::milliseconds wait,
                                   const Wording& wording) {
  files::UniqueFd fd = open_lock_file(path);
  if (!fd) {
    return fail(ErrorCode::io_error, wording.open_failure + " " + path.string() + ": " + errno_text(errno));
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return fail(ErrorCode::io_error, wording.lock_failure + " " + path.string() + ": " + errno_text(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return fail(ErrorCode::io_error, wording.busy);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  return FileLock(std::move(fd));
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  files::UniqueFd fd = open_lock_file(path);
  if (!fd || ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    return std::nullopt;
  }
  return FileLock(std::move(fd));
}

}  // namespace skillrt::core
