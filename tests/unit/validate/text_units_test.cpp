#include "core/validate/text_units.hpp"

#include <gtest/gtest.h>

namespace skillrt::core {
namespace {

TEST(TextUnits, CountsCodePointsAndUtf16Units) {
  EXPECT_EQ(code_point_count(""), 0U);
  EXPECT_EQ(code_point_count("abc"), 3U);
  EXPECT_EQ(code_point_count("caf\xC3\xA9"), 4U);
  EXPECT_EQ(code_point_count("\xF0\x9F\x98\x80"), 1U);
  EXPECT_EQ(utf16_length("\xF0\x9F\x98\x80"), 2U);
  EXPECT_EQ(utf16_length("caf\xC3\xA9"), 4U);
  EXPECT_EQ(utf16_length("\xE6\x95\xB0"), 1U);
  // An ill-formed byte counts once and never reads past the end.
  EXPECT_EQ(code_point_count("a\xFF"), 2U);
  EXPECT_EQ(code_point_count("\xE6\x95"), 2U);
}

TEST(TextUnits, DecodeEncodeRoundTrip) {
  std::string text = "a\xC3\xA9\xE6\x95\xB0\xF0\x9F\x98\x80";
  std::u32string cps = decode_utf8(text);
  ASSERT_EQ(cps.size(), 4U);
  EXPECT_EQ(cps[1], U'\u00E9');
  EXPECT_EQ(cps[3], U'\U0001F600');
  EXPECT_EQ(encode_utf8(cps), text);
  EXPECT_EQ(decode_utf8("\xFF")[0], U'\uFFFD');
}

TEST(TextUnits, TrimsLikeEachLanguage) {
  EXPECT_EQ(js_trim("  a b \t\n"), "a b");
  EXPECT_EQ(js_trim("\xC2\xA0x\xE3\x80\x80"), "x");     // NBSP and ideographic space
  EXPECT_EQ(js_trim("\xEF\xBB\xBFx"), "x");             // JavaScript trims U+FEFF
  EXPECT_EQ(py_trim("\xEF\xBB\xBFx"), "\xEF\xBB\xBFx"); // Python does not
  EXPECT_EQ(py_trim("\x1Cx\x1F"), "x");
  EXPECT_EQ(js_trim("\x1Cx"), "\x1Cx");
  EXPECT_EQ(js_trim("   "), "");
  EXPECT_EQ(py_trim(""), "");
}

} // namespace
} // namespace skillrt::core
