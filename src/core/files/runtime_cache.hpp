// Runtime caches: what running a skill or opening its folder leaves behind
// (Python bytecode, test and lint caches, Finder metadata). They are never part
// of a skill's content, so one rule decides for every reader and writer:
//   - a content identity (bundled sync's folder hash, the hub's bundle manifest,
//     signatures, diffs) leaves them out, so running a skill's scripts never
//     turns a pristine copy into a "locally modified" one;
//   - a copy (bundled sync, an install's bundle writer) never brings them in, so
//     no bytecode that no manifest, signature or guard scan covered is placed
//     beside the sources Python would trust it for.
// docs/distribution.md lists them for users.
#pragma once

#include <string_view>

namespace skillrt::core::files {

// Folders: __pycache__, .pytest_cache, .mypy_cache, .ruff_cache.
bool is_runtime_cache_dir(std::string_view name);

// Files: .DS_Store, *.pyc, *.pyo, and the temp file of an atomic write that
// was killed before its rename (".NAME.tmp.XXXXXX", atomic_file.hpp): it is
// half of a write that never happened, so it must not make a pristine copy
// "modified" nor a pending proposal "stale" (the next write removes it).
bool is_runtime_cache_file(std::string_view name);

// ".NAME.tmp.XXXXXX" with six mkstemp characters: the exact name
// files::write_file_atomic gives its temp (manage's stray-temp sweep removes
// such a file at once under the skill's lock).
bool is_interrupted_write_temp(std::string_view name);

// One entry of a tree by its name: a folder by the folder rule, anything else
// by the file rule (the shape of diff::DiffSkip).
bool is_runtime_cache(std::string_view name, bool is_dir);

// True when the relative POSIX path `path` ("a/b/c", no leading '/') is a
// runtime cache or lies inside one: any folder segment is a cache folder, or
// the last segment is a cache file (or a cache folder when `is_dir`).
bool is_runtime_cache_path(std::string_view path, bool is_dir);

} // namespace skillrt::core::files
