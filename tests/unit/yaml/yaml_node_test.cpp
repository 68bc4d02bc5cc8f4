#include <gtest/gtest.h>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {
namespace {

using ST = YamlNode::ScalarType;

ST plain_type(const char* text) { return YamlNode::make_scalar(text, true, {}).scalar_type(); }

TEST(YamlNodeTest, CoreSchemaNulls) {
  for (const char* t : {"", "~", "null", "Null", "NULL"}) {
    EXPECT_EQ(plain_type(t), ST::null) << t;
    EXPECT_TRUE(YamlNode::make_scalar(t, true, {}).is_null()) << t;
  }
  EXPECT_EQ(plain_type("nUll"), ST::string);
  EXPECT_TRUE(YamlNode().is_null());
}

TEST(YamlNodeTest, CoreSchemaBooleansOnlyTrueFalse) {
  for (const char* t : {"true", "True", "TRUE", "false", "False", "FALSE"}) {
    EXPECT_EQ(plain_type(t), ST::boolean) << t;
  }
  // YAML 1.1 booleans are plain strings in 1.2.
  for (const char* t : {"yes", "no", "on", "off", "y", "n", "tRUE"}) {
    EXPECT_EQ(plain_type(t), ST::string) << t;
  }
  EXPECT_EQ(YamlNode::make_scalar("True", true, {}).as_bool(), true);
  EXPECT_EQ(YamlNode::make_scalar("false", true, {}).as_bool(), false);
  EXPECT_FALSE(YamlNode::make_scalar("yes", true, {}).as_bool().has_value());
}

TEST(YamlNodeTest, CoreSchemaIntegers) {
  for (const char* t : {"0", "014", "-3", "+7", "0o17", "0x1F", "0xff", "123456789012345678901234"}) {
    EXPECT_EQ(plain_type(t), ST::integer) << t;
  }
  for (const char* t : {"0x", "0o", "0o8", "0xg", "-0x1", "1_000", "08x", "+", "-"}) {
    EXPECT_NE(plain_type(t), ST::integer) << t;
  }
  // 014 is decimal fourteen in YAML 1.2 (octal in 1.1).
  EXPECT_EQ(YamlNode::make_scalar("014", true, {}).to_string(), "14");
  EXPECT_EQ(YamlNode::make_scalar("0x1F", true, {}).to_string(), "31");
  EXPECT_EQ(YamlNode::make_scalar("0o17", true, {}).to_string(), "15");
  EXPECT_EQ(YamlNode::make_scalar("+7", true, {}).to_string(), "7");
  EXPECT_EQ(YamlNode::make_scalar("-0", true, {}).to_string(), "0");
  EXPECT_EQ(YamlNode::make_scalar("00123456789012345678901234", true, {}).to_string(),
            "123456789012345678901234");
}

TEST(YamlNodeTest, CoreSchemaFloats) {
  for (const char* t : {"1.0", "-1.5", ".5", "1.", "1e3", "1.5E-3", "+2.5e+10", ".inf", "-.Inf", "+.INF",
                        ".nan", ".NaN", ".NAN"}) {
    EXPECT_EQ(plain_type(t), ST::floating) << t;
  }
  for (const char* t : {".", "e3", "1e", "1.2.3", "inf", "nan", "-.nan", "1,5", "1.0.0"}) {
    EXPECT_EQ(plain_type(t), ST::string) << t;
  }
  EXPECT_EQ(YamlNode::make_scalar("1.0", true, {}).to_string(), "1.0");
  EXPECT_EQ(YamlNode::make_scalar("1e3", true, {}).to_string(), "1000.0");
  EXPECT_EQ(YamlNode::make_scalar("0.1", true, {}).to_string(), "0.1");
  EXPECT_EQ(YamlNode::make_scalar("1e16", true, {}).to_string(), "1e+16");
  EXPECT_EQ(YamlNode::make_scalar("1.5e-5", true, {}).to_string(), "1.5e-05");
  EXPECT_EQ(YamlNode::make_scalar("0.0001", true, {}).to_string(), "0.0001");
  EXPECT_EQ(YamlNode::make_scalar("-.inf", true, {}).to_string(), "-inf");
  EXPECT_EQ(YamlNode::make_scalar(".NaN", true, {}).to_string(), "nan");
  EXPECT_EQ(YamlNode::make_scalar("2.50", true, {}).to_string(), "2.5");
}

TEST(YamlNodeTest, QuotedScalarsAreAlwaysStrings) {
  for (const char* t : {"", "null", "true", "12", "1.5", ".inf"}) {
    YamlNode node = YamlNode::make_scalar(t, false, {});
    EXPECT_EQ(node.scalar_type(), ST::string) << t;
    EXPECT_FALSE(node.is_null()) << t;
    EXPECT_FALSE(node.as_bool().has_value()) << t;
    EXPECT_EQ(node.to_string(), t);
  }
}

TEST(YamlNodeTest, TruthyFollowsPython) {
  EXPECT_FALSE(YamlNode().truthy());
  EXPECT_FALSE(YamlNode::make_scalar("~", true, {}).truthy());
  EXPECT_FALSE(YamlNode::make_scalar("false", true, {}).truthy());
  EXPECT_TRUE(YamlNode::make_scalar("true", true, {}).truthy());
  EXPECT_FALSE(YamlNode::make_scalar("0", true, {}).truthy());
  EXPECT_FALSE(YamlNode::make_scalar("0x0", true, {}).truthy());
  EXPECT_FALSE(YamlNode::make_scalar("-0.0", true, {}).truthy());
  EXPECT_TRUE(YamlNode::make_scalar(".nan", true, {}).truthy());
  EXPECT_TRUE(YamlNode::make_scalar("0.5", true, {}).truthy());
  EXPECT_FALSE(YamlNode::make_scalar("", false, {}).truthy());
  EXPECT_TRUE(YamlNode::make_scalar("false", false, {}).truthy());  // the string "false"
  EXPECT_TRUE(YamlNode::make_scalar("0", false, {}).truthy());
  EXPECT_FALSE(YamlNode::make_sequence({}).truthy());
  EXPECT_FALSE(YamlNode::make_mapping({}).truthy());
  YamlNode seq = YamlNode::make_sequence({});
  seq.push(YamlNode());
  EXPECT_TRUE(seq.truthy());
}

TEST(YamlNodeTest, ToStringRendersLikePythonStr) {
  EXPECT_EQ(YamlNode().to_string(), "None");
  EXPECT_EQ(YamlNode::make_scalar("TRUE", true, {}).to_string(), "True");
  EXPECT_EQ(YamlNode::make_scalar("false", true, {}).to_string(), "False");
  EXPECT_EQ(YamlNode::make_scalar("hello world", true, {}).to_string(), "hello world");
  YamlNode seq = YamlNode::make_sequence({});
  seq.push(YamlNode::make_scalar("a", true, {}));
  seq.push(YamlNode::make_scalar("it's", false, {}));
  seq.push(YamlNode::make_scalar("3", true, {}));
  seq.push(YamlNode::make_scalar("3", false, {}));
  seq.push(YamlNode::make_scalar("null", true, {}));
  EXPECT_EQ(seq.to_string(), "['a', \"it's\", 3, '3', None]");
  YamlNode map = YamlNode::make_mapping({});
  map.add("k", YamlNode::make_scalar("v", true, {}));
  map.add("n", YamlNode::make_scalar("true", true, {}));
  map.add("l", std::move(seq));
  EXPECT_EQ(map.to_string(), "{'k': 'v', 'n': True, 'l': ['a', \"it's\", 3, '3', None]}");
  YamlNode esc = YamlNode::make_sequence({});
  esc.push(YamlNode::make_scalar("a\\b\n'\"", false, {}));
  EXPECT_EQ(esc.to_string(), "['a\\\\b\\n\\'\"']");
}

TEST(YamlNodeTest, MappingLookupAndKeyPositions) {
  YamlNode map = YamlNode::make_mapping({1, 1});
  map.add("a", YamlNode::make_scalar("1", true, {1, 4}));
  map.set_key_pos(0, {1, 1});
  map.add("b", YamlNode::make_scalar("2", true, {2, 4}));
  map.set_key_pos(1, {2, 1});
  ASSERT_NE(map.get("b"), nullptr);
  EXPECT_EQ(map.get("b")->text(), "2");
  EXPECT_EQ(map.get("c"), nullptr);
  EXPECT_EQ(map.key_pos("b").line, 2U);
  EXPECT_EQ(map.key_pos("c").line, 0U);
  YamlNode scalar = YamlNode::make_scalar("x", true, {});
  EXPECT_EQ(scalar.get("x"), nullptr);
}

}  // namespace
}  // namespace skillrt::core
