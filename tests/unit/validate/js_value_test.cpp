#include "core/validate/js_value.hpp"

#include <gtest/gtest.h>

namespace skillrt::core {
namespace {

YamlNode plain(const std::string& text) {
  return YamlNode::make_scalar(text, true, {});
}
YamlNode quoted_scalar(const std::string& text) {
  return YamlNode::make_scalar(text, false, {});
}

TEST(JsValue, ResolvesPlainScalarsLikeJsYaml) {
  EXPECT_EQ(js_type(plain("")), JsType::null);
  EXPECT_EQ(js_type(plain("~")), JsType::null);
  EXPECT_EQ(js_type(plain("NULL")), JsType::null);
  EXPECT_EQ(js_type(plain("True")), JsType::boolean);
  EXPECT_EQ(js_type(plain("yes")), JsType::string);
  EXPECT_EQ(js_type(plain("014")), JsType::number);
  EXPECT_EQ(js_type(plain("0x1A")), JsType::number);
  EXPECT_EQ(js_type(plain("0b101")), JsType::number);
  EXPECT_EQ(js_type(plain("1e3")), JsType::number);
  EXPECT_EQ(js_type(plain(".5")), JsType::number);
  EXPECT_EQ(js_type(plain("-.inf")), JsType::number);
  EXPECT_EQ(js_type(plain("1.2.3")), JsType::string);
  EXPECT_EQ(js_type(plain("2024-01-31")), JsType::date);
  EXPECT_EQ(js_type(plain("2024-1-3 10:20:30 +02:00")), JsType::date);
  EXPECT_EQ(js_type(quoted_scalar("123")), JsType::string);
  EXPECT_EQ(js_type(YamlNode::make_sequence({})), JsType::array);
  EXPECT_EQ(js_type(YamlNode::make_mapping({})), JsType::object);
  EXPECT_EQ(js_type(YamlNode()), JsType::null);
}

TEST(JsValue, StringifiesLikeJavaScript) {
  EXPECT_EQ(js_string(plain("")), "null");
  EXPECT_EQ(js_string(plain("TRUE")), "true");
  EXPECT_EQ(js_string(plain("014")), "14");
  EXPECT_EQ(js_string(plain("0x1A")), "26");
  EXPECT_EQ(js_string(plain("-0")), "0");
  EXPECT_EQ(js_string(plain("1.0")), "1");
  EXPECT_EQ(js_string(plain("1.50")), "1.5");
  EXPECT_EQ(js_string(plain("1e21")), "1e+21");
  EXPECT_EQ(js_string(plain("1e20")), "100000000000000000000");
  EXPECT_EQ(js_string(plain("0.000001")), "0.000001");
  EXPECT_EQ(js_string(plain("1e-7")), "1e-7");
  EXPECT_EQ(js_string(plain(".nan")), "NaN");
  EXPECT_EQ(js_string(plain("-.Inf")), "-Infinity");
  EXPECT_EQ(js_string(quoted_scalar("0x1A")), "0x1A");
  YamlNode list = YamlNode::make_sequence({});
  list.push(plain("a"));
  list.push(plain("~"));
  list.push(plain("3"));
  EXPECT_EQ(js_string(list), "a,,3");
  EXPECT_EQ(js_string(YamlNode::make_mapping({})), "[object Object]");
  std::string date = js_string(plain("2024-01-31"));
  EXPECT_NE(date.find(' '), std::string::npos);
}

} // namespace
} // namespace skillrt::core
