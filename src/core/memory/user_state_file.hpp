// The per-user state files (HOME/users/<uid>/memory.json and todo.json): one
// writer per file at a time, whole-file atomic replacement, owner-only mode.
#pragma once

#include <utility>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/context.hpp"
#include "skillrt/result.hpp"
#include "core/files/file_lock.hpp"

namespace skillrt::core {

// An exclusive flock on HOME/cache/locks/user-<uid>.<file>.lock, held until
// destruction (the kernel drops it if the process dies). Read-modify-write of
// a user's file happens under it, so two writers never lose each other's change.
class UserStateLock {
public:
  // `file_stem` names the guarded file ("memory", "todo"). Waits up to
  // limits::k_user_state_lock_timeout_ms. ctx must carry a valid user id.
  static Result<UserStateLock> acquire(const Context& ctx, std::string_view file_stem);

  UserStateLock(UserStateLock&& other) noexcept = default;
  UserStateLock& operator=(UserStateLock&&) = delete;
  UserStateLock(const UserStateLock&) = delete;
  UserStateLock& operator=(const UserStateLock&) = delete;
  ~UserStateLock() = default;

private:
  explicit UserStateLock(FileLock lock) : m_lock(std::move(lock)) {}
  FileLock m_lock;
};

// The bytes of a state file; nullopt when it does not exist yet. Refuses a
// symlink or anything but a regular file (refused), and a file above
// limits::k_max_user_state_file_bytes (limit_exceeded).
Result<std::optional<std::string>> read_user_state_file(const std::filesystem::path& path);

// Replaces the state file atomically (readers see the old or the new bytes)
// and leaves it with mode 0600. Refuses to write through a symlink.
Result<void> write_user_state_file(const std::filesystem::path& path, std::string_view content);

} // namespace skillrt::core
