// The walker's string-based core. build_catalog uses it directly because a
// std::filesystem::path costs ~430 heap bytes in libstdc++ (it splits its
// components eagerly), which at 50k skills would blow the memory budget.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/discovery/walker.hpp"

namespace skillrt::core {

struct TextWalk {
  std::vector<std::string> skill_files;   // sorted bytewise
  std::vector<std::string> legacy_files;  // sorted bytewise
  std::vector<SkippedPath> skipped;
  std::size_t dirs_visited = 0;
};

// Same walk as walk_skill_root, with paths as plain strings ("<root>/a/b/SKILL.md").
TextWalk walk_root_text(const std::string& root, const WalkLimits& limits, bool collect_legacy);

}  // namespace skillrt::core
