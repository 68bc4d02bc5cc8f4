// The shared text helpers: ASCII trimming as Python's str.strip() does for
// ASCII, and the UTF-8 encoder at every length boundary.
#include <string>

#include <gtest/gtest.h>

#include "core/util/text.hpp"

namespace skillrt::core {
namespace {

TEST(TrimAsciiSpace, RemovesTheSixAsciiSpacesOnBothEnds) {
  EXPECT_EQ(trim_ascii_space(" \t\n\v\f\rname \r\n"), "name");
  EXPECT_EQ(trim_ascii_space("a b"), "a b");
  EXPECT_EQ(trim_ascii_space(" \t "), "");
  EXPECT_EQ(trim_ascii_space(""), "");
}

TEST(TrimAsciiSpace, KeepsNonAsciiSpaces) {
  // U+00A0 (no-break space) is not ASCII whitespace: names keep it, so a
  // look-alike name stays distinct and is refused by the name rules.
  EXPECT_EQ(trim_ascii_space("\xC2\xA0x\xC2\xA0"), "\xC2\xA0x\xC2\xA0");
}

TEST(AppendUtf8, EncodesEveryLengthBoundary) {
  std::string out;
  append_utf8(out, U'\x7F');
  append_utf8(out, U'\x80');
  append_utf8(out, U'\x7FF');
  append_utf8(out, U'\x800');
  append_utf8(out, U'\xFFFF');
  append_utf8(out, U'\x10000');
  append_utf8(out, U'\x10FFFF');
  EXPECT_EQ(out, "\x7F"
                 "\xC2\x80"
                 "\xDF\xBF"
                 "\xE0\xA0\x80"
                 "\xEF\xBF\xBF"
                 "\xF0\x90\x80\x80"
                 "\xF4\x8F\xBF\xBF");
}

}  // namespace
}  // namespace skillrt::core
