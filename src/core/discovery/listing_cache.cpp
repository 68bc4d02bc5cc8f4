#include "core/discovery/listing_cache.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_at.hpp"
#include "core/files/read_file.hpp"

namespace skillrt::core {

namespace {

// Bump when the encoding or the meaning of ListingFields changes.
// Layout: magic, then blocks of [payload size, entry count, checksum, payload],
// ending with a trailer block [0, total entries, checksum of the total].
// Entries ascend by path. Each block checks itself, so the file can be read
// one block at a time.
constexpr std::string_view k_magic = "SKRTLC04";
constexpr std::size_t k_block_header_size = 8 + 8 + 8;
// The smallest encoded entry: path length, five stamp words, listed flag.
constexpr std::size_t k_min_entry_size = 7 * 8;
// Blocks are flushed once their payload reaches this size.
constexpr std::size_t k_block_target = 256 * 1024;
constexpr std::uint64_t k_trailer_salt = 0x736b696c6c727421ULL;

using EntryList = std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>>;

// A cheap 64-bit checksum over the payload (FNV-1a over 8-byte words): it
// catches truncation and bit rot, not adversaries: the cache lives in the
// user's own home and its content is re-validated against the files anyway.
std::uint64_t checksum(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, 8);
    hash = (hash ^ word) * 0x100000001b3ULL;
  }
  for (; i < bytes.size(); ++i) {
    hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ULL;
  }
  return hash;
}

class Writer {
public:
  explicit Writer(std::string& out) : m_out(out) {}
  void u64(std::uint64_t value) { m_out.append(reinterpret_cast<const char*>(&value), sizeof value); }
  void i64(std::int64_t value) { u64(static_cast<std::uint64_t>(value)); }
  void str(std::string_view text) {
    u64(text.size());
    m_out.append(text);
  }
  void strs(const std::vector<std::string>& list) {
    u64(list.size());
    for (const auto& item : list) {
      str(item);
    }
  }

private:
  std::string& m_out;
};

