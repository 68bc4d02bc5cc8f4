// The one set of caps a skill tree is held to, whoever reads or writes it:
// an install's bundle (folder, archive, git tree, download), its manifest and
// signature, bundled sync's hash and copy, the guard's walk. The defaults are
// limits.hpp's "Distribution" constants; tests pass small numbers to exercise
// each rule, the binary always uses the defaults (the guard its own entry cap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/limits.hpp"

namespace skillrt::core::files {

struct TreeLimits {
  std::size_t max_entries = limits::k_max_bundle_entries; // files + folders (+ links, specials)
  std::uint64_t max_bytes = limits::k_max_bundle_bytes;   // regular files' bytes, in all
  std::uint64_t max_file_bytes = limits::k_max_bundle_file_bytes;
  std::size_t max_path_bytes = limits::k_max_bundle_path_bytes;
  std::size_t max_depth = limits::k_max_bundle_depth; // path segments of an entry
  // Archives only: uncompressed bytes per compressed byte, judged past the grace.
  std::uint64_t max_compression_ratio = limits::k_max_compression_ratio;
  std::uint64_t ratio_grace_bytes = limits::k_compression_ratio_grace_bytes;

  // No cap at all: for walks whose caller enforces the limits itself (a
  // fetch's bundle writer) or that must reach everything (removing a tree).
  static constexpr TreeLimits unlimited() {
    TreeLimits none;
    none.max_entries = std::numeric_limits<std::size_t>::max();
    none.max_bytes = std::numeric_limits<std::uint64_t>::max();
    none.max_file_bytes = std::numeric_limits<std::uint64_t>::max();
    none.max_path_bytes = std::numeric_limits<std::size_t>::max();
    none.max_depth = std::numeric_limits<std::size_t>::max();
    return none;
  }
};

} // namespace skillrt::core::files
