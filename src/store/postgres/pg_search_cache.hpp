// What the PostgreSQL store's searches keep between queries, shared by every
// connection of the process to one database: per owner ("" shared, or one
// user) the size of its documents, and per owner and lexeme the postings
// bm25_top_k ranks from; and the lexemes each query word stems to.
//
// Why: ranking in SQL (ts_rank_cd over every row holding a word) detoasts the
// tsvector of every such row, ~7 µs a row: 1.2 ms for a word held by 2% of
// 50,000 documents, 150 ms for one held by half of them, on every query.
// Summing bm25 over postings already in memory costs nanoseconds a posting,
// so each list is read once and kept while it is right.
//
// How staleness is known across replicas: every statement that changes an
// owner's documents moves that owner's row of skill_search_generation and
// notes the documents it changed in skill_search_changes, in the same
// transaction (triggers of schema migration 5). A search reads the
// generations of its scope first. For an owner whose generation moved, the
// documents changed since are read in one snapshot with the generation: each
// leaves every kept list of its owner and, if it still exists, goes back into
// the lists of the lexemes it holds, and the owner's size moves by the
// difference. So one replica's edit of one file costs the others one small
// query, not every list again (an owner more than 1,000 generations or 4,096
// documents behind starts over). Lists are read outside that snapshot, after
// the generation: one read after a newer commit is caught up again next time,
// which removes and re-adds the same documents, so it ends up right.
//
// How a posting's weighted frequency is read without unnest(): for a query
// of one lexeme and normalisation 0, ts_rank_cd sums, over the lexeme's
// positions, the weight of each position's label (each position is a cover
// of length one). With label weights {D 0.1, C 0.1, B 0.4, A 1.0} that is a
// tenth of the column-weighted frequency the SQLite store counts (name 10;
// description, tags, triggers 4; body 1), read at the cost of a detoast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "skillrt/result.hpp"
#include "store/bm25_top_k.hpp"
#include "store/postgres/pg_connection.hpp"

namespace skillrt::store::pg {

class SearchCache {
 public:
  // The cache of the database `endpoint` names, made on first use and shared
  // by every store of this process open on it while any holds it.
  static std::shared_ptr<SearchCache> of_database(const Endpoint& endpoint);

  // Held by a search from its first call here to the end of its ranking: the
  // lists it holds stay valid until then.
  std::mutex& mutex() { return m_mutex; }

  // Brings every owner among `owners` up to its current generation (see
  // above), and forgets everything when past the bounds. Before a search.
  Result<void> catch_up(Connection& conn, const std::vector<std::string>& owners);

  Result<OwnerSize> owner_size(Connection& conn, const std::string& owner);
  // The lexemes each word stems to under skillrt_english, in word order; a
  // word may give none (nothing indexable) or several.
  Result<std::vector<std::vector<std::string>>> lexemes(Connection& conn, const std::vector<std::string>& words);
  Result<const PostingList*> postings(Connection& conn, const std::string& owner, const std::string& lexeme);

 private:
  struct OwnerCache {
    std::int64_t generation = -1;
    bool size_known = false;
    OwnerSize size;
    std::unordered_map<std::string, PostingList> of_lexeme;
  };

  // Applies the changes after `cached.generation` inside a read-only
  // repeatable-read transaction; false when the owner must start over.
  Result<bool> catch_up_owner(Connection& conn, const std::string& owner, OwnerCache& cached);
  void reset_owner(OwnerCache& cached, std::int64_t generation);
  void clear();

  std::mutex m_mutex;
  std::unordered_map<std::string, OwnerCache> m_of_owner;
  std::unordered_map<std::string, std::vector<std::string>> m_lexemes_of_word;
  std::size_t m_posting_count = 0;
  std::size_t m_list_count = 0;
};

}  // namespace skillrt::store::pg
