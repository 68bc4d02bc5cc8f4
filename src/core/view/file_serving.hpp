// Serving one file from inside a skill directory (spec §2.7 rule 19), with
// Hermes' binary-file branch made reachable (spec §5.1 item 5 fixed).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/view/failure.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_file_path_hint = "Use a relative path within the skill directory";
inline constexpr std::string_view k_available_files_hint = "Use one of the available file paths listed above";

struct ServedFile {
  std::string file;                  // the path as requested
  std::string content;               // text, or "[Binary file: <name>, size: <n> bytes]"
  std::string file_type;             // suffix with its dot ("" when none)
  std::filesystem::path source_path; // skill_dir / file as joined (not resolved)
  bool is_binary = false;
};

// Checks a requested file path before any filesystem access: fails when it is
// empty, too long, holds a NUL or a `..` component, or is absolute.
ViewResult<std::string> check_file_path(std::string_view file_path);

// Serves skill_dir/file_path. Fails with the traversal error, a containment error
// whose message contains "escapes" (checked after resolving symlinks), not found
// with available_files when the target is not a regular file, or limit_exceeded
// over limits::k_max_served_file_bytes. `label` names the skill in messages.
// A file that is not valid UTF-8 or holds a NUL is served as a binary placeholder.
ViewResult<ServedFile> serve_skill_file(const std::filesystem::path& skill_dir, std::string_view file_path,
                                        std::string_view label);

} // namespace skillrt::core
