#include "core/cache/listing_cache.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "core/limits.hpp"
#include "core/util/atomic_file.hpp"
#include "core/util/read_file.hpp"

namespace skillrt::core {

namespace {

// Bump when the encoding or the meaning of ListingFields changes.
constexpr std::string_view k_magic = "SKRTLC02";
constexpr std::size_t k_header_size = 8 + 8 + 8;  // magic, entry count, checksum

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
  bool empty() const { return m_in.empty(); }

 private:
  std::string_view m_in;
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::optional<FileStamp> stamp_file(const char* path) {
  struct stat st {};
  if (::stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  FileStamp stamp;
  stamp.device = static_cast<std::uint64_t>(st.st_dev);
  stamp.inode = static_cast<std::uint64_t>(st.st_ino);
  stamp.size = static_cast<std::int64_t>(st.st_size);
  stamp.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  stamp.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
  return stamp;
}

std::string encode_listing_cache(const EntryList& entries) {
  std::string payload;
  Writer w(payload);
  for (const auto& [path, value] : entries) {
    const auto& [stamp, outcome] = value;
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
      w.str(outcome.fields.yaml_problem);
    } else {
      w.u64(static_cast<std::uint64_t>(outcome.failure.reason));
      w.str(outcome.failure.detail);
    }
  }
  std::string out;
  out.reserve(k_header_size + payload.size());
  out.append(k_magic);
  Writer header(out);
  header.u64(entries.size());
  header.u64(checksum(payload));
  out.append(payload);
  return out;
}

bool decode_listing_cache(std::string_view bytes, EntryList& out) {
  out.clear();
  if (bytes.size() < k_header_size || bytes.substr(0, k_magic.size()) != k_magic) {
    return false;
  }
  Reader header(bytes.substr(k_magic.size(), 16));
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
  header.u64(count);
  header.u64(sum);
  const std::string_view payload = bytes.substr(k_header_size);
  if (checksum(payload) != sum || count > payload.size() / 48) {
    return false;
  }
  Reader r(payload);
  out.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string path;
    FileStamp stamp;
    ListingOutcome outcome;
    std::uint64_t listed = 0;
    if (!r.str(path) || !r.u64(stamp.device) || !r.u64(stamp.inode) || !r.i64(stamp.size) ||
        !r.i64(stamp.mtime_ns) || !r.i64(stamp.ctime_ns) || !r.u64(listed) || listed > 1) {
      return false;
    }
    outcome.listed = listed == 1;
    if (outcome.listed) {
      if (!r.str(outcome.fields.frontmatter_name) || !r.str(outcome.fields.description) ||
          !r.strs(outcome.fields.platforms) || !r.strs(outcome.fields.environments) ||
          !r.str(outcome.fields.yaml_problem)) {
        return false;
      }
    } else {
      std::uint64_t reason = 0;
      if (!r.u64(reason) || reason > static_cast<std::uint64_t>(SkipReason::special_file) ||
          !r.str(outcome.failure.detail)) {
        return false;
      }
      outcome.failure.reason = static_cast<SkipReason>(reason);
    }
    out.emplace_back(std::move(path), std::make_pair(stamp, std::move(outcome)));
  }
  return r.empty();
}

ListingCache::ListingCache(std::filesystem::path file, std::int64_t racy_window_ns)
    : m_file(std::move(file)), m_racy_window_ns(racy_window_ns) {}

ListingCache ListingCache::load(const std::filesystem::path& file, std::int64_t racy_window_ns) {
  ListingCache cache(file, racy_window_ns);
  auto bytes = read_regular_file(file, limits::k_max_listing_cache_bytes);
  EntryList entries;
  if (!bytes || !decode_listing_cache(*bytes, entries)) {
    // Missing or undecodable: start empty; a later save replaces it.
    cache.m_dirty = bytes.has_value();  // rewrite a corrupt file
    return cache;
  }
  cache.m_entries.reserve(entries.size());
  for (auto& [path, value] : entries) {
    cache.m_entries.emplace(std::move(path), Entry{value.first, std::move(value.second), false});
  }
  return cache;
}

const ListingOutcome* ListingCache::find(std::string_view path, const FileStamp& stamp) {
  auto it = m_entries.find(path);
  if (it == m_entries.end() || !(it->second.stamp == stamp)) {
    return nullptr;
  }
  it->second.used = true;
  return &it->second.outcome;
}

void ListingCache::store(std::string path, const FileStamp& stamp, ListingOutcome outcome) {
  m_entries.insert_or_assign(std::move(path), Entry{stamp, std::move(outcome), true});
  m_dirty = true;
}

void ListingCache::save_if_changed() {
  std::size_t unused = 0;
  for (const auto& [path, entry] : m_entries) {
    unused += entry.used ? 0 : 1;
  }
  if (!m_dirty && unused == 0) {
    return;
  }
  const std::int64_t racy_after = now_ns() - m_racy_window_ns;
  EntryList entries;
  entries.reserve(m_entries.size());
  for (const auto& [path, entry] : m_entries) {
    if (!entry.used || entry.stamp.mtime_ns >= racy_after || entry.stamp.ctime_ns >= racy_after) {
      continue;
    }
    entries.emplace_back(path, std::make_pair(entry.stamp, entry.outcome));
  }
  std::error_code ec;
  std::filesystem::create_directories(m_file.parent_path(), ec);
  if (ec) {
    return;
  }
  // Failure is deliberately ignored: a read-only home just lists without a cache.
  (void)write_file_atomic(m_file, encode_listing_cache(entries));
  m_dirty = false;
}

}  // namespace skillrt::core
