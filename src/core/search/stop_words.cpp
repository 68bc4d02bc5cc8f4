#include "core/search/stop_words.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace skillrt::core {
namespace {

// Sorted, lower case. Pronouns, articles, auxiliaries, conjunctions,
// prepositions and question words: the glue of a natural-language request.
constexpr std::array<std::string_view, 110> k_stop_words = {
    "a",      "about", "above", "after",  "again", "all",   "also",  "am",    "an",    "and",    "any",
    "are",    "as",    "at",    "be",     "been",  "being", "below", "both",  "but",   "by",     "can",
    "could",  "did",   "do",    "does",   "doing", "down",  "each",  "few",   "for",   "from",   "had",
    "has",    "have",  "having", "he",    "her",   "here",  "hers",  "him",   "his",   "how",    "i",
    "if",     "in",    "into",  "is",     "it",    "its",   "just",  "me",    "more",  "most",   "my",
    "no",     "nor",   "not",   "now",    "of",    "off",   "on",    "once",  "only",  "or",     "other",
    "our",    "ours",  "out",   "over",   "own",   "same",  "she",   "should", "so",   "some",   "such",
    "than",   "that",  "the",   "their",  "them",  "then",  "there", "these", "they",  "this",   "those",
    "through", "to",   "too",   "under",  "until", "up",    "very",  "was",   "we",    "were",   "what",
    "when",   "where", "which", "while",  "who",   "whom",  "why",   "will",  "with",  "would",  "you",
};

bool is_word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x80 || (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z');
}

}  // namespace

bool is_stop_word(std::string_view word) {
  if (word.empty() || word.size() > 8) {
    return false;
  }
  std::string lower(word);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return std::binary_search(k_stop_words.begin(), k_stop_words.end(), std::string_view(lower));
}

std::string without_stop_words(std::string_view query) {
  std::vector<std::string_view> kept;
  bool dropped = false;
  std::size_t i = 0;
  while (i < query.size()) {
    if (!is_word_byte(query[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < query.size() && is_word_byte(query[end])) {
      ++end;
    }
    const std::string_view word = query.substr(i, end - i);
    if (is_stop_word(word)) {
      dropped = true;
    } else {
      kept.push_back(word);
    }
    i = end;
  }
  if (kept.empty() || !dropped) {
    return std::string(query);
  }
  std::string out;
  for (std::string_view word : kept) {
    if (!out.empty()) {
      out += ' ';
    }
    out += word;
  }
  return out;
}

}  // namespace skillrt::core