class Reader {
public:
  explicit Reader(std::string_view in) : m_in(in) {}
  bool u64(std::uint64_t& value) {
    if (m_in.size() < sizeof value) {
      return false;
    }
    std::memcpy(&value, m_in.data(), sizeof value);
    m_in.remove_prefix(sizeof value);
    return true;
  }
  bool i64(std::int64_t& value) {
    std::uint64_t raw = 0;
    if (!u64(raw)) {
      return false;
    }
    value = static_cast<std::int64_t>(raw);
    return true;
  }
  bool str(std::string& text) {
    std::uint64_t size = 0;
    if (!u64(size) || size > m_in.size()) {
      return false;
    }
    text.assign(m_in.substr(0, size));
    m_in.remove_prefix(size);
    return true;
  }
  bool strs(std::vector<std::string>& list) {
    std::uint64_t count = 0;
    // Each string needs at least its 8-byte length: bounds a hostile count.
    if (!u64(count) || count > m_in.size() / 8) {
      return false;
    }
    list.resize(count);
    for (auto& item : list) {
      if (!str(item)) {
        return false;
      }
    }
    return true;
  }
  bool skip_str() {
    std::uint64_t size = 0;
    if (!u64(size) || size > m_in.size()) {
      return false;
    }
    m_in.remove_prefix(size);
    return true;
  }
  bool view(std::string_view& text) {
    std::uint64_t size = 0;
    if (!u64(size) || size > m_in.size()) {
      return false;
    }
    text = m_in.substr(0, size);
    m_in.remove_prefix(size);
    return true;
  }
  bool skip_strs() {
    std::uint64_t count = 0;
    if (!u64(count) || count > m_in.size() / 8) {
      return false;
    }
    for (std::uint64_t i = 0; i < count; ++i) {
      if (!skip_str()) {
        return false;
      }
    }
    return true;
  }
  bool empty() const { return m_in.empty(); }
  std::size_t remaining() const { return m_in.size(); }

private:
  std::string_view m_in;
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::uint64_t trailer_checksum(std::uint64_t total) {
  std::string bytes(reinterpret_cast<const char*>(&total), sizeof total);
  return checksum(bytes) ^ k_trailer_salt;
}

void encode_entry(std::string& out, std::string_view path, const FileStamp& stamp, const ListingOutcome& outcome) {
  Writer w(out);
  w.str(path);
  w.u64(stamp.device);
  w.u64(stamp.inode);
  w.i64(stamp.size);
  w.i64(stamp.mtime_ns);
  w.i64(stamp.ctime_ns);
  w.u64(outcome.listed ? 1 : 0);
  if (outcome.listed) {
    w.str(outcome.fields.frontmatter_name);
    w.str(outcome.fields.description);
    w.strs(outcome.fields.platforms);
    w.strs(outcome.fields.environments);
    w.strs(outcome.fields.triggers);
    w.strs(outcome.fields.paths);
    w.str(outcome.fields.yaml_problem);
  } else {
    w.u64(static_cast<std::uint64_t>(outcome.failure.reason));
    w.str(outcome.failure.detail);
  }
}

// Reads the fixed head of an entry: path, stamp and whether it was listed.
bool read_head(Reader& r, std::string_view& path, FileStamp& stamp, bool& listed) {
  std::uint64_t flag = 0;
  if (!r.view(path) || !r.u64(stamp.device) || !r.u64(stamp.inode) || !r.i64(stamp.size) || !r.i64(stamp.mtime_ns) ||
      !r.i64(stamp.ctime_ns) || !r.u64(flag) || flag > 1) {
    return false;
  }
  listed = flag == 1;
  return true;
}

// Reads the rest of an entry into `outcome`.
bool read_body(Reader& r, bool listed, ListingOutcome& outcome) {
  outcome.listed = listed;
  if (listed) {
    outcome.fields.platforms.clear();
    outcome.fields.environments.clear();
    outcome.fields.triggers.clear();
    outcome.fields.paths.clear();
    return r.str(outcome.fields.frontmatter_name) && r.str(outcome.fields.description) &&
           r.strs(outcome.fields.platforms) && r.strs(outcome.fields.environments) &&
           r.strs(outcome.fields.triggers) && r.strs(outcome.fields.paths) && r.str(outcome.fields.yaml_problem);
  }
  std::uint64_t reason = 0;
  if (!r.u64(reason) || reason > static_cast<std::uint64_t>(SkipReason::special_file) ||
      !r.str(outcome.failure.detail)) {
    return false;
  }
  outcome.failure.reason = static_cast<SkipReason>(reason);
  return true;
}

// Parses the path and stamp of the entry at the start of `r` and skips the rest.
bool parse_entry(Reader& r, std::string_view& path, FileStamp& stamp) {
  bool listed = false;
  if (!read_head(r, path, stamp, listed)) {
    return false;
  }
  if (listed) {
    return r.skip_str() && r.skip_str() && r.skip_strs() && r.skip_strs() && r.skip_strs() && r.skip_strs() &&
           r.skip_str();
  }
  std::uint64_t reason = 0;
  return r.u64(reason) && reason <= static_cast<std::uint64_t>(SkipReason::special_file) && r.skip_str();
}

// Decodes a whole entry into `path`, `stamp` and `outcome`.
bool decode_entry(Reader& r, std::string& path, FileStamp& stamp, ListingOutcome& outcome) {
  std::string_view path_view;
  bool listed = false;
  if (!read_head(r, path_view, stamp, listed)) {
    return false;
  }
  path.assign(path_view);
  return read_body(r, listed, outcome);
}

// Decodes only the outcome of an entry (path and stamp are skipped).
bool decode_outcome(std::string_view entry, ListingOutcome& outcome) {
  Reader r(entry);
  std::string_view path;
  FileStamp stamp;
  bool listed = false;
  return read_head(r, path, stamp, listed) && read_body(r, listed, outcome);
}

struct BlockHeader {
  std::uint64_t size = 0;
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
};

BlockHeader read_block_header(std::string_view bytes) {
  BlockHeader header;
  Reader r(bytes);
  r.u64(header.size);
  r.u64(header.count);
  r.u64(header.sum);
  return header;
}

void append_block_header(std::string& out, std::uint64_t size, std::uint64_t count, std::uint64_t sum) {
  Writer w(out);
  w.u64(size);
  w.u64(count);
  w.u64(sum);
}

} // namespace

