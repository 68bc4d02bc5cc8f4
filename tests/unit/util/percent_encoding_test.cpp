#include "core/util/percent_encoding.hpp"

#include <gtest/gtest.h>

namespace skillrt::core {
namespace {

TEST(PercentEncoding, HexDigitsInEitherCase) {
  EXPECT_EQ(hex_digit_value('0'), 0);
  EXPECT_EQ(hex_digit_value('9'), 9);
  EXPECT_EQ(hex_digit_value('a'), 10);
  EXPECT_EQ(hex_digit_value('F'), 15);
  EXPECT_EQ(hex_digit_value('g'), -1);
  EXPECT_EQ(hex_digit_value('%'), -1);
}

TEST(PercentEncoding, DecodesEscapesAndPlusOnlyWhenAsked) {
  EXPECT_EQ(percent_decode("a%2Fb%2fc", false), "a/b/c");
  EXPECT_EQ(percent_decode("a+b", false), "a+b");
  EXPECT_EQ(percent_decode("a+b", true), "a b");
  EXPECT_EQ(percent_decode("%00", false), std::string(1, '\0'));  // the caller decides about NUL
  EXPECT_EQ(percent_decode("", false), "");
}

TEST(PercentEncoding, RefusesATruncatedOrNonHexEscape) {
  for (const char* bad : {"%", "%4", "abc%", "%zz", "%4g", "x%2"}) {
    EXPECT_FALSE(percent_decode(bad, false)) << bad;
  }
}

}  // namespace
}  // namespace skillrt::core
