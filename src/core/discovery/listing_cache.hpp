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
// - the file is replaced atomically and every block carries a checksum; a
//   block that does not decode is ignored (with everything after it) and the
//   file rebuilt. The cache only ever saves work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/file_stamp.hpp"
#include "core/discovery/skill_reader.hpp"
#include "core/files/unique_fd.hpp"
#include "core/files/atomic_file.hpp"

namespace skillrt::core {

// What listing concluded about one file: its fields, or why it is not listed.
struct ListingOutcome {
  bool listed = false;
  ListingFields fields;
  ListingFailure failure{SkipReason::unreadable, {}};
};

// Streams the cache file block by block while the caller walks its files in
// ascending path order: a hit costs one path compare and one decode, and the
// process never holds more than a block of the old file or of the new one
// (at 50k skills the whole file is ~20 MB, most of a 32 MiB budget).
// Lookups out of order are plain misses, never wrong answers.
class ListingCache {
public:
  // Files changed less than this long before they are stored are not stored.
  static constexpr std::int64_t k_racy_window_ns = 2'000'000'000;

  // An empty cache that will be saved to `file` (nothing is read).
  // `racy_window_ns` is k_racy_window_ns except in tests.
  explicit ListingCache(std::filesystem::path file, std::int64_t racy_window_ns = k_racy_window_ns);

  // Opens `file` when it exists and starts with the current magic; otherwise starts empty.
  static ListingCache load(const std::filesystem::path& file, std::int64_t racy_window_ns = k_racy_window_ns);

  ListingCache(ListingCache&& other) noexcept;
  ListingCache& operator=(ListingCache&&) = delete;
  ListingCache(const ListingCache&) = delete;
  ListingCache& operator=(const ListingCache&) = delete;
  ~ListingCache();

  // The stored outcome for `path` when its stamp is unchanged; nullptr otherwise.
  // Paths must come in ascending byte order to hit. The outcome lives until
  // the next call and may be moved from.
  ListingOutcome* find(std::string_view path, const FileStamp& stamp);

  // Records a fresh outcome for `path` (ascending order, after its find()).
  void store(std::string_view path, const FileStamp& stamp, const ListingOutcome& outcome);

  // Writes the cache atomically when anything changed (new, changed or vanished
  // entries). Entries never found are dropped. Failure to write is not an
  // error for the caller: the cache is only an accelerator.
  void save_if_changed();

  // Entries in the loaded file (0 when none was loaded or it did not decode).
  std::size_t size() const { return m_size; }
  bool dirty() const { return m_dirty; }

private:
  bool next_block();
  bool peek();
  void advance_to(std::string_view path, bool inclusive);
  void skip_entry();
  void mark_dirty();
  void start_writer();
  void emit(std::string_view entry_bytes, std::string_view path);
  bool flush_block(bool last);
  void abandon_writer();

  std::filesystem::path m_file;
  std::int64_t m_racy_window_ns;
  std::size_t m_size = 0;
  bool m_dirty = false;

  // Reading the old file.
  files::UniqueFd m_in;
  bool m_in_ok = false; // more blocks may follow
  std::uint64_t m_file_size = 0;
  std::uint64_t m_next_offset = 0;       // file offset of the next block header
  std::uint64_t m_block_offset = 0;      // file offset of the block in m_block
  std::string m_block;                   // payload of the current block
  std::uint64_t m_block_left = 0;        // entries not yet parsed in m_block
  std::size_t m_pos = 0;                 // offset in m_block of the first unconsumed entry
  std::uint64_t m_block_consumed = 0;    // entries consumed from m_block
  std::uint64_t m_prev_blocks_count = 0; // entries in the blocks before m_block
  bool m_have_entry = false;             // [m_pos, m_entry_end) is parsed: m_entry_path, m_entry_stamp
  std::size_t m_entry_end = 0;
  std::string_view m_entry_path;
  FileStamp m_entry_stamp;
  ListingOutcome m_slot;

  // Writing the new file (only once something differs from the old one).
  std::optional<AtomicFileWriter> m_out;
  bool m_writing = false;
  bool m_write_failed = false;
  std::string m_out_block;
  std::uint64_t m_out_block_count = 0;
  std::uint64_t m_out_total = 0;
  std::string m_last_path; // last path consumed or written: keeps the new file ascending
  bool m_have_last = false;
  std::string m_scratch; // one encoded entry
};

// Encoding, exposed for tests: decode(encode(x)) == x; decode of anything else fails cleanly.
std::string
encode_listing_cache(const std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>>& entries);
bool decode_listing_cache(std::string_view bytes,
                          std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>>& out);

} // namespace skillrt::core
