// The entries of one skill folder as the guard sees them: a bounded,
// iterative walk that never follows a symlink and never opens anything but
// directories (the scanner opens regular files itself).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/guard/guard.hpp"
#include "core/guard/ignore_rules.hpp"

namespace skillrt::core {

struct SkillEntry {
  enum class Type : unsigned char { regular, symlink, special };
  std::string rel; // POSIX path relative to the skill root
  Type type = Type::regular;
  mode_t mode = 0;
  nlink_t links = 1;
  std::uint64_t size = 0;
};

struct SkillTree {
  std::vector<SkillEntry> entries;    // files, symlinks and special files, sorted by rel (byte order)
  std::vector<GuardFinding> problems; // unreadable directories, depth or entry limits hit
};

// Walks `root` (a directory) depth-first without recursion. Ignored paths
// (`ignore`) are left out; ignored directories are not entered. Bounded by
// limits::k_max_walk_depth and limits::k_guard_max_entries.
SkillTree walk_skill_tree(const std::filesystem::path& root, const IgnoreRules& ignore);

} // namespace skillrt::core
