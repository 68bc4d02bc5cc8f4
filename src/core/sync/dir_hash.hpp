// The folder hash of a skill (spec §2.13 rule 3, with SHA-256 instead of MD5):
// what the bundled manifest records as a copy's origin, and how sync tells a
// pristine copy from one the user changed.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core::sync {

// True for a hash this version writes (64 lower-case hex digits). Anything
// else in the manifest (a v1 entry's "", a Hermes 32-hex MD5) is an origin we
// cannot check a copy against.
bool is_known_origin_hash(std::string_view hash);

// SHA-256 (64 lower-case hex) over every entry below `dir` except runtime
// caches (core/files/runtime_cache.hpp), sorted by relative path (byte order,
// '/' separators). Each entry
// feeds a record: "f" NUL path NUL size NUL bytes for a regular file, "l" NUL
// path NUL target NUL for a symlink (never followed), "s" NUL path NUL for any
// other special file (never opened). The length-prefixed records make two
// different trees hash differently even when their concatenated bytes agree.
// Empty folders do not count. A missing or empty `dir` hashes to SHA-256("").
// The walk is core/files' one walker (links and specials recorded, never
// followed or opened). Errors: limit_exceeded past its tree limits (the bundle
// limits: entries, bytes, file bytes, path bytes, depth), io_error for an
// unreadable entry (a copy we cannot read is never judged pristine).
Result<std::string> skill_dir_hash(const std::filesystem::path& dir);

} // namespace skillrt::core::sync
