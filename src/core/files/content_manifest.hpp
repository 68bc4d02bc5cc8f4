// One content identity: the manifest of a skill tree, one record per regular
// file (relative path, size, SHA-256 of its bytes), built over the one walker
// (tree_walk.hpp) so the same limits, link policy and runtime-cache rule hold
// for every user: the hub's bundle manifest (lock.json content hashes,
// signatures) and bundled sync's folder hash. Runtime caches are always left
// out, so running a skill never makes it "modified".
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/files/tree_walk.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::files {

struct ContentEntry {
  std::string path;   // POSIX, relative, no "." or ".." segments
  std::string sha256; // 64 lower-case hex of the file's bytes
  std::uint64_t size = 0;
};

// Every regular file below `root`, sorted by path bytes. `options` picks the
// link and special-file policies and the limits (runtime caches are left out
// whatever it says); links and specials the policy records are walked past,
// never opened. Errors: those of walk_tree, and io_error for a file that
// cannot be read or changes while it is read.
Result<std::vector<ContentEntry>> build_content_manifest(const std::filesystem::path& root, WalkOptions options);

// Reads the open regular file `fd` to its end in chunks handed to `sink`,
// checking that exactly `expected_size` bytes come (the size the walk saw):
// a file that grows or shrinks meanwhile is an io_error naming `shown`.
Result<void> read_file_exactly(int fd, std::uint64_t expected_size, const std::string& shown,
                               const std::function<void(std::string_view)>& sink);

} // namespace skillrt::core::files
