// Copying one bundled skill folder into the home: runtime caches left out,
// the bundle limits enforced, nothing half-copied left behind.
#pragma once

#include <filesystem>

#include "skillrt/result.hpp"

namespace skillrt::core::sync {

// Copies the folder `from` to `to`, which must not exist (its parent must).
// Runtime caches (core/files/runtime_cache.hpp) are left out; symlinks are copied as symlinks
// (never followed), regular files with their permission bits; a FIFO, socket
// or device is refused. The bundle limits of limits.hpp apply (entries, bytes
// per file and in all, depth). On failure `to` is removed again and the error
// names the entry. Callers copy into a staging name and rename it into place.
Result<void> copy_skill_tree(const std::filesystem::path& from, const std::filesystem::path& to);

} // namespace skillrt::core::sync
