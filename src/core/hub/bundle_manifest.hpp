// The canonical manifest of a skill bundle: what a content hash and a
// signature cover. One line per regular file, sorted by the bytes of its path:
//   "<64 lower-case hex sha256 of the file>  <POSIX path relative to the bundle>\n"
// Folders are implied by their files. Left out are the signature file itself
// (k_signature_file_name) and runtime caches (core/files/runtime_cache.hpp:
// __pycache__/, *.pyc, .DS_Store, ...), which running a skill creates and an
// install never places; anything else added, removed or changed anywhere —
// dot files included — changes the manifest. A symlink, device or fifo
// anywhere else in the bundle is an error, as are the bundle limits of limits.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core::hub {

// The detached signature written by `skillrt sign DIR`, at the bundle's top.
inline constexpr std::string_view k_signature_file_name = ".skillrt-signature";

struct ManifestEntry {
  std::string path;    // POSIX, relative, no "." or ".." segments
  std::string sha256;  // 64 lower-case hex
  std::uint64_t size = 0;
};

struct BundleManifest {
  std::vector<ManifestEntry> entries;  // sorted by path bytes
  std::string text;                    // the canonical text (what is hashed and signed)
  // "sha256:" + 64 hex of `text`: lock.json's content_hash of a bundle.
  std::string content_hash;
};

Result<BundleManifest> build_bundle_manifest(const std::filesystem::path& bundle_dir);

}  // namespace skillrt::core::hub
