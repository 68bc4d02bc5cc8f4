// Claude Code's `paths:` globs, turned into RE2 patterns so that matching a
// file against them takes linear time whatever the glob.
//
//   *        any run of characters within one path segment
//   ?        one character within a segment
//   **       any number of segments (`src/**/x`, `**/x`, `dir/**`)
//   [abc]    a character class ([!abc] and [^abc] negate)
//   {a,b}    either alternative (nested braces allowed)
//   dir/     everything under dir
// A glob without a slash matches the file's name in any folder (as a
// .gitignore line does); one with a slash matches the whole path relative to
// the project root, a leading "/" or "./" anchoring nothing more.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

// The RE2 pattern (to be matched against the whole path) of `glob`, or
// nullopt with `problem` set when the glob is malformed (an unclosed `[` or `{`).
std::optional<std::string> glob_to_regex(std::string_view glob, std::string& problem);

// A path as the globs see it: "\" becomes "/", a leading "./" goes, and an
// absolute path under `project_root` is made relative to it.
std::string normalize_touched_path(std::string_view path, std::string_view project_root);

}  // namespace skillrt::core
