// English function words dropped from a search query.
//
// Why: the engines OR the words of a query, and a word found in most skills
// ("the", "to", "how") makes the engine score nearly every document while
// adding nothing to the ranking (bm25 gives a word in more than half the
// documents an IDF of ~0). At 50k skills such a word costs ~300 ms per
// query; without it the same question takes a few milliseconds.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

// Is `word` (ASCII, any case) an English function word?
bool is_stop_word(std::string_view word);

// The query's words (runs of ASCII letters and digits or non-ASCII bytes, as
// both store adapters cut queries) without the stop words, joined by spaces;
// the query unchanged when it has nothing but stop words (a search for "the"
// still looks for "the").
std::string without_stop_words(std::string_view query);

}  // namespace skillrt::core
