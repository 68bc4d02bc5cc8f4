#include <gtest/gtest.h>

#include <string>

#include "core/yaml/yaml_emit.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {
namespace {

constexpr std::size_t k_big = 1 << 20;

// Structural equality including plain/quoted typing (positions ignored).
void expect_same(const YamlNode& a, const YamlNode& b, const std::string& where) {
  ASSERT_EQ(a.kind(), b.kind()) << where;
  switch (a.kind()) {
    case YamlNode::Kind::null:
      return;
    case YamlNode::Kind::scalar:
      EXPECT_EQ(a.text(), b.text()) << where;
      EXPECT_EQ(a.scalar_type(), b.scalar_type()) << where << " text=" << a.text();
      return;
    case YamlNode::Kind::sequence:
      ASSERT_EQ(a.items().size(), b.items().size()) << where;
      for (std::size_t i = 0; i < a.items().size(); ++i) {
        expect_same(a.items()[i], b.items()[i], where + "[" + std::to_string(i) + "]");
      }
      return;
    case YamlNode::Kind::mapping:
      ASSERT_EQ(a.entries().size(), b.entries().size()) << where;
      for (std::size_t i = 0; i < a.entries().size(); ++i) {
        EXPECT_EQ(a.entries()[i].first, b.entries()[i].first) << where;
        expect_same(a.entries()[i].second, b.entries()[i].second, where + "." + a.entries()[i].first);
      }
      return;
  }
}

TEST(YamlEmitterTest, RoundTripPreservesKindsTextsAndTypes) {
  const std::string source =
      "model: gpt\n"
      "count: 014\n"
      "ratio: 1.5\n"
      "flag: true\n"
      "flag_text: 'true'\n"
      "yes_plain: yes\n"
      "yes_quoted: 'yes'\n"
      "number_text: \"12\"\n"
      "date_text: '2024-01-01'\n"
      "nothing:\n"
      "null_text: 'null'\n"
      "empty_text: ''\n"
      "multi: |\n  line one\n  line two\n"
      "unicode: caf\xC3\xA9 \xE2\x9C\x93\n"
      "colon_text: 'a: b'\n"
      "hash_text: '# not a comment'\n"
      "'123': numeric key\n"
      "nested:\n  list: [a, 'b', 3, {k: v}]\n  empty_list: []\n  empty_map: {}\n"
      "long: " + std::string(300, 'x') + "\n";
  auto doc = parse_yaml(source, k_big);
  ASSERT_TRUE(doc) << doc.error().message;
  std::string emitted = emit_yaml(*doc);
  ASSERT_FALSE(emitted.empty());
  auto again = parse_yaml(emitted, k_big);
  ASSERT_TRUE(again) << again.error().message << "\n" << emitted;
  expect_same(*doc, *again, "root");
  // Long strings are not folded over several lines.
  EXPECT_NE(emitted.find("long: " + std::string(300, 'x') + "\n"), std::string::npos) << emitted;
  // Strings that PyYAML (YAML 1.1) would type are quoted, so Hermes reads them back as strings.
  EXPECT_NE(emitted.find("yes_quoted: 'yes'"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("date_text: '2024-01-01'"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("yes_plain: yes\n"), std::string::npos) << emitted;
  EXPECT_NE(emitted.find("count: 014\n"), std::string::npos) << emitted;
}

TEST(YamlEmitterTest, ScalarsNeedingQuotesGetThem) {
  YamlNode map = YamlNode::make_mapping({});
  map.add("a", YamlNode::make_scalar("- dash", false, {}));
  map.add("b", YamlNode::make_scalar("  padded  ", false, {}));
  map.add("c", YamlNode::make_scalar("it's \"x\"", false, {}));
  map.add("d", YamlNode::make_scalar("tab\there", false, {}));
  map.add("e", YamlNode::make_scalar("~", false, {}));
  map.add("f", YamlNode::make_scalar("0x1F", false, {}));
  map.add("g", YamlNode::make_scalar("bad \xFF byte", false, {}));
  std::string emitted = emit_yaml(map);
  auto back = parse_yaml(emitted, k_big);
  ASSERT_TRUE(back) << back.error().message << "\n" << emitted;
  for (const char* key : {"a", "b", "c", "d", "e", "f"}) {
    EXPECT_EQ(back->get(key)->text(), map.get(key)->text()) << key << "\n" << emitted;
    EXPECT_EQ(back->get(key)->scalar_type(), YamlNode::ScalarType::string) << key << "\n" << emitted;
  }
  EXPECT_EQ(back->get("g")->text(), "bad \xEF\xBF\xBD byte");
}

TEST(YamlEmitterTest, TopLevelForms) {
  auto null_back = parse_yaml(emit_yaml(YamlNode()), k_big);
  ASSERT_TRUE(null_back);
  EXPECT_TRUE(null_back->is_null());
  auto empty_back = parse_yaml(emit_yaml(YamlNode::make_mapping({})), k_big);
  ASSERT_TRUE(empty_back);
  EXPECT_TRUE(empty_back->is_mapping());
  EXPECT_TRUE(empty_back->entries().empty());
}

}  // namespace
}  // namespace skillrt::core
