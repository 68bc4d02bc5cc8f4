// What the SQLite store's searches keep between queries: per scope token
// ("shared" or one user's, see sqlite_store.cpp) the size of its documents,
// and per scope token and word the postings bm25_top_k ranks from.
//
// Why: reading a word's postings out of FTS5 costs one pass over the rows
// holding it (up to ~40 ms for a word in half of 50,000 documents); summing
// them in memory costs well under a millisecond. So each list is read once and
// kept while it is right:
//   - another connection's commit (PRAGMA data_version moves) empties it all,
//     since what changed is unknown;
//   - this connection's own writes are told to the cache (removed, inserted)
//     inside their transaction and kept in step: a removed row leaves every
//     list of its owner at once, an inserted row is read lazily, by reading
//     again the rows from the lowest inserted rowid up when a list is next
//     used. Only after the transaction commits does the cache count those
//     writes as seen (after_commit); a rollback leaves total_changes() ahead
//     of it, and the next search empties it.
// So a server whose one file changed re-reads that file's row, not 50,000.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "skillrt/result.hpp"
#include "store/bm25_top_k.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace skillrt::store::sqlite {

class SearchCache {
public:
  // Before a search: empties what may be stale (another connection's commit,
  // or writes of this one the cache was not told of) or past its bounds.
  // Only here, between queries, so the lists a query holds stay valid.
  Result<void> drop_what_may_be_stale(Connection& conn);

  Result<OwnerSize> owner_size(Connection& conn, const std::string& owner);
  Result<const PostingList*> postings(Connection& conn, const std::string& owner, const std::string& word);

  // The hooks of this connection's writes, called inside the transaction.
  // They never fail the write: what they cannot keep in step is dropped.
  // is_current: the cache's state before the transaction, for after_commit.
  bool is_current(Connection& conn);
  // Row `rowid` of `owner` is about to be deleted / has been inserted.
  void before_remove(Connection& conn, const std::string& owner, std::int64_t rowid);
  void after_insert(Connection& conn, const std::string& owner, std::int64_t rowid);
  // The transaction committed: when the cache was current before it, it is
  // current after it too. Hooks not followed by this call (a rollback) make
  // the next search empty the cache.
  void after_commit(Connection& conn, bool was_current);

private:
  struct CachedPostings {
    PostingList list;
    std::size_t inserts_seen = 0; // entries of OwnerCache::inserted this list holds
  };
  struct OwnerCache {
    bool size_known = false;
    OwnerSize size;
    std::unordered_map<std::string, CachedPostings> of_word;
    // Rows this connection inserted since the owner's lists were read.
    std::vector<std::int64_t> inserted;
  };

  Result<double> text_length(Connection& conn, const std::string& owner, std::int64_t rowid);
  // Counts row `rowid` of `owner` in or out (`sign` +1 / -1) of its size
  // when the size is known; false (the owner forgotten) when its length
  // cannot be read, so the caller stops keeping that owner in step.
  bool count_in_size(Connection& conn, const std::string& owner, OwnerCache& cached, std::int64_t rowid, int sign);
  Result<std::pair<std::int64_t, std::int64_t>> changes_and_version(Connection& conn);
  Result<PostingList> read_postings(Connection& conn, const std::string& owner, const std::string& word,
                                    std::int64_t from_rowid);
  void forget_lists(OwnerCache& cached);
  void forget_owner(const std::string& owner);
  void clear();

  std::int64_t m_changes = -1;      // total_changes() the cache has seen
  std::int64_t m_data_version = -1; // PRAGMA data_version when filled
  std::unordered_map<std::string, OwnerCache> m_of_owner;
  std::size_t m_posting_count = 0;
  std::size_t m_list_count = 0;
  bool m_hooks_pending = false; // hooks ran since the last after_commit
};

} // namespace skillrt::store::sqlite
