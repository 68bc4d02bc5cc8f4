// The skills below one folder, by name: the bundled set sync ships, the copies
// in HOME/skills it looks through for renamed or still-active skills, and the
// names an external dir provides.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/discovery/walker.hpp"

namespace skillrt::core::sync {

struct IndexedSkill {
  std::string name;               // frontmatter `name`, else the folder name
  std::filesystem::path dir;      // the skill folder (under the walked root as given)
  std::filesystem::path relative; // dir relative to the root ("category/name")
};

struct SkillIndex {
  std::vector<IndexedSkill> skills;  // in the walker's order (sorted by path)
  std::vector<std::string> problems; // SKILL.md files that could not be read, with why
};

// Every SKILL.md the one walker finds below `root` (excluded and support
// folders, HOME/users and skillrt's work folders pruned as everywhere else).
// A SKILL.md whose frontmatter cannot be read is a problem, not a skill.
SkillIndex index_skills(const std::filesystem::path& root, const WalkLimits& limits);

} // namespace skillrt::core::sync
