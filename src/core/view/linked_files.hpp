// The support files a directory skill offers (spec §2.7 rule 16): references,
// templates, assets and scripts, each with Hermes' extensions and recursion.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/view/failure.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_linked_files_usage_hint =
    "To view linked files, call skill_view(name, file_path) where file_path is e.g. "
    "'references/api.md' or 'assets/config.yaml'";

// Groups in the order references → templates → assets → scripts; values are
// POSIX paths relative to skill_dir, sorted; empty groups are left out (so an
// empty result means "null" to the caller). Regular files only (symlinks to
// files count when they resolve inside the skill; symlinked directories are not
// descended). Never throws.
FileGroups collect_linked_files(const std::filesystem::path& skill_dir);

// Every file of the skill for a not-found answer (spec §2.7 rule 19): grouped
// references/templates/assets/scripts by top directory, "other" for files with a
// known source extension elsewhere; SKILL.md and anything under a dot-directory
// are skipped, so is a file resolving outside the skill; sorted; empty groups left out.
FileGroups available_skill_files(const std::filesystem::path& skill_dir);

} // namespace skillrt::core
