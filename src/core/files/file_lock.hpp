// An exclusive flock on a lock file, taken with a bounded wait: the one
// mechanism behind the skill, user-state, sync and hub locks.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "core/files/unique_fd.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

class FileLock {
 public:
  // How a caller words its failures: "<open_failure> <path>: <errno text>",
  // "<lock_failure> <path>: <errno text>", and `busy` verbatim when the wait
  // runs out.
  struct Wording {
    std::string open_failure;
    std::string lock_failure;
    std::string busy;
  };

  // Opens (creating it 0600, never through a symlink) the file at `path`,
  // whose folder must exist, and takes the flock. Polls with LOCK_NB instead
  // of blocking, so a stuck holder never hangs the next caller past `wait`.
  static Result<FileLock> acquire(const std::filesystem::path& path, std::chrono::milliseconds wait,
                                  const Wording& wording);
  // The lock only if it is free right now; nullopt otherwise (or on any error).
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path);

  FileLock(FileLock&& other) noexcept = default;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() = default;  // closing the file drops the flock (the kernel drops it if the process dies)

 private:
  explicit FileLock(files::UniqueFd fd) : m_fd(std::move(fd)) {}
  files::UniqueFd m_fd;
};

}  // namespace skillrt::core
