// How every command that takes SKILL.md text (or a supporting file's bytes)
// reads it: `--content FILE|-`, a file path or `-` for standard input, capped
// at the largest skill file. One reader, so `create`, `edit`, `write-file`,
// `patch --old-file/--new-file` and `db create/update` cannot drift apart.
#pragma once

#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::app {

// The bytes of the file `source`, or of stdin when `source` is "-", at most
// limits::k_max_skill_file_bytes. Errors name the flag and the source:
// "<flag> <source>: <why>" (not_found, invalid_argument, limit_exceeded, io_error).
Result<std::string> read_content_input(const std::string& source, std::string_view flag);

} // namespace skillrt::app
