// The best k documents for an OR of words, ranked by bm25, from in-memory
// postings: no SQL, no engine.
//
// Both stores use it: the SQLite one over postings read out of FTS5
// (sqlite/search_cache.hpp), the PostgreSQL one over postings read out of the
// tsvectors (postgres/pg_search_cache.hpp).
//
// Why in memory and not in the engine: FTS5 calls the ranking function for
// every row holding any word of the query, ~3 µs a row (PostgreSQL's
// ts_rank_cd ~7 µs), so a query with a word held by a quarter of 50,000
// documents cost 25-40 ms (70 ms-1 s on PostgreSQL). Summing the same formula
// over postings already in memory costs a few ns a posting (well under a
// millisecond for the same query), so every row is still scored and the
// result is exactly the full ranking, not an approximation of it.
//
// The formula is FTS5's bm25 (k1 = 1.2, b = 0.75, IDF floored at 1e-6), with
// the statistics of the caller's scope (scoped_ranking.hpp says why), summed
// word by word in query order so the scores are the same doubles the engine
// computed before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace skillrt::store {

// One document holding a word: what bm25 needs from it.
struct Posting {
  std::int64_t rowid = 0;
  // Column weight summed over the word's hits in the document. The weights
  // are whole numbers and an indexed document is at most 1 MiB (a database
  // skill 100,000 characters), so the sum stays far below 2^24 and the float
  // holds it exactly.
  float weighted_frequency = 0;
  std::uint32_t length = 0; // tokens in the document's text columns
};

// Ascending rowid, one entry per document.
using PostingList = std::vector<Posting>;

// How many documents one owner of the index has (shared, or one user), and
// their tokens in the text columns; a scope's CorpusSize sums its owners'.
struct OwnerSize {
  std::int64_t documents = 0;
  double total_length = 0; // a sum of whole numbers: exact, whatever the order
};

// The documents of the caller's scope, counted in the text columns.
struct CorpusSize {
  std::int64_t documents = 0;
  double average_length = 0;
};

// The postings of one query word within the scope: one list per owner in the
// scope (shared documents, the caller's own); the lists hold disjoint rows.
struct WordPostings {
  std::vector<const PostingList*> lists;
};

struct RankedRow {
  std::int64_t rowid = 0;
  double score = 0; // higher is better
};

// The best `limit` rows holding at least one word, best first; ties go to the
// lower rowid (as `ORDER BY rank, rowid` did). A word's document frequency is
// the total size of its lists.
std::vector<RankedRow> bm25_top_k(const CorpusSize& corpus, const std::vector<WordPostings>& words, std::size_t limit);

} // namespace skillrt::store
