// The skills a bundled folder ships, as sync, reset, diff, the user-modified
// list and prune all see them: one discovery, so every operation agrees on
// which skills are bundled, under which name, at which path, with which hash.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core::sync {

struct BundledSkill {
  std::string name;
  std::filesystem::path dir;      // in the bundled folder
  std::filesystem::path relative; // "category/name": the destination below HOME/skills
  std::string hash;               // skill_dir_hash of `dir`
};

struct BundledSet {
  std::vector<BundledSkill> skills;  // usable skills, in bundled path order
  std::set<std::string> names;       // every name seen, usable or not (manifest cleanup keeps these)
  std::vector<std::string> problems; // why a SKILL.md was skipped, one line each
  bool complete = true;              // every bundled SKILL.md could be read

  const BundledSkill* find(std::string_view name) const;
};

// The bundled folder, resolved. Errors: invalid_argument for an empty path,
// not_found when it is not a folder, invalid_argument when it and
// `skills_root` (when that exists) lie inside one another: syncing, or
// pruning, one into the other would destroy the shipped skills.
Result<std::filesystem::path> resolve_bundled_dir(const std::filesystem::path& bundled_dir,
                                                  const std::filesystem::path& skills_root);

// Every SKILL.md below `bundled_root` (the one walker's rules). A skill is
// skipped, with a problem line, when its SKILL.md cannot be read (`complete`
// turns false), it sits at the top of the folder, its name cannot be a
// manifest key, another bundled skill already has the name, or its folder
// cannot be hashed.
BundledSet discover_bundled_skills(const std::filesystem::path& bundled_root);

} // namespace skillrt::core::sync
