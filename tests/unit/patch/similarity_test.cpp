// The SequenceMatcher-style ratio: known values of difflib's ratio
// (autojunk off) and the cheap upper bounds.
#include <gtest/gtest.h>

#include <string>

#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {
namespace {

TEST(Similarity, MatchesDifflibValues) {
  EXPECT_DOUBLE_EQ(similarity_ratio(std::string_view("abcd"), std::string_view("bcde")), 0.75);
  EXPECT_DOUBLE_EQ(similarity_ratio(std::string_view(""), std::string_view("")), 1.0);
  EXPECT_DOUBLE_EQ(similarity_ratio(std::string_view("abc"), std::string_view("")), 0.0);
  EXPECT_DOUBLE_EQ(similarity_ratio(std::string_view("abc"), std::string_view("abc")), 1.0);
  // difflib: SequenceMatcher(None, "private Thread currentThread;",
  //   "private volatile Thread currentThread;").ratio() == 0.8656716417910447
  EXPECT_NEAR(similarity_ratio(std::string_view("private Thread currentThread;"),
                               std::string_view("private volatile Thread currentThread;")),
              0.8656716417910447, 1e-12);
  // Longest block first, then recursion on both sides: "qabxcd" / "abycdf" → 2*4/12.
  EXPECT_NEAR(similarity_ratio(std::string_view("qabxcd"), std::string_view("abycdf")), 8.0 / 12.0, 1e-12);
}

TEST(Similarity, CountsCodePointsNotBytes) {
  // "é" is one character: 2*2/(3+3).
  EXPECT_NEAR(similarity_ratio(std::string_view("aéb"), std::string_view("aéc")), 4.0 / 6.0, 1e-12);
}

TEST(Similarity, BoundsAreUpperBounds) {
  const std::u32string a = to_code_points("the quick brown fox");
  const std::u32string b = to_code_points("the quack brown fix jumps");
  const double exact = similarity_ratio(std::u32string_view(a), std::u32string_view(b));
  EXPECT_GE(quick_ratio(a, b), exact);
  EXPECT_GE(real_quick_ratio(a.size(), b.size()), quick_ratio(a, b));
  EXPECT_EQ(similar_at_least(a, b, 0.5), exact >= 0.5);
  EXPECT_FALSE(similar_at_least(a, to_code_points("x"), 0.3));
}

TEST(Similarity, HugeInputsFallBackToTheQuickBound) {
  const std::u32string a(6000, U'a');
  std::u32string b(6000, U'a');
  b[10] = U'b';
  EXPECT_NEAR(similarity_ratio(std::u32string_view(a), std::u32string_view(b)), quick_ratio(a, b), 1e-12);
}

TEST(Utf8Text, StripsPythonWhitespaceAndSurvivesInvalidBytes) {
  EXPECT_EQ(strip("\u00a0\t x \u3000\r"), "x");
  EXPECT_EQ(strip("\xff \xfe"), "\xff \xfe");
  EXPECT_EQ(rstrip("a\xe2\x80"), "a\xe2\x80");  // truncated sequence is not a space
  EXPECT_EQ(count_code_points("a\xffé"), 3U);
  EXPECT_EQ(truncate_code_points("éé", 1), "é");
  EXPECT_EQ(split_lines("a\n\nb\n").size(), 4U);
}

TEST(UnicodeFold, MapsBackToWholeCharacters) {
  const MappedText folded = unicode_fold("x\u2014y\u2026");
  EXPECT_EQ(folded.text, "x--y...");
  EXPECT_EQ(folded.to_original(Span{1, 2}), (Span{1, 4}));
  EXPECT_EQ(folded.to_original(Span{4, 7}), (Span{5, 8}));
  const MappedText collapsed = collapse_blanks("a \t b");
  EXPECT_EQ(collapsed.text, "a b");
  EXPECT_EQ(collapsed.to_original(Span{1, 2}), (Span{1, 4}));
}

}  // namespace
}  // namespace skillrt::core::fuzzy