std::string encode_listing_cache(const EntryList& entries) {
  std::string out(k_magic);
  std::string payload;
  std::uint64_t count = 0;
  auto flush = [&] {
    if (count > 0) {
      append_block_header(out, payload.size(), count, checksum(payload));
      out.append(payload);
      payload.clear();
      count = 0;
    }
  };
  for (const auto& [path, value] : entries) {
    encode_entry(payload, path, value.first, value.second);
    ++count;
    if (payload.size() >= k_block_target) {
      flush();
    }
  }
  flush();
  append_block_header(out, 0, entries.size(), trailer_checksum(entries.size()));
  return out;
}

bool decode_listing_cache(std::string_view bytes, EntryList& out) {
  out.clear();
  if (bytes.substr(0, k_magic.size()) != k_magic) {
    return false;
  }
  bytes.remove_prefix(k_magic.size());
  while (bytes.size() >= k_block_header_size) {
    const BlockHeader header = read_block_header(bytes);
    bytes.remove_prefix(k_block_header_size);
    if (header.size == 0) {
      return header.sum == trailer_checksum(header.count) && header.count == out.size() && bytes.empty();
    }
    if (header.size > bytes.size() || header.count > header.size / k_min_entry_size ||
        checksum(bytes.substr(0, header.size)) != header.sum) {
      return false;
    }
    Reader r(bytes.substr(0, header.size));
    for (std::uint64_t i = 0; i < header.count; ++i) {
      std::string path;
      FileStamp stamp;
      ListingOutcome outcome;
      if (!decode_entry(r, path, stamp, outcome)) {
        return false;
      }
      out.emplace_back(std::move(path), std::make_pair(stamp, std::move(outcome)));
    }
    if (!r.empty()) {
      return false;
    }
    bytes.remove_prefix(header.size);
  }
  return false;
}

ListingCache::ListingCache(std::filesystem::path file, std::int64_t racy_window_ns)
    : m_file(std::move(file)), m_racy_window_ns(racy_window_ns) {}

ListingCache::ListingCache(ListingCache&& other) noexcept
    : m_file(std::move(other.m_file)), m_racy_window_ns(other.m_racy_window_ns), m_size(other.m_size),
      m_dirty(other.m_dirty), m_in(std::move(other.m_in)), m_in_ok(other.m_in_ok), m_file_size(other.m_file_size),
      m_next_offset(other.m_next_offset), m_block_offset(other.m_block_offset), m_block(std::move(other.m_block)),
      m_block_left(other.m_block_left), m_pos(other.m_pos), m_block_consumed(other.m_block_consumed),
      m_prev_blocks_count(other.m_prev_blocks_count), m_out(std::move(other.m_out)),
      m_writing(other.m_writing), m_write_failed(other.m_write_failed),
      m_out_block(std::move(other.m_out_block)), m_out_block_count(other.m_out_block_count),
      m_out_total(other.m_out_total), m_last_path(std::move(other.m_last_path)), m_have_last(other.m_have_last) {
  // The parsed entry pointed into the old block; peek() parses it again.
  other.m_writing = false;
  other.m_in_ok = false;
  other.m_out.reset();
}

ListingCache::~ListingCache() {
  abandon_writer();
}

