// Structural findings (category structural, plus the two symlink findings of
// category traversal): what the folder holds rather than what its text says.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"
#include "core/guard/skill_tree.hpp"

namespace skillrt::core {

// Counts and sizes (too_many_files, oversized_skill, oversized_file), symlinks
// (symlink_escape, broken_symlink), special files, executables and hard links.
// `root` must be canonical.
void check_structure(const std::filesystem::path& root, const SkillTree& tree, std::vector<GuardFinding>& out);

enum class ContentKind : unsigned char { text, native_binary, other_binary };

// What the first bytes of a file say it is: a native executable or library
// (ELF, PE, Mach-O), some other binary (NUL bytes, image/archive/PDF magic), or text.
ContentKind classify_content(std::string_view head);

// The binary findings for one regular file; returns its kind. Native code is
// critical anywhere (as are Hermes' binary extensions); other binary content
// is medium outside assets/ and fine inside it.
ContentKind check_binary(std::string_view rel, std::string_view head, std::vector<GuardFinding>& out);

// Whether the content scan reads this file: Hermes' scannable extensions, a
// few more script languages, SKILL.md, well-known extensionless build files,
// and any extensionless file starting with "#!".
bool is_scannable(std::string_view rel, std::string_view head);

} // namespace skillrt::core
