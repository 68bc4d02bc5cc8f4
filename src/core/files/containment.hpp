// The one containment rule every reader of a skill's files applies (issue 14
// item 8): a file may be read only when its real path, every symlink
// resolved, stays inside the real path of the folder it belongs to.
#pragma once

#include <filesystem>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// The real path of `folder / relative` when it stays inside the real path of
// `folder` (which must exist). Errors: refused (message contains "escapes")
// when a symlink leads out, io_error when `folder` cannot be resolved. A
// missing target is not an error here: its would-be path is returned.
Result<std::filesystem::path> resolve_inside(const std::filesystem::path& folder, const std::filesystem::path& relative);

// The real path of a skill's entry file (SKILL.md, or a legacy flat NAME.md)
// when it stays inside the folder that holds it; refused otherwise. A SKILL.md
// linked to another file of the same skill is fine.
Result<std::filesystem::path> resolve_entry_file(const std::filesystem::path& file);

// True when `path` resolves inside `folder` (both through symlinks); false on
// any error, so a doubtful file is never offered.
bool stays_inside(const std::filesystem::path& folder, const std::filesystem::path& path);
// stays_inside with the folder already canonical (fs::canonical), for callers
// that check many files of one folder and resolve it once.
bool stays_inside_canonical(const std::filesystem::path& canonical_folder, const std::filesystem::path& path);

}  // namespace skillrt::core
