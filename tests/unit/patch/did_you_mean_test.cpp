// The "did you mean" hint (spec §2.11 rule 7).
#include <gtest/gtest.h>

#include <string>

#include "core/patch/fuzzy_replace.hpp"

namespace skillrt::core {
namespace {

TEST(DidYouMean, ShowsTheMostSimilarLineWithTwoLinesOfContext) {
  const std::string content = "zero\none\ntwo\nthree\nconfigure the api key now\nfive\nsix\nseven\n";
  const std::string hint = did_you_mean(content, "\n  configure the API keys\nmore");
  EXPECT_EQ(hint,
            "   3| two\n"
            "   4| three\n"
            "   5| configure the api key now\n"
            "   6| five\n"
            "   7| six");
}

TEST(DidYouMean, JoinsUpToThreeBlocksBestFirst) {
  std::string content;
  for (int k = 1; k <= 40; ++k) {
    content += "filler " + std::to_string(k) + " ........\n";
  }
  content += "set value alpha\n";  // line 41
  for (int k = 42; k <= 60; ++k) {
    content += "pad " + std::to_string(k) + " ~~~~~~~~~~\n";
  }
  content += "set value alpha beta\n";  // line 61
  content += "tail\n";
  const std::string hint = did_you_mean(content, "set value alpha beta gamma");
  const std::size_t separator = hint.find("\n---\n");
  ASSERT_NE(separator, std::string::npos) << hint;
  EXPECT_NE(hint.substr(0, separator).find("  61| set value alpha beta"), std::string::npos) << hint;
  EXPECT_NE(hint.substr(separator).find("  41| set value alpha"), std::string::npos) << hint;
  EXPECT_EQ(hint.find("\n---\n", separator + 1), std::string::npos) << "only two lines are similar";
}

TEST(DidYouMean, NothingSimilarGivesEmpty) {
  EXPECT_EQ(did_you_mean("aaaa\nbbbb\n", "zzzzzzzz"), "");
  EXPECT_EQ(did_you_mean("aaaa\n", "  \n\t"), "");
}

TEST(DidYouMean, DiagnosesWhitespaceDifferences) {
  const std::string hint = did_you_mean("\tfoo bar baz\nnext\n", "    foo bar baz\n    qux");
  EXPECT_EQ(hint,
            "   1| \tfoo bar baz\n"
            "   2| next\n"
            "   3| \n\n"
            "Whitespace differs (\u2192 = tab, \u00b7 = space):\n"
            "  file line 1: \u2192foo bar baz\n"
            "  old_string:   \u00b7\u00b7\u00b7\u00b7foo bar baz");
}

}  // namespace
}  // namespace skillrt::core