ListingCache ListingCache::load(const std::filesystem::path& file, std::int64_t racy_window_ns) {
  ListingCache cache(file, racy_window_ns);
  files::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    return cache; // missing or unreadable: start empty; a later save creates it
  }
  struct stat st {};
  std::string head(k_magic.size(), '\0');
  std::string tail(k_block_header_size, '\0');
  const bool valid = ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) &&
                     static_cast<std::uint64_t>(st.st_size) >= k_magic.size() + k_block_header_size &&
                     static_cast<std::uint64_t>(st.st_size) <= limits::k_max_listing_cache_bytes &&
                     files::read_exactly_at(fd.get(), 0, head.data(), head.size()) && head == k_magic &&
                     files::read_exactly_at(fd.get(), static_cast<std::uint64_t>(st.st_size) - k_block_header_size,
                                            tail.data(), tail.size());
  const BlockHeader trailer = valid ? read_block_header(tail) : BlockHeader{};
  if (!valid || trailer.size != 0 || trailer.sum != trailer_checksum(trailer.count)) {
    cache.m_dirty = true; // rewrite a corrupt or outdated file
    return cache;
  }
  cache.m_size = trailer.count;
  cache.m_file_size = static_cast<std::uint64_t>(st.st_size);
  cache.m_in = std::move(fd);
  cache.m_in_ok = true;
  cache.m_next_offset = k_magic.size();
  cache.m_block_offset = k_magic.size();
  return cache;
}

bool ListingCache::next_block() {
  m_prev_blocks_count += m_block_consumed;
  m_block_offset = m_next_offset;
  m_block.clear();
  m_pos = 0;
  m_block_left = 0;
  m_block_consumed = 0;
  m_have_entry = false;
  char raw[k_block_header_size];
  if (m_file_size < m_next_offset + k_block_header_size ||
      !files::read_exactly_at(m_in.get(), m_next_offset, raw, sizeof raw)) {
    m_in_ok = false;
    mark_dirty();
    return false;
  }
  const BlockHeader header = read_block_header(std::string_view(raw, sizeof raw));
  if (header.size == 0) {
    m_in_ok = false;
    if (header.sum != trailer_checksum(header.count) || header.count != m_prev_blocks_count) {
      mark_dirty();
    }
    return false;
  }
  // Bounded by what is left of the file: a damaged size never allocates more.
  if (header.size > m_file_size - m_next_offset - k_block_header_size ||
      header.count > header.size / k_min_entry_size) {
    m_in_ok = false;
    mark_dirty();
    return false;
  }
  m_block.resize(header.size);
  if (!files::read_exactly_at(m_in.get(), m_next_offset + k_block_header_size, m_block.data(), m_block.size()) ||
      checksum(m_block) != header.sum) {
    m_block.clear();
    m_in_ok = false;
    mark_dirty();
    return false;
  }
  m_block_left = header.count;
  m_next_offset += k_block_header_size + header.size;
  return true;
}

bool ListingCache::peek() {
  if (m_have_entry) {
    return true;
  }
  while (m_block_left == 0) {
    if (!m_in_ok || !next_block()) {
      return false;
    }
  }
  Reader r(std::string_view(m_block).substr(m_pos));
  if (!parse_entry(r, m_entry_path, m_entry_stamp)) {
    m_in_ok = false;
    m_block_left = 0;
    mark_dirty();
    return false;
  }
  m_entry_end = m_block.size() - r.remaining();
  m_have_entry = true;
  return true;
}

void ListingCache::advance_to(std::string_view path, bool inclusive) {
  while (peek() && (m_entry_path < path || (inclusive && m_entry_path == path))) {
    skip_entry();
  }
}

void ListingCache::skip_entry() {
  mark_dirty(); // the entry's file is gone (or being replaced): the file must change
  m_pos = m_entry_end;
  --m_block_left;
  ++m_block_consumed;
  m_have_entry = false;
}

ListingOutcome* ListingCache::find(std::string_view path, const FileStamp& stamp) {
  if (m_have_last && path <= m_last_path) {
    return nullptr;
  }
  advance_to(path, false);
  if (!peek() || m_entry_path != path) {
    return nullptr;
  }
  if (!(m_entry_stamp == stamp)) {
    advance_to(path, true);
    return nullptr;
  }
  const std::string_view entry = std::string_view(m_block).substr(m_pos, m_entry_end - m_pos);
  if (!decode_outcome(entry, m_slot)) {
    advance_to(path, true);
    return nullptr;
  }
  emit(entry, path);
  m_pos = m_entry_end;
  --m_block_left;
  ++m_block_consumed;
  m_have_entry = false;
  return &m_slot;
}

