// One bundled sync (or reset) per home at a time: two `skillrt sync` runs at
// once would otherwise both copy, both back up and both rewrite the manifest.
#pragma once

#include <utility>

#include <filesystem>

#include "core/context.hpp"
#include "skillrt/result.hpp"
#include "core/files/file_lock.hpp"

namespace skillrt::core::sync {

// HOME/skills/.bundled_manifest.lock.
std::filesystem::path sync_lock_path(const Context& ctx);

// An exclusive flock on sync_lock_path(ctx), held until destruction (the
// kernel drops it if the process dies). acquire() creates HOME/skills when
// missing and waits up to limits::k_skill_lock_timeout_ms.
class SyncLock {
public:
  static Result<SyncLock> acquire(const Context& ctx);

  SyncLock(SyncLock&& other) noexcept = default;
  SyncLock& operator=(SyncLock&&) = delete;
  SyncLock(const SyncLock&) = delete;
  SyncLock& operator=(const SyncLock&) = delete;
  ~SyncLock() = default;

private:
  explicit SyncLock(FileLock lock) : m_lock(std::move(lock)) {}
  FileLock m_lock;
};

} // namespace skillrt::core::sync
