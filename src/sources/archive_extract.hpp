// Secure extraction of .tar.gz / .tgz / .zip bundles (dist_shared decision 3),
// recognised by their content, not their name. libarchive only *reads*: every
// entry is judged (path rules, type, size) before the BundleWriter writes a
// byte, and the writer creates nothing but real folders and regular files
// below the staging folder. Refused, each with a message naming the entry:
// absolute paths, `..`, symlinks (those leaving the bundle and those staying
// inside), hardlinks leaving the bundle (those inside become copies),
// devices/fifos/sockets, encrypted entries, duplicates, ':' or '\' in a
// segment, and every bundle limit including the compression ratio.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"
#include "sources/bundle_writer.hpp"

namespace skillrt::sources {

struct ExtractResult {
  std::size_t entries = 0;    // files and folders written
  std::uint64_t bytes = 0;    // uncompressed bytes written
  std::string archive_sha256; // 64 hex digits of the archive's own bytes
};

// Extracts the archive file at `archive` into `writer`. On failure the
// writer's folder may hold part of the bundle: the caller drops it.
Result<ExtractResult> extract_archive_file(const std::filesystem::path& archive, BundleWriter& writer);

// Extracts an archive held in memory (a download, a fuzz input). `label`
// names it in messages ("the download https://…").
Result<ExtractResult> extract_archive_bytes(std::string_view bytes, std::string_view label, BundleWriter& writer);

} // namespace skillrt::sources
