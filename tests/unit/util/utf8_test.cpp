#include <gtest/gtest.h>

#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

TEST(Utf8Test, FindsFirstInvalidByte) {
  EXPECT_FALSE(find_invalid_utf8("plain ascii").has_value());
  EXPECT_FALSE(find_invalid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80").has_value());
  EXPECT_EQ(find_invalid_utf8("ab\x80"), 2U);
  EXPECT_EQ(find_invalid_utf8("a\xC3"), 1U);          // truncated
  EXPECT_EQ(find_invalid_utf8("a\xE0\x80\x80"), 1U);  // overlong
  EXPECT_EQ(find_invalid_utf8("\xED\xB0\x80"), 0U);   // surrogate
  EXPECT_EQ(find_invalid_utf8("\xF5\x80\x80\x80"), 0U);
}

TEST(Utf8Test, SanitizeReplacesMaximalSubparts) {
  EXPECT_EQ(sanitize_utf8("ok"), "ok");
  EXPECT_EQ(sanitize_utf8("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  // A truncated 3-byte sequence is one replacement, as Python does.
  EXPECT_EQ(sanitize_utf8("a\xE2\x82" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(sanitize_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(Utf8Test, OffsetToPosition) {
  std::string_view text = "ab\ncaf\xC3\xA9x\r\ny\rz";
  EXPECT_EQ(offset_to_pos(text, 0).line, 1U);
  EXPECT_EQ(offset_to_pos(text, 0).column, 1U);
  EXPECT_EQ(offset_to_pos(text, 3).line, 2U);
  EXPECT_EQ(offset_to_pos(text, 8).column, 5U);  // 'x' after the two-byte é
  EXPECT_EQ(offset_to_pos(text, 11).line, 3U);   // after CRLF
  EXPECT_EQ(offset_to_pos(text, 13).line, 4U);   // after a lone CR
  EXPECT_EQ(offset_to_pos(text, 1000).line, 4U);
}

}  // namespace
}  // namespace skillrt::core
