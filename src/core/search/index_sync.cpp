#include "core/search/index_sync.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/cache/file_stamp.hpp"
#include "core/files/unique_fd.hpp"
#include "core/limits.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

std::int64_t now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string format_stamp(const FileStamp& stamp) {
  std::string out;
  out.reserve(80);
  out += std::to_string(stamp.device);
  out += ':';
  out += std::to_string(stamp.inode);
  out += ':';
  out += std::to_string(stamp.size);
  out += ':';
  out += std::to_string(stamp.mtime_ns);
  out += ':';
  out += std::to_string(stamp.ctime_ns);
  return out;
}

// The first limits::k_search_max_indexed_bytes of a regular file, never
// blocking on a FIFO; nullopt when it cannot be read as a regular file.
std::optional<std::string> read_index_text(const std::string& path) {
  const files::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!fd) {
    return std::nullopt;
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  std::string text;
  const std::size_t want = std::min<std::size_t>(static_cast<std::size_t>(st.st_size) + 1,
                                                 limits::k_search_max_indexed_bytes);
  text.resize(want);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::read(fd.get(), text.data() + got, want - got);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return std::nullopt;
    }
    if (n == 0) {
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  // The engines store text, and PostgreSQL refuses ill-formed UTF-8: a cut in
  // the middle of a sequence (or a file edited since listing) must not fail
  // the whole sync.
  if (find_invalid_utf8(text).has_value()) {
    text = sanitize_utf8(text);
  }
  return text;
}

constexpr std::string_view k_racy_prefix = "racy:";

bool is_racy(std::string_view stamp) { return stamp.substr(0, k_racy_prefix.size()) == k_racy_prefix; }

// Is `key` below `root` (a canonical root path)?
bool is_under(std::string_view key, std::string_view root) {
  return key.size() > root.size() && key.substr(0, root.size()) == root && key[root.size()] == '/';
}

struct DocOwner {
  std::string owner;
  Layer source = Layer::shared;
};

// Upserts in batches bounded in bytes: at 50k skills the first sync would
// otherwise hold every body in memory at once. Each batch is its own
// transaction and every document carries its own stamp, so a sync cut short
// leaves a correct index that the next one completes.
class DocBatcher {
 public:
  DocBatcher(SkillStore& store, IndexSyncStats& stats) : m_store(store), m_stats(stats) {}

  Result<void> add(SearchDoc doc) {
    m_bytes += doc.body.size() + doc.description.size() + doc.tags.size() + doc.triggers.size() + doc.key.size();
    m_docs.push_back(std::move(doc));
    if (m_bytes >= limits::k_search_sync_batch_bytes) {
      return flush({});
    }
    return {};
  }

  Result<void> flush(const std::vector<std::string>& removed) {
    if (m_docs.empty() && removed.empty()) {
      return {};
    }
    ++m_stats.store_calls;
    auto done = m_store.sync_file_docs(m_docs, removed);
    m_docs.clear();
    m_bytes = 0;
    return done;
  }

 private:
  SkillStore& m_store;
  IndexSyncStats& m_stats;
  std::vector<SearchDoc> m_docs;
  std::size_t m_bytes = 0;
};

// Syncs the documents of one owner against the catalog records that belong to it.
Result<void> sync_owner(const Catalog& catalog, const DocOwner& layer, bool user_layer, SkillStore& store,
                        IndexSyncStats& stats, std::int64_t now, std::int64_t racy_window) {
  auto stored_list = store.file_doc_stamps(layer.owner);
  if (!stored_list) {
    return tl::unexpected(stored_list.error());
  }
  std::unordered_map<std::string, std::string> stored;
  stored.reserve(stored_list->size());
  for (DocStamp& entry : *stored_list) {
    stored.emplace(std::move(entry.key), std::move(entry.stamp));
  }
  stored_list->clear();
  stored_list->shrink_to_fit();

  DocBatcher batcher(store, stats);
  std::vector<std::string> removed;
  std::string key;
  for (const SkillRecord& record : catalog.records) {
    if ((tier_layer(record.tier) == Layer::user) != user_layer) {
      continue;
    }
    key.clear();
    record.skill_md.append_to(key);
    ++stats.checked;
    const std::string stamp = search_doc_stamp(key, now, racy_window);
    auto found = stored.find(key);
    const bool known = found != stored.end();
    if (known && !stamp.empty() && !is_racy(stamp) && found->second == stamp) {
      ++stats.unchanged;
      stored.erase(found);
      continue;
    }
    if (known) {
      stored.erase(found);
    }
    std::optional<std::string> text = stamp.empty() ? std::nullopt : read_index_text(key);
    if (!text) {
      // Gone or unreadable since listing: it has no document.
      if (known) {
        removed.push_back(key);
      }
      continue;
    }
    SearchDoc doc = make_search_doc(key, layer.owner, layer.source, record.name, catalog.description(record), *text);
    doc.stamp = stamp;
    ++stats.indexed;
    if (is_racy(stamp)) {
      ++stats.racy;
    }
    if (auto added = batcher.add(std::move(doc)); !added) {
      return added;
    }
  }

  // What is left is stored but not a record of this catalog.
  std::vector<std::string_view> roots;
  for (const Root& root : catalog.roots.roots) {
    if ((tier_layer(root.tier) == Layer::user) == user_layer) {
      roots.push_back(root.path.native());
    }
  }
  for (const auto& [stored_key, stored_stamp] : stored) {
    bool gone = user_layer;  // the user's root is the same in every context of that user
    if (!gone) {
      for (std::string_view root : roots) {
        if (is_under(stored_key, root)) {
          gone = true;
          break;
        }
      }
    }
    // A shared document outside this context's roots (another project, say)
    // stays while its file exists; search never returns it here.
    if (!gone && !stamp_file(stored_key.c_str()).has_value()) {
      gone = true;
    }
    if (gone) {
      removed.push_back(stored_key);
    }
  }
  stats.removed += removed.size();
  return batcher.flush(removed);
}

}  // namespace

std::string search_doc_stamp(const std::string& path, std::int64_t now, std::int64_t racy_window) {
  const std::optional<FileStamp> stamp = stamp_file(path.c_str());
  if (!stamp) {
    return {};
  }
  std::string text = format_stamp(*stamp);
  if (now - stamp->mtime_ns < racy_window || now - stamp->ctime_ns < racy_window) {
    text.insert(0, k_racy_prefix);
  }
  return text;
}

Result<IndexSyncStats> sync_search_index(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                         std::int64_t racy_window) {
  IndexSyncStats stats;
  const std::int64_t now = now_ns();
  if (auto shared = sync_owner(catalog, DocOwner{"", Layer::shared}, false, store, stats, now, racy_window); !shared) {
    return tl::unexpected(shared.error());
  }
  if (ctx.user_id) {
    if (auto own = sync_owner(catalog, DocOwner{*ctx.user_id, Layer::user}, true, store, stats, now, racy_window); !own) {
      return tl::unexpected(own.error());
    }
  }
  return stats;
}

Result<IndexSyncStats> IndexSyncMemo::sync(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                           std::int64_t racy_window) {
  std::lock_guard lock(m_mutex);
  if (m_current) {
    return IndexSyncStats{};
  }
  auto stats = sync_search_index(ctx, catalog, store, racy_window);
  if (stats && stats->racy == 0) {
    m_current = true;
  }
  return stats;
}

}  // namespace skillrt::core
