// Free text → FTS5 MATCH: words quoted and OR-joined, nothing else survives.
#include <gtest/gtest.h>

#include "store/sqlite/fts_query.hpp"

namespace skillrt::store {
namespace {

TEST(FtsQuery, WordsAreQuotedAndOrJoined) {
  EXPECT_EQ(*fts5_match_expression("deploy kubernetes"), "\"deploy\" OR \"kubernetes\"");
  EXPECT_EQ(*fts5_match_expression("NEAR(a, b)"), "\"NEAR\" OR \"a\" OR \"b\"");
  EXPECT_EQ(*fts5_match_expression("\"AND\" -x*"), "\"AND\" OR \"x\"");
  EXPECT_EQ(*fts5_match_expression("name:foo^"), "\"name\" OR \"foo\"");
  EXPECT_EQ(*fts5_match_expression("café 日本語"), "\"café\" OR \"日本語\"");
}

TEST(FtsQuery, NoWordsIsInvalid) {
  for (const char* text : {"", " ", "\"", "*", "()", "-+^:"}) {
    auto expr = fts5_match_expression(text);
    ASSERT_FALSE(expr) << text;
    EXPECT_EQ(expr.error().code, ErrorCode::invalid_argument);
  }
}

TEST(FtsQuery, WordCountIsBounded) {
  std::string text;
  for (std::size_t i = 0; i < k_max_query_words * 3; ++i)
    text += "w" + std::to_string(i) + " ";
  EXPECT_EQ(query_words(text).size(), k_max_query_words);
}

} // namespace
} // namespace skillrt::store
