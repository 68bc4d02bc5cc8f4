// Stop words leave a query only when something else is left to look for.
#include "core/search/stop_words.hpp"

#include <gtest/gtest.h>

namespace skillrt::test {
namespace {

TEST(StopWords, FunctionWordsInAnyCase) {
  for (const char* word : {"the", "The", "TO", "how", "with", "a", "through"}) {
    EXPECT_TRUE(core::is_stop_word(word)) << word;
  }
  for (const char* word : {"deploy", "kubernetes", "", "thee", "theory", "tos", "howto", "naïve"}) {
    EXPECT_FALSE(core::is_stop_word(word)) << word;
  }
}

TEST(StopWords, DroppedFromAQuestion) {
  EXPECT_EQ(core::without_stop_words("How do I deploy to kubernetes?"), "deploy kubernetes");
  EXPECT_EQ(core::without_stop_words("the PDF-tools of the team"), "PDF tools team");
}

TEST(StopWords, QueryWithoutStopWordsIsUnchanged) {
  EXPECT_EQ(core::without_stop_words("deploy \"kubernetes\" *"), "deploy \"kubernetes\" *");
}

TEST(StopWords, OnlyStopWordsAreKept) {
  EXPECT_EQ(core::without_stop_words("the"), "the");
  EXPECT_EQ(core::without_stop_words("to be or not to be"), "to be or not to be");
}

TEST(StopWords, NonAsciiWordsStayWhole) {
  EXPECT_EQ(core::without_stop_words("the 日本語 docs"), "日本語 docs");
}

}  // namespace
}  // namespace skillrt::test
