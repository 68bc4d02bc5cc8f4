// Free text → a safe FTS5 MATCH expression. Nothing the caller types is ever
// FTS5 syntax: the text is cut into words, each word becomes a double-quoted
// string, and the strings are OR-joined.
//
// Why OR and not AND: queries are natural language ("how do I deploy to
// kubernetes"); with AND one word absent from a skill ("how") would hide it.
// bm25 sums the weight of every matched term, so a skill matching more (and
// rarer) words still ranks first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::store {

// At most this many words of a query are used (bounds the cost of one search).
inline constexpr std::size_t k_max_query_words = 32;

// The words of `text`: maximal runs of ASCII letters/digits and non-ASCII
// bytes (so "naïve" and "日本語" stay whole; the engine's tokenizer splits them
// further if it wants). Everything else separates words.
std::vector<std::string> query_words(std::string_view text);

// `"w1" OR "w2" …`; invalid_argument when the text has no words.
Result<std::string> fts5_match_expression(std::string_view text);

// The same for words already cut by query_words (so a caller can leave some
// out first); invalid_argument when `words` is empty.
Result<std::string> fts5_match_expression(const std::vector<std::string>& words);

} // namespace skillrt::store
