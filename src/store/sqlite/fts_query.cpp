#include "store/sqlite/fts_query.hpp"

namespace skillrt::store {
namespace {

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80;
}

} // namespace

std::vector<std::string> query_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size() && words.size() < k_max_query_words) {
    while (i < text.size() && !is_word_byte(text[i])) {
      ++i;
    }
    const std::size_t start = i;
    while (i < text.size() && is_word_byte(text[i])) {
      ++i;
    }
    if (i > start) {
      words.emplace_back(text.substr(start, i - start));
    }
  }
  return words;
}

Result<std::string> fts5_match_expression(std::string_view text) {
  return fts5_match_expression(query_words(text));
}

Result<std::string> fts5_match_expression(const std::vector<std::string>& words) {
  if (words.empty()) {
    return fail(ErrorCode::invalid_argument, "search query has no words to look for");
  }
  std::string expr;
  for (const std::string& word : words) {
    if (!expr.empty()) {
      expr += " OR ";
    }
    // A word holds no '"' (it is not a word byte), so quoting cannot be broken.
    expr += '"';
    expr += word;
    expr += '"';
  }
  return expr;
}

} // namespace skillrt::store
