// Writes a fetched bundle's folders and files under one destination folder,
// holding every bundle limit *before and while* bytes are written: path rules
// (bundle_path.hpp), entry count, bytes per file and in all, duplicates. It
// creates only real folders and regular files through openat(O_NOFOLLOW |
// O_EXCL) below a descriptor of the destination, so nothing it writes can land
// outside it, whatever the names say. Every adapter (folder, archive, git,
// download) feeds its entries through one of these. Runtime caches
// (core/files/runtime_cache.hpp: __pycache__/, *.pyc, .DS_Store, ...) are
// accepted and dropped: no install places bytecode that no manifest covers.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/files/unique_fd.hpp"
#include "core/hub/fetcher.hpp"
#include "skillrt/result.hpp"
#include "sources/bundle_path.hpp"

namespace skillrt::sources {
using UniqueFd = core::files::UniqueFd;

class BundleWriter {
public:
  // The next bytes of a file being written; an empty view at its end.
  using ChunkSource = std::function<Result<std::string_view>()>;

  // Opens `dest`, an existing empty folder. `phase` names the work for
  // `progress` (may be null), which hears (entries written, 0) per entry.
  static Result<BundleWriter> open(const std::filesystem::path& dest, const BundleLimits& limits,
                                   core::hub::Progress* progress, std::string_view phase);

  // The normalized path of `raw`, or the error normalize_bundle_path gives.
  Result<std::string> check_path(std::string_view raw) const;

  // Creates the folder `raw` (and its missing parents). The bundle root itself
  // ("./") is accepted and ignored. Returns the normalized path.
  Result<std::string> add_directory(std::string_view raw);

  // Creates the file `raw` (parents as needed) from `source`'s chunks, mode
  // 0755 when `executable` else 0644. `declared_size`, when known, is checked
  // before any byte is written; the real size is checked while streaming.
  Result<std::string> add_file(std::string_view raw, bool executable, const ChunkSource& source,
                               std::uint64_t declared_size = 0);
  // add_file with the whole content at hand.
  Result<std::string> add_file_bytes(std::string_view raw, bool executable, std::string_view bytes);
  // add_file reading the open regular file `fd` (size and mode from `st`); a
  // read error is reported as "<entry>: <what>: <errno text>".
  Result<std::string> add_file_from_fd(std::string_view raw, int fd, const struct stat& st, std::string_view what);
  // Creates `raw` as a copy of the already written file `existing` (a
  // normalized path): how hardlinks inside a bundle are materialised.
  Result<std::string> add_copy(std::string_view raw, const std::string& existing);

  // True when `normalized` was written as a regular file.
  bool has_file(const std::string& normalized) const;
  std::size_t entries() const { return m_entries; }
  std::uint64_t bytes() const { return m_bytes; }
  const BundleLimits& limits() const { return m_limits; }

private:
  enum class Kind : unsigned char { file, folder };
  BundleWriter(UniqueFd dest, const BundleLimits& limits, core::hub::Progress* progress, std::string_view phase);

  Result<void> count_entry(std::string_view raw);
  // Creates the missing folders of `normalized`'s parent chain (all of it when
  // `include_last`) and returns a descriptor of the innermost one.
  Result<UniqueFd> open_folder_chain(std::string_view raw, const std::string& normalized, bool include_last);
  // Refuses a second entry for the same path and a file where a folder is.
  Result<void> check_new_file_path(std::string_view raw, const std::string& normalized) const;
  void report() const;

  UniqueFd m_dest;
  BundleLimits m_limits;
  core::hub::Progress* m_progress = nullptr;
  std::string m_phase;
  std::unordered_map<std::string, Kind> m_kinds;      // every path written, folders made implicitly too
  std::unordered_set<std::string> m_explicit_folders; // folders named by an entry of their own
  std::size_t m_entries = 0;
  std::uint64_t m_bytes = 0;
};

} // namespace skillrt::sources
