// The deprecated StateJson shim (pending_commit and bundled_sync still read
// through it until issue 14 moves them to nlohmann); the rules are core/util/strict_json.
#include "core/memory/state_json.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

TEST(StateJson, ParsesObjectsArraysStringsNumbersLiterals) {
  auto doc = parse_state_json(R"( {"a": [1, -2.5e3, "x", true, false, null], "b": {}} )");
  ASSERT_TRUE(doc) << doc.error().message;
  ASSERT_EQ(doc->kind, StateJson::Kind::object);
  const StateJson* a = doc->find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 6u);
  EXPECT_EQ(a->items[0].text, "1");
  EXPECT_EQ(a->items[1].text, "-2500.0"); // as nlohmann writes it
  EXPECT_EQ(a->items[2].text, "x");
  EXPECT_TRUE(a->items[3].boolean);
  EXPECT_EQ(a->items[5].kind, StateJson::Kind::null);
  EXPECT_EQ(doc->find("missing"), nullptr);
}

TEST(StateJson, DecodesEscapesAndSurrogatePairs) {
  auto doc = parse_state_json(R"(["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00"])");
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ(doc->items[0].text, "a\"b\\c/\n\t");
  EXPECT_EQ(doc->items[1].text, "é😀");
}

TEST(StateJson, RefusesMalformedDocuments) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,\"a\":2}", "\"unterminated", "[01]", "[1.]", "tru",
                          "[\"\\x\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "{} extra", "[\"a\nb\"]", "-"}) {
    EXPECT_FALSE(parse_state_json(bad)) << bad;
  }
  EXPECT_FALSE(parse_state_json("[\"\xff\"]")); // not UTF-8
}

TEST(StateJson, NestingIsBounded) {
  const std::string deep_ok(limits::k_max_state_json_depth, '[');
  EXPECT_TRUE(parse_state_json(deep_ok + std::string(limits::k_max_state_json_depth, ']')));
  const std::string too_deep(limits::k_max_state_json_depth + 1, '[');
  auto doc = parse_state_json(too_deep + std::string(limits::k_max_state_json_depth + 1, ']'));
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error().code, ErrorCode::parse_error);
}

TEST(StateJson, QuoteRoundTrips) {
  const std::string text = "quote \" backslash \\ newline \n tab \t bell \x07 del \x7f é 😀";
  auto doc = parse_state_json("[" + quote_json_string(text) + "]");
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ(doc->items[0].text, text);
}

} // namespace
} // namespace skillrt::core
