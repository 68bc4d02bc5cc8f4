#include "core/manage/skill_lock.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <system_error>

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
  auto lock = FileLock::acquire(path, std::chrono::milliseconds(limits::k_skill_lock_timeout_ms),
                               {"Cannot open the lock file", "Cannot lock",
                                "Another writer has held the lock on " + skill_dir.string() + " for over " +
                                    std::to_string(limits::k_skill_lock_timeout_ms / 1000) + " s; try again later."});
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return SkillLock(std::move(*lock));
}

std::optional<SkillLock> SkillLock::try_acquire(const Context& ctx, const fs::path& skill_dir) {
  const fs::path path = skill_lock_path(ctx, skill_dir);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  auto lock = FileLock::try_acquire(path);
  if (!lock) {
    return std::nullopt;
  }
  return SkillLock(std::move(*lock));
}

} // namespace skillrt::core
