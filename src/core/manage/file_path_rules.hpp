// Where write_file, remove_file and patch may touch a skill (spec §2.10 rule 9).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

// A supporting-file path that passed the rules.
struct ManagedFilePath {
  std::string rel;          // normalised POSIX path ("references/api.md"), "SKILL.md" for the main file
  bool is_skill_md = false; // `SKILL.md` or `<x>/SKILL.md`: the skill's own SKILL.md
};

// The four folders manage writes into: references, templates, scripts, assets.
bool is_allowed_manage_subdir(std::string_view name);

// Rule 9 before any filesystem access: required, no NUL, not absolute, no `..`,
// SKILL.md forms, else the first component is an allowed folder and there are
// at least two components. Errors are invalid_argument with Hermes' messages.
Result<ManagedFilePath> check_manage_file_path(std::string_view file_path);

// skill_dir/rel with every existing symlink resolved; fails (refused, message
// containing "escapes") when the result leaves the resolved skill directory.
Result<std::filesystem::path> resolve_inside_skill(const std::filesystem::path& skill_dir, const std::string& rel);

// Every regular file under the allowed folders, as sorted POSIX paths relative to
// skill_dir (bounded by limits::k_max_linked_files).
std::vector<std::string> files_in_allowed_subdirs(const std::filesystem::path& skill_dir);

} // namespace skillrt::core
