// What the in-memory bm25 (bm25_top_k.hpp) reads from FTS5, over the
// documents the caller may see.
//
// FTS5's own bm25() weighs each word by its document frequency across the
// whole index: every user's documents. A score, and even the order of two
// results, would then move when another user's private skill gains or loses a
// word, which tells the caller something about it. So the store ranks with
// the statistics of the caller's scope (the number of documents, their average
// text length, each word's document frequency within the scope), and reads per
// row only what the formula needs: the word's weighted frequency and the row's
// text length. Both are read per owner (shared, or one user) with MATCH
// queries filtered on the scope column (see sqlite_store.cpp).
#pragma once

#include "skillrt/result.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace skillrt::store::sqlite {

// Registers on `conn`'s FTS5:
//   skillrt_term_weight(skill_search, PHRASE) — the column weights (name 10;
//     description, tags, triggers 4; body 1; the bookkeeping columns 0)
//     summed over the row's hits of phrase PHRASE of the MATCH expression.
//   skillrt_text_length(skill_search) — tokens in the row's text columns.
Result<void> register_scoped_ranking(Connection& conn);

}  // namespace skillrt::store::sqlite
