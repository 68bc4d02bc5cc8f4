#include "store/sqlite/search_cache.hpp"

#include <algorithm>
#include <limits>

#include "store/sqlite/fts_query.hpp"

namespace skillrt::store::sqlite {
namespace {

// The columns a query's words are looked for in (never `scope`).
constexpr const char* k_text_columns = "{name description tags triggers body}";

// Bounds of a long-lived server's cache: 2M postings are 32 MB, about 40
// lists of words held by every one of 50,000 documents (a query brings in at
// most 64 lists more before the next check).
constexpr std::size_t k_max_cached_postings = 2'000'000;
constexpr std::size_t k_max_cached_lists = 16384;
constexpr std::size_t k_max_cached_owners = 256;
// Past this many rows inserted since an owner's lists were read, reading
// them again whole is about as cheap as catching up, and the log stays small.
constexpr std::size_t k_max_tracked_inserts = 4096;

std::string owner_expression(const std::string& owner) {
  return "scope : \"" + owner + "\"";
}

// The first posting of `list` at or after row `from`.
PostingList::iterator first_at_or_after(PostingList& list, std::int64_t from) {
  return std::lower_bound(list.begin(), list.end(), from,
                          [](const Posting& posting, std::int64_t rowid) { return posting.rowid < rowid; });
}

} // namespace

void SearchCache::forget_lists(OwnerCache& cached) {
  for (const auto& [word, postings] : cached.of_word) {
    m_posting_count -= postings.list.size();
  }
  m_list_count -= cached.of_word.size();
  cached.of_word.clear();
  cached.inserted.clear();
}

void SearchCache::forget_owner(const std::string& owner) {
  if (const auto found = m_of_owner.find(owner); found != m_of_owner.end()) {
    forget_lists(found->second);
    m_of_owner.erase(found);
  }
}

void SearchCache::clear() {
  m_of_owner.clear();
  m_posting_count = 0;
  m_list_count = 0;
}

Result<std::pair<std::int64_t, std::int64_t>> SearchCache::changes_and_version(Connection& conn) {
  auto q = conn.prepare("SELECT total_changes(), data_version FROM pragma_data_version");
  if (!q) {
    return tl::unexpected(q.error());
  }
  auto row = q->step();
  if (!row) {
    return tl::unexpected(row.error());
  }
  if (!*row) {
    return fail(ErrorCode::internal, "sqlite: pragma data_version returned no row");
  }
  return std::pair{q->integer(0), q->integer(1)};
}

Result<void> SearchCache::drop_what_may_be_stale(Connection& conn) {
  auto now = changes_and_version(conn);
  if (!now) {
    return tl::unexpected(now.error());
  }
  if (m_hooks_pending || now->first != m_changes || now->second != m_data_version) {
    clear();
    m_hooks_pending = false;
    m_changes = now->first;
    m_data_version = now->second;
  }
  if (m_of_owner.size() >= k_max_cached_owners) {
    // Keep the owner with the most documents (the shared ones, in practice):
    // its lists are the costly ones to read again.
    std::string biggest;
    std::int64_t most = -1;
    for (const auto& [owner, cached] : m_of_owner) {
      if (cached.size.documents > most) {
        most = cached.size.documents;
        biggest = owner;
      }
    }
    for (auto it = m_of_owner.begin(); it != m_of_owner.end();) {
      if (it->first == biggest) {
        ++it;
        continue;
      }
      forget_lists(it->second);
      it = m_of_owner.erase(it);
    }
  }
  const bool too_many_postings = m_posting_count >= k_max_cached_postings || m_list_count >= k_max_cached_lists;
  for (auto& [owner, cached] : m_of_owner) {
    if (too_many_postings || cached.inserted.size() > k_max_tracked_inserts) {
      forget_lists(cached);
    }
  }
  return {};
}

Result<OwnerSize> SearchCache::owner_size(Connection& conn, const std::string& owner) {
  OwnerCache& cached = m_of_owner[owner];
  if (cached.size_known) {
    return cached.size;
  }
  // Row by row: FTS5 refuses an auxiliary function inside an aggregate.
  auto lengths = conn.prepare("SELECT skillrt_text_length(skill_search) FROM skill_search WHERE skill_search MATCH ?1");
  if (!lengths) {
    return tl::unexpected(lengths.error());
  }
  lengths->bind(1, owner_expression(owner));
  OwnerSize size;
  if (auto done = lengths->each_row([&](Statement& row) {
        ++size.documents;
        size.total_length += row.real(0);
      });
      !done) {
    return tl::unexpected(done.error());
  }
  cached.size = size;
  cached.size_known = true;
  return size;
}

Result<const PostingList*> SearchCache::postings(Connection& conn, const std::string& owner, const std::string& word) {
  OwnerCache& cached = m_of_owner[owner];
  if (auto found = cached.of_word.find(word); found != cached.of_word.end()) {
    CachedPostings& postings = found->second;
    if (postings.inserts_seen < cached.inserted.size()) {
      // Catch up with this connection's inserts: every row from the lowest
      // one inserted since this list was read is read again.
      const std::int64_t from = *std::min_element(
          cached.inserted.begin() + static_cast<std::ptrdiff_t>(postings.inserts_seen), cached.inserted.end());
      auto newer = read_postings(conn, owner, word, from);
      if (!newer) {
        return tl::unexpected(newer.error());
      }
      const auto kept_end = first_at_or_after(postings.list, from);
      m_posting_count -= static_cast<std::size_t>(postings.list.end() - kept_end);
      postings.list.erase(kept_end, postings.list.end());
      postings.list.insert(postings.list.end(), newer->begin(), newer->end());
      m_posting_count += newer->size();
      postings.inserts_seen = cached.inserted.size();
    }
    return &postings.list;
  }
  auto list = read_postings(conn, owner, word, std::numeric_limits<std::int64_t>::min());
  if (!list) {
    return tl::unexpected(list.error());
  }
  m_posting_count += list->size();
  ++m_list_count;
  CachedPostings& postings = cached.of_word[word];
  postings.list = std::move(*list);
  postings.inserts_seen = cached.inserted.size();
  return &postings.list;
}

Result<PostingList> SearchCache::read_postings(Connection& conn, const std::string& owner, const std::string& word,
                                               std::int64_t from_rowid) {
  auto match = fts5_match_expression(std::vector<std::string>{word});
  if (!match) {
    return tl::unexpected(match.error());
  }
  // Phrase 0 is the scope token, phrase 1 the word.
  auto q = conn.prepare(
      "SELECT rowid, skillrt_term_weight(skill_search, 1), skillrt_text_length(skill_search) FROM skill_search"
      " WHERE skill_search MATCH ?1 AND rowid >= ?2 ORDER BY rowid");
  if (!q) {
    return tl::unexpected(q.error());
  }
  q->bind(1, owner_expression(owner) + " AND " + k_text_columns + " : (" + *match + ")").bind(2, from_rowid);
  PostingList list;
  if (auto done = q->each_row([&](Statement& row) {
        list.push_back(
            Posting{row.integer(0), static_cast<float>(row.real(1)), static_cast<std::uint32_t>(row.integer(2))});
      });
      !done) {
    return tl::unexpected(done.error());
  }
  list.shrink_to_fit();
  return list;
}

Result<double> SearchCache::text_length(Connection& conn, const std::string& owner, std::int64_t rowid) {
  auto q = conn.prepare(
      "SELECT skillrt_text_length(skill_search) FROM skill_search WHERE skill_search MATCH ?1 AND rowid = ?2");
  if (!q) {
    return tl::unexpected(q.error());
  }
  q->bind(1, owner_expression(owner)).bind(2, rowid);
  auto row = q->step();
  if (!row) {
    return tl::unexpected(row.error());
  }
  if (!*row) {
    return fail(ErrorCode::internal, "sqlite: a search document is not under its owner's scope token");
  }
  return q->real(0);
}

bool SearchCache::is_current(Connection& conn) {
  auto now = changes_and_version(conn);
  return now && !m_hooks_pending && now->first == m_changes && now->second == m_data_version;
}

bool SearchCache::count_in_size(Connection& conn, const std::string& owner, OwnerCache& cached, std::int64_t rowid,
                                int sign) {
  if (!cached.size_known) {
    return true;
  }
  auto length = text_length(conn, owner, rowid);
  if (!length) {
    forget_owner(owner); // read again whole when next used
    return false;
  }
  cached.size.documents += sign;
  cached.size.total_length += sign * *length;
  return true;
}

void SearchCache::before_remove(Connection& conn, const std::string& owner, std::int64_t rowid) {
  m_hooks_pending = true;
  const auto found = m_of_owner.find(owner);
  if (found == m_of_owner.end()) {
    return;
  }
  OwnerCache& cached = found->second;
  if (!count_in_size(conn, owner, cached, rowid, -1)) {
    return;
  }
  for (auto& [word, postings] : cached.of_word) {
    const auto at = first_at_or_after(postings.list, rowid);
    if (at != postings.list.end() && at->rowid == rowid) {
      postings.list.erase(at);
      --m_posting_count;
    }
  }
}

void SearchCache::after_insert(Connection& conn, const std::string& owner, std::int64_t rowid) {
  m_hooks_pending = true;
  const auto found = m_of_owner.find(owner);
  if (found == m_of_owner.end()) {
    return;
  }
  OwnerCache& cached = found->second;
  if (!count_in_size(conn, owner, cached, rowid, +1)) {
    return;
  }
  if (!cached.of_word.empty()) {
    cached.inserted.push_back(rowid);
  }
}

void SearchCache::after_commit(Connection& conn, bool was_current) {
  if (!was_current) {
    return; // m_hooks_pending stays: the next search empties the cache
  }
  auto now = changes_and_version(conn);
  if (!now) {
    return;
  }
  m_changes = now->first;
  m_hooks_pending = false;
}

} // namespace skillrt::store::sqlite
