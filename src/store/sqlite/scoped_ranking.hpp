// bm25 over the documents the caller may see.
//
// FTS5's own bm25() weighs each word by its document frequency across the
// whole index: every user's documents. A score, and even the order of two
// results, would then move when another user's private skill gains or loses a
// word, which tells the caller something about it. skillrt_bm25() is the same
// formula (k1 = 1.2, b = 0.75, per-column weights, IDF floored at 1e-6) with
// the statistics given by the caller: the number of documents in the caller's
// scope, their average text length and each word's document frequency within
// the scope, counted with scoped MATCH queries (see sqlite_store.cpp).
#pragma once

#include "skillrt/result.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace skillrt::store::sqlite {

// Registers on `conn`'s FTS5:
//   skillrt_bm25(skill_search, FIRST, N, AVGDL, DF_1, ..., DF_k) — minus the
//     scoped bm25 of the row (lower is better, like bm25()), where phrases
//     FIRST .. FIRST+k-1 of the MATCH expression are the query's words and
//     DF_i their document frequencies; phrases before FIRST (the scope
//     tokens) do not count.
//   skillrt_text_length(skill_search) — tokens in the row's text columns.
Result<void> register_scoped_ranking(Connection& conn);

}  // namespace skillrt::store::sqlite
