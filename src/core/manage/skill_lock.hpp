// One writer per skill at a time: two processes patching the same skill run one
// after the other, so neither loses the other's update.
#pragma once

#include <utility>

#include <filesystem>
#include <optional>

#include "core/context.hpp"
#include "skillrt/result.hpp"
#include "core/files/file_lock.hpp"

namespace skillrt::core {

// An exclusive flock on HOME/cache/locks/<hash of the skill dir>.lock, held
// until destruction (or until the process dies: the kernel drops it). The lock
// file lives outside the skill so it never shows up in, or dirties, the skill.
class SkillLock {
public:
  // Waits up to limits::k_skill_lock_timeout_ms for `skill_dir` (existing or about
  // to be created; keyed on its resolved path). Fails with io_error when the lock
  // folder cannot be made, or when another writer holds the lock too long.
  static Result<SkillLock> acquire(const Context& ctx, const std::filesystem::path& skill_dir);

  // The lock only if it is free right now; nullopt when another writer holds it.
  static std::optional<SkillLock> try_acquire(const Context& ctx, const std::filesystem::path& skill_dir);

  SkillLock(SkillLock&& other) noexcept = default;
  SkillLock& operator=(SkillLock&&) = delete;
  SkillLock(const SkillLock&) = delete;
  SkillLock& operator=(const SkillLock&) = delete;
  ~SkillLock() = default;

private:
  explicit SkillLock(FileLock lock) : m_lock(std::move(lock)) {}
  FileLock m_lock;
};

// The lock file that guards `skill_dir` (exposed for tests).
std::filesystem::path skill_lock_path(const Context& ctx, const std::filesystem::path& skill_dir);

} // namespace skillrt::core