void ListingCache::store(std::string_view path, const FileStamp& stamp, const ListingOutcome& outcome) {
  if (m_have_last && path <= m_last_path) {
    return; // out of order (a path listed twice): left uncached
  }
  advance_to(path, true);
  const std::int64_t racy_after = now_ns() - m_racy_window_ns;
  if (stamp.mtime_ns >= racy_after || stamp.ctime_ns >= racy_after) {
    return;
  }
  mark_dirty();
  if (!m_writing) {
    return;
  }
  std::string& entry = m_scratch;
  entry.clear();
  encode_entry(entry, path, stamp, outcome);
  emit(entry, path);
}

void ListingCache::mark_dirty() {
  m_dirty = true;
  start_writer();
}

void ListingCache::start_writer() {
  if (m_writing || m_write_failed) {
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(m_file.parent_path(), ec);
  // Each writer has its own temporary file: two processes saving at once
  // each publish a whole file, and the last rename wins.
  auto writer = AtomicFileWriter::open(m_file);
  if (!writer) {
    m_write_failed = true;
    return;
  }
  m_out.emplace(std::move(*writer));
  m_writing = true;
  if (!m_out->append(k_magic)) {
    abandon_writer();
    return;
  }
  // Everything consumed so far was a hit: copy those blocks as they are.
  if (m_in.get() >= 0 && m_block_offset > k_magic.size()) {
    std::string chunk;
    for (std::uint64_t at = k_magic.size(); at < m_block_offset;) {
      const std::uint64_t want = std::min<std::uint64_t>(m_block_offset - at, k_block_target);
      chunk.resize(want);
      if (!files::read_exactly_at(m_in.get(), at, chunk.data(), chunk.size()) || !m_out->append(chunk)) {
        abandon_writer();
        return;
      }
      at += want;
    }
  }
  m_out_total = m_prev_blocks_count + m_block_consumed;
  m_out_block.assign(m_block, 0, m_pos);
  m_out_block_count = m_block_consumed;
}

void ListingCache::emit(std::string_view entry_bytes, std::string_view path) {
  m_last_path.assign(path);
  m_have_last = true;
  if (!m_writing) {
    return;
  }
  m_out_block.append(entry_bytes);
  ++m_out_block_count;
  ++m_out_total;
  if (m_out_block.size() >= k_block_target) {
    flush_block(false);
  }
}

bool ListingCache::flush_block(bool last) {
  if (!m_writing) {
    return false;
  }
  std::string header;
  if (m_out_block_count > 0) {
    append_block_header(header, m_out_block.size(), m_out_block_count, checksum(m_out_block));
    if (!m_out->append(header) || !m_out->append(m_out_block)) {
      abandon_writer();
      return false;
    }
    m_out_block.clear();
    m_out_block_count = 0;
  }
  if (last) {
    header.clear();
    append_block_header(header, 0, m_out_total, trailer_checksum(m_out_total));
    if (!m_out->append(header)) {
      abandon_writer();
      return false;
    }
  }
  return true;
}

void ListingCache::abandon_writer() {
  m_out.reset();  // an uncommitted writer removes its temporary file
  if (m_writing) {
    m_write_failed = true;
  }
  m_writing = false;
}

void ListingCache::save_if_changed() {
  while (peek()) {
    skip_entry(); // never asked for: its file is gone
  }
  if (!m_dirty) {
    return;
  }
  start_writer();
  if (!m_writing || !flush_block(true)) {
    abandon_writer();
    return;
  }
  // Concurrent readers see the old file or the new one, never a mix.
  if (!m_out->commit()) {
    abandon_writer();
    return;
  }
  m_out.reset();
  m_writing = false;
  m_dirty = false;
}

} // namespace skillrt::core
