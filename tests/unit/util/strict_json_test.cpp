// The core's JSON policy over nlohmann: what check_strict_json refuses on top
// of plain nlohmann parsing, and json_quoted's round trip.
#include "core/util/strict_json.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace skillrt::core {
namespace {

constexpr std::size_t k_depth = 16;

TEST(StrictJson, AcceptsOneWellFormedDocument) {
  EXPECT_TRUE(check_strict_json(R"( {"a": [1, -2.5e3, "x", true, false, null], "b": {}} )", k_depth));
  EXPECT_TRUE(check_strict_json(R"(["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00"])", k_depth));
  EXPECT_TRUE(check_strict_json(R"({"a": {"k": 1}, "b": {"k": 2}})", k_depth)); // same key, other objects
}

TEST(StrictJson, RefusesMalformedDocuments) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "\"unterminated", "[01]", "[1.]", "tru", "[\"\\x\"]",
                          "[\"\\ud800\"]", "[\"\\udc00\"]", "{} extra", "[\"a\nb\"]", "-", "// c\n{}", "[1] [2]"}) {
    auto checked = check_strict_json(bad, k_depth);
    ASSERT_FALSE(checked) << bad;
    EXPECT_EQ(checked.error().code, ErrorCode::parse_error);
    EXPECT_NE(checked.error().message.find(" at byte "), std::string::npos) << checked.error().message;
    EXPECT_EQ(checked.error().message.find("[json.exception"), std::string::npos) << checked.error().message;
  }
}

TEST(StrictJson, RefusesDuplicateMembersThatNlohmannWouldMerge) {
  auto checked = check_strict_json(R"({"a": 1, "b": {"x": 1, "x": 2}})", k_depth);
  ASSERT_FALSE(checked);
  EXPECT_NE(checked.error().message.find("duplicate member \"x\""), std::string::npos) << checked.error().message;
  EXPECT_FALSE(check_strict_json(R"({"a": 1, "a": 1})", k_depth));
}

TEST(StrictJson, RefusesInvalidUtf8WithItsOffset) {
  auto checked = check_strict_json("[\"ok\", \"\xff\"]", k_depth);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().message, "not valid UTF-8 at byte 8");
}

TEST(StrictJson, NestingIsBounded) {
  const std::string deep_ok(k_depth, '[');
  EXPECT_TRUE(check_strict_json(deep_ok + std::string(k_depth, ']'), k_depth));
  const std::string too_deep(k_depth + 1, '[');
  auto checked = check_strict_json(too_deep + std::string(k_depth + 1, ']'), k_depth);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().message, "nesting deeper than 16");
  // Objects count as levels too, and a huge unclosed nest stops at the bound.
  EXPECT_FALSE(check_strict_json(std::string(100000, '[') + "{\"a\":{}}", k_depth));
  EXPECT_FALSE(check_strict_json(R"({"a":{"b":{"c":1}}})", 2));
}

TEST(JsonQuoted, RoundTripsThroughNlohmann) {
  const std::string text = "quote \" backslash \\ newline \n tab \t bell \x07 del \x7f é 😀";
  const std::string quoted = json_quoted(text);
  EXPECT_EQ(quoted.find('\n'), std::string::npos);
  EXPECT_EQ(quoted.find('\x07'), std::string::npos);
  ASSERT_TRUE(check_strict_json(quoted, k_depth));
  EXPECT_EQ(nlohmann::json::parse(quoted).get<std::string>(), text);
}

TEST(JsonQuoted, ReplacesInvalidUtf8SoTheFileStaysReadable) {
  const std::string quoted = json_quoted("a\xff" "b");
  EXPECT_EQ(quoted, "\"a\xef\xbf\xbd" "b\"");
  EXPECT_TRUE(check_strict_json(quoted, k_depth));
}

} // namespace
} // namespace skillrt::core
