// A persistent cache of what listing reads from each SKILL.md, keyed on the
// file's exact identity (device, inode, size, mtime and ctime in nanoseconds).
//
// Why: a warm `list` then needs one stat() per skill instead of
// open/read/parse/close, which is what lets a 50k-skill catalog list faster
// than a bare walk that reads every frontmatter. Why it is safe:
// - any change to a file changes its ctime, so an edit is seen on the next call
//   (never a TTL as in Hermes §5.1 item 3);
// - files modified within k_racy_window of the cache being written are never
//   stored ("racy" entries, as git does for its index), so an edit inside the
//   timestamp granularity cannot hide behind an equal stamp;
// - the file is replaced atomically and carries a checksum; anything that does
//   not decode is ignored and rebuilt. The cache only ever saves work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/discovery/skill_reader.hpp"

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

// What listing concluded about one file: its fields, or why it is not listed.
struct ListingOutcome {
  bool listed = false;
  ListingFields fields;
  ListingFailure failure{SkipReason::unreadable, {}};
};

class ListingCache {
 public:
  // Files changed less than this long before the cache is written are not stored.
  static constexpr std::int64_t k_racy_window_ns = 2'000'000'000;

  // An empty cache that will be saved to `file` (nothing is read).
  // `racy_window_ns` is k_racy_window_ns except in tests.
  explicit ListingCache(std::filesystem::path file, std::int64_t racy_window_ns = k_racy_window_ns);

  // Loads `file` when it exists and decodes; otherwise starts empty.
  static ListingCache load(const std::filesystem::path& file, std::int64_t racy_window_ns = k_racy_window_ns);

  // The stored outcome for `path` when its stamp is unchanged; nullptr otherwise.
  // Marks the entry as still in use.
  const ListingOutcome* find(std::string_view path, const FileStamp& stamp);

  // Records a fresh outcome for `path`.
  void store(std::string path, const FileStamp& stamp, ListingOutcome outcome);

  // Writes the cache atomically when anything changed (new, changed or vanished
  // entries). Entries not used since load are dropped. Failure to write is not
  // an error for the caller: the cache is only an accelerator.
  void save_if_changed();

  std::size_t size() const { return m_entries.size(); }
  bool dirty() const { return m_dirty; }

 private:
  struct Entry {
    FileStamp stamp;
    ListingOutcome outcome;
    bool used = false;
  };

  // Lets find() look up a string_view without building a std::string.
  struct PathHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view path) const { return std::hash<std::string_view>{}(path); }
  };

  std::filesystem::path m_file;
  std::int64_t m_racy_window_ns;
  std::unordered_map<std::string, Entry, PathHash, std::equal_to<>> m_entries;
  bool m_dirty = false;
};

// Encoding, exposed for tests: decode(encode(x)) == x; decode of anything else fails cleanly.
std::string encode_listing_cache(const std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>>& entries);
bool decode_listing_cache(std::string_view bytes,
                          std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>>& out);

}  // namespace skillrt::core
