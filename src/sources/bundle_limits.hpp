// The caps every fetched bundle is held to (limits.hpp "Distribution"), as one
// value so tests can exercise each rule with small numbers while the binary
// always uses the defaults.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/limits.hpp"

namespace skillrt::sources {

struct BundleLimits {
  std::size_t max_entries = limits::k_max_bundle_entries; // files + folders
  std::uint64_t max_bytes = limits::k_max_bundle_bytes;   // uncompressed, in all
  std::uint64_t max_file_bytes = limits::k_max_bundle_file_bytes;
  std::uint64_t max_compression_ratio = limits::k_max_compression_ratio;
  // The ratio is only judged past this many uncompressed bytes: tiny archives
  // of text legitimately compress very well.
  std::uint64_t ratio_grace_bytes = 1024 * 1024;
  std::size_t max_path_bytes = limits::k_max_bundle_path_bytes;
  std::size_t max_depth = limits::k_max_bundle_depth;
};

} // namespace skillrt::sources
