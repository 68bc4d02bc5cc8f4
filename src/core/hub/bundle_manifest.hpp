// The canonical manifest of a skill bundle: what a content hash and a
// signature cover. One line per regular file, sorted by the bytes of its path:
//   "<64 lower-case hex sha256 of the file>  <POSIX path relative to the bundle>\n"
// Folders are implied by their files. Left out are the signature file itself
// (k_signature_file_name) and runtime caches (core/files/runtime_cache.hpp:
// __pycache__/, *.pyc, .DS_Store, ...), which running a skill creates and an
// install never places; anything else added, removed or changed anywhere —
// dot files included — changes the manifest. A symlink, device or fifo
// anywhere else in the bundle is an error, as are the bundle limits of limits.hpp
// (built by core/files/content_manifest, the one manifest builder).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/files/content_manifest.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

// The detached signature written by `skillrt sign DIR`, at the bundle's top.
inline constexpr std::string_view k_signature_file_name = ".skillrt-signature";

// One file of the manifest: path, sha256 (64 lower-case hex), size.
using ManifestEntry = files::ContentEntry;

struct BundleManifest {
  std::vector<ManifestEntry> entries;  // sorted by path bytes
  std::string text;                    // the canonical text (what is hashed and signed)
  // "sha256:" + 64 hex of `text`: lock.json's content_hash of a bundle.
  std::string content_hash;
};

Result<BundleManifest> build_bundle_manifest(const std::filesystem::path& bundle_dir);

// The content_hash of build_bundle_manifest(dir): the identity the pristine
// rule (core/files/pristine.hpp) compares with lock.json's record.
Result<std::string> bundle_content_hash(const std::filesystem::path& bundle_dir);

}  // namespace skillrt::core::hub
