// A file's exact identity as stat() reports it: the key of every cache that
// must never go stale (the listing cache, the prompt snapshot, the search
// index's per-file stamps). Any write to a file changes its ctime, so an
// unchanged stamp means unchanged content.
#pragma once

#include <cstdint>
#include <optional>

namespace skillrt::core {

struct FileStamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

// stat() of `path` (following symlinks); nullopt unless it is a regular file.
std::optional<FileStamp> stamp_file(const char* path);

}  // namespace skillrt::core
