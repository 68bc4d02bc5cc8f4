#include <gtest/gtest.h>

#include "core/config/list_literal.hpp"

namespace skillrt::core {
namespace {

using V = std::vector<std::string>;

TEST(ListLiteralTest, JsonAndPythonStringLists) {
  EXPECT_EQ(parse_list_literal(R"(["a", "b"])"), (V{"a", "b"}));
  EXPECT_EQ(parse_list_literal(R"(['a', 'b'])"), (V{"a", "b"}));
  EXPECT_EQ(parse_list_literal(R"([ 'mixed' , "quotes", ])"), (V{"mixed", "quotes"}));
  EXPECT_EQ(parse_list_literal("[]"), V{});
  EXPECT_EQ(parse_list_literal("[\n  'multi',\n  'line'\n]"), (V{"multi", "line"}));
}

TEST(ListLiteralTest, EscapesPrefixesAndConcatenation) {
  EXPECT_EQ(parse_list_literal(R"(["it\"s", 'it\'s', "tab\there"])"), (V{"it\"s", "it's", "tab\there"}));
  EXPECT_EQ(parse_list_literal(R"(["\u00e9\x41\101"])"), (V{"\xC3\xA9" "AA"}));
  EXPECT_EQ(parse_list_literal(R"([r'a\b', u"x"])"), (V{"a\\b", "x"}));
  EXPECT_EQ(parse_list_literal(R"(['a' "b", '''c'''])"), (V{"ab", "c"}));
  EXPECT_EQ(parse_list_literal(R"(["\q"])"), (V{"\\q"}));
}

TEST(ListLiteralTest, NonStringItemsAreStringified) {
  EXPECT_EQ(parse_list_literal("[1, -2, 3.50, 1e3, 0x10, True, None, ['a', 1]]"),
            (V{"1", "-2", "3.5", "1000.0", "16", "True", "None", "['a', 1]"}));
}

TEST(ListLiteralTest, RejectsWhatLiteralEvalRejects) {
  for (const char* text : {"[", "['a'", "['a',, 'b']", "[true]", "[null]", "['a'] extra", "[a]", "['a\nb']",
                           "[007]", "('a', 'b')", "['a'][0]", "[1j]", "[{'k': 1}]", "[b'x']", "not a list"}) {
    EXPECT_FALSE(parse_list_literal(text).has_value()) << text;
  }
}

TEST(ListLiteralTest, DeepNestingIsRefusedNotRecursed) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(parse_list_literal(deep).has_value());
}

}  // namespace
}  // namespace skillrt::core
