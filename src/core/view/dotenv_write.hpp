// Storing a skill's secrets (spec §2.8's capture, `skillrt setup`): the
// dotenv files readiness reads, and an atomic update of one of them.
//
// A value is written so that parse_dotenv (dotenv.hpp) reads back exactly
// those bytes: single-quoted, or double-quoted when it holds a single quote.
// That parser has no escapes, so a value holding both quotes, a line break
// or a NUL cannot be stored and is refused. No error message ever holds a
// value: only variable names and paths.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// The dotenv files readiness consults for ctx, strongest first: the user's
// own HOME/users/<uid>/.env when ctx has a user, then HOME/.env.
std::vector<std::filesystem::path> dotenv_files(const Context& ctx);

// The file `skillrt setup` writes for ctx: the user's own .env with a user
// (so one user's secrets are never another's), else HOME/.env.
Result<std::filesystem::path> dotenv_file_for_writes(const Context& ctx);

// invalid_argument (naming the variable) when `value` cannot be stored.
Result<void> check_storable_secret(const std::string& name, const std::string& value);

// Sets each NAME=value in `file`: a line that assigns NAME (the last one,
// which parse_dotenv honours) is replaced, earlier ones are dropped, a new
// NAME is appended; every other line is kept byte for byte. The file is
// written atomically and ends with mode 0600 (an existing file is narrowed
// first, so the new secrets are never readable by others). A symlink at
// `file` is refused when `follow_symlink` is false.
Result<void> store_dotenv_values(const std::filesystem::path& file,
                                 const std::vector<std::pair<std::string, std::string>>& values,
                                 bool follow_symlink);

}  // namespace skillrt::core
