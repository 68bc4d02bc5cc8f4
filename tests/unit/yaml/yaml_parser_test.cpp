#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/limits.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {
namespace {

constexpr std::size_t k_big = 1 << 24;

Result<YamlNode> parse(std::string_view text) { return parse_yaml(text, k_big); }

Error parse_error_of(std::string_view text) {
  Result<YamlNode> result = parse(text);
  EXPECT_FALSE(result.has_value()) << "expected an error for: " << text;
  return result ? Error{} : result.error();
}

TEST(YamlParserTest, MappingWithTypesAndPositions) {
  auto doc = parse("name: demo\nversion: 014\nflag: yes\nreal: true\nquoted: \"true\"\nlist:\n  - a\n  - 'b'\n");
  ASSERT_TRUE(doc) << doc.error().message;
  ASSERT_TRUE(doc->is_mapping());
  ASSERT_EQ(doc->entries().size(), 6U);
  EXPECT_EQ(doc->entries()[0].first, "name");
  EXPECT_EQ(doc->get("version")->scalar_type(), YamlNode::ScalarType::integer);
  EXPECT_EQ(doc->get("version")->to_string(), "14");
  EXPECT_EQ(doc->get("flag")->scalar_type(), YamlNode::ScalarType::string);
  EXPECT_EQ(doc->get("real")->as_bool(), true);
  EXPECT_EQ(doc->get("quoted")->scalar_type(), YamlNode::ScalarType::string);
  const YamlNode* list = doc->get("list");
  ASSERT_TRUE(list && list->is_sequence());
  ASSERT_EQ(list->items().size(), 2U);
  EXPECT_TRUE(list->items()[0].plain());
  EXPECT_FALSE(list->items()[1].plain());
  // Positions are 1-based: keys and values.
  EXPECT_EQ(doc->pos().line, 1U);
  EXPECT_EQ(doc->key_pos("version").line, 2U);
  EXPECT_EQ(doc->key_pos("version").column, 1U);
  EXPECT_EQ(doc->get("version")->pos().line, 2U);
  EXPECT_EQ(doc->get("version")->pos().column, 10U);
  EXPECT_EQ(list->items()[1].pos().line, 8U);
  EXPECT_EQ(list->items()[1].pos().column, 5U);
}

TEST(YamlParserTest, EmptyAndCommentOnlyDocumentsAreNull) {
  for (const char* text : {"", "\n\n", "# just a comment\n", "---\n", "---\n...\n"}) {
    auto doc = parse(text);
    ASSERT_TRUE(doc) << text << ": " << doc.error().message;
    EXPECT_TRUE(doc->is_null()) << text;
  }
}

TEST(YamlParserTest, MissingValueIsNull) {
  auto doc = parse("a:\nb: ~\nc: ''\n");
  ASSERT_TRUE(doc);
  EXPECT_TRUE(doc->get("a")->is_null());
  EXPECT_TRUE(doc->get("b")->is_null());
  EXPECT_FALSE(doc->get("c")->is_null());
}

TEST(YamlParserTest, BlockScalarsAndFlowCollections) {
  auto doc = parse("d: |\n  line one\n  line two\ne: >\n  folded\n  text\nf: {x: 1, y: [1, 2]}\n");
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ(doc->get("d")->text(), "line one\nline two\n");
  EXPECT_EQ(doc->get("d")->scalar_type(), YamlNode::ScalarType::string);
  EXPECT_EQ(doc->get("e")->text(), "folded text\n");
  const YamlNode* f = doc->get("f");
  ASSERT_TRUE(f && f->is_mapping());
  EXPECT_EQ(f->get("y")->items().size(), 2U);
}

TEST(YamlParserTest, SyntaxErrorCarriesLibyamlMessageAndPosition) {
  Error err = parse_error_of("a: 1\n b: 2\nc\n");
  EXPECT_EQ(err.code, ErrorCode::parse_error);
  EXPECT_NE(err.message.find("mapping values are not allowed"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 2U);

  err = parse_error_of("key: value\n- item\n");
  EXPECT_EQ(err.code, ErrorCode::parse_error);
  EXPECT_NE(err.message.find("did not find expected key"), std::string::npos) << err.message;
  EXPECT_NE(err.message.find("while parsing a block mapping started at 1:1"), std::string::npos)
      << err.message;
  EXPECT_EQ(err.pos.line, 2U);
  EXPECT_EQ(err.pos.column, 1U);
}

TEST(YamlParserTest, AnchorsAliasesAndTagsAreRefusedWithPositions) {
  Error err = parse_error_of("a: &x 1\nb: 2\n");
  EXPECT_NE(err.message.find("anchors are not allowed"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 1U);
  EXPECT_EQ(err.pos.column, 4U);

  err = parse_error_of("a: 1\nb: *x\n");
  // An undefined alias is still an alias: refused before anything resolves it.
  EXPECT_NE(err.message.find("aliases are not allowed"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 2U);
  EXPECT_EQ(err.pos.column, 4U);

  err = parse_error_of("a: 1\nb: !!str 2\n");
  EXPECT_NE(err.message.find("explicit tags are not allowed"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 2U);

  err = parse_error_of("a: !custom {x: 1}\n");
  EXPECT_NE(err.message.find("explicit tags"), std::string::npos) << err.message;
  err = parse_error_of("a: ! 12\n");
  EXPECT_NE(err.message.find("explicit tags"), std::string::npos) << err.message;
  err = parse_error_of("- &anchor [1]\n");
  EXPECT_NE(err.message.find("anchors"), std::string::npos) << err.message;
}

TEST(YamlParserTest, DirectivesAndMultipleDocumentsAreRefused) {
  Error err = parse_error_of("%YAML 1.2\n---\na: 1\n");
  EXPECT_NE(err.message.find("directives"), std::string::npos) << err.message;
  err = parse_error_of("%TAG ! tag:example.com,2000:\n---\na: 1\n");
  EXPECT_NE(err.message.find("directives"), std::string::npos) << err.message;
  err = parse_error_of("a: 1\n---\nb: 2\n");
  EXPECT_NE(err.message.find("single document"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 2U);
}

TEST(YamlParserTest, DuplicateAndComplexKeysAreRefused) {
  Error err = parse_error_of("name: a\ndescription: b\nname: c\n");
  EXPECT_NE(err.message.find("duplicate key 'name'"), std::string::npos) << err.message;
  EXPECT_EQ(err.pos.line, 3U);
  EXPECT_EQ(err.pos.column, 1U);
  // Nested mappings have their own key sets.
  EXPECT_TRUE(parse("a: {k: 1}\nb: {k: 2}\n"));
  err = parse_error_of("outer:\n  k: 1\n  k: 2\n");
  EXPECT_EQ(err.pos.line, 3U);
  EXPECT_EQ(err.pos.column, 3U);

  err = parse_error_of("? [a, b]\n: value\n");
  EXPECT_NE(err.message.find("keys must be scalars"), std::string::npos) << err.message;
  err = parse_error_of("{[1]: 2}\n");
  EXPECT_NE(err.message.find("keys must be scalars"), std::string::npos) << err.message;
}

TEST(YamlParserTest, DuplicateKeysCanBeAllowedLastWins) {
  YamlParseOptions lenient;
  lenient.allow_duplicate_keys = true;
  auto doc = parse_yaml("a: 1\nb: 2\na: 3\nc:\n  k: x\n  k: y\n", 1024, lenient);
  ASSERT_TRUE(doc) << doc.error().message;
  ASSERT_EQ(doc->entries().size(), 3U);
  EXPECT_EQ(doc->entries()[0].first, "a");  // the first slot...
  EXPECT_EQ(doc->get("a")->text(), "3");    // ...with the last value
  EXPECT_EQ(doc->key_pos("a").line, 1U);
  EXPECT_EQ(doc->key_pos("b").line, 2U);
  EXPECT_EQ(doc->get("c")->get("k")->text(), "y");
  EXPECT_EQ(doc->get("c")->entries().size(), 1U);
  // The other strict checks still apply.
  EXPECT_FALSE(parse_yaml("a: &x 1\n", 1024, lenient));
}

TEST(YamlParserTest, InvalidUtf8IsRefusedWithPosition) {
  std::string text = "name: ok\ndescription: caf\xC3\xA9 \xFF!\n";
  Error err = parse_error_of(text);
  EXPECT_EQ(err.code, ErrorCode::parse_error);
  EXPECT_NE(err.message.find("UTF-8"), std::string::npos);
  EXPECT_EQ(err.pos.line, 2U);
  EXPECT_EQ(err.pos.column, 19U);  // "description: café " is 18 characters
  // Overlong encodings and UTF-16 surrogates are ill-formed too.
  EXPECT_FALSE(parse("a: \xC0\xAF\n"));
  EXPECT_FALSE(parse("a: \xED\xA0\x80\n"));
  EXPECT_FALSE(parse("a: \xF4\x90\x80\x80\n"));
  EXPECT_FALSE(parse("a: \xE2\x82"));  // truncated at the end
  EXPECT_TRUE(parse("a: \xF0\x9F\x98\x80\n"));
}

TEST(YamlParserTest, ControlCharactersAreRefusedWithPosition) {
  std::string text = "a: 1\nb: x";
  text.push_back('\0');
  text += "y\n";
  Error err = parse_error_of(text);
  EXPECT_EQ(err.code, ErrorCode::parse_error);
  EXPECT_EQ(err.pos.line, 2U);
  EXPECT_EQ(err.pos.column, 5U);
}

TEST(YamlParserTest, SizeLimit) {
  std::string text = "a: " + std::string(100, 'x') + "\n";
  auto result = parse_yaml(text, 50);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(parse_yaml(text, text.size()));
}

TEST(YamlParserTest, DepthLimit) {
  std::string ok;
  std::string too_deep;
  for (std::size_t i = 0; i < limits::k_max_yaml_depth; ++i) {
    ok += "[";
  }
  too_deep = ok + "[";
  ok += std::string(limits::k_max_yaml_depth, ']');
  too_deep += std::string(limits::k_max_yaml_depth + 1, ']');
  EXPECT_TRUE(parse(ok));
  Error err = parse_error_of(too_deep);
  EXPECT_EQ(err.code, ErrorCode::limit_exceeded);
  EXPECT_EQ(err.pos.column, limits::k_max_yaml_depth + 1);
}

TEST(YamlParserTest, TenThousandDeepNestingFailsFastWithoutRecursion) {
  auto start = std::chrono::steady_clock::now();
  std::string flow = std::string(10000, '[') + std::string(10000, ']');
  EXPECT_EQ(parse_error_of(flow).code, ErrorCode::limit_exceeded);
  std::string mapping_flow;
  for (int i = 0; i < 10000; ++i) {
    mapping_flow += "{a: ";
  }
  EXPECT_FALSE(parse(mapping_flow));
  std::string nested_block;
  for (int i = 0; i < 2000; ++i) {  // block nesting costs i spaces per line: keep it small
    nested_block += std::string(static_cast<std::size_t>(i), ' ') + "- \n";
  }
  EXPECT_FALSE(parse(nested_block));
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count(), 5);
}

TEST(YamlParserTest, BillionLaughsIsRefusedQuickly) {
  std::string bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  std::string prev = "a";
  for (char c = 'b'; c <= 'i'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int k = 0; k < 9; ++k) {
      bomb += (k ? ",*" : "*") + prev;
    }
    bomb += "]\n";
    prev = std::string(1, c);
  }
  auto start = std::chrono::steady_clock::now();
  Error err = parse_error_of(bomb);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(err.code, ErrorCode::parse_error);
  EXPECT_EQ(err.pos.line, 1U);
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 1000);
}

TEST(YamlParserTest, NodeLimit) {
  std::string many = "[";
  for (std::size_t i = 0; i < limits::k_max_yaml_nodes + 10; ++i) {
    many += "1,";
  }
  many += "1]";
  Error err = parse_error_of(many);
  EXPECT_EQ(err.code, ErrorCode::limit_exceeded);
  EXPECT_NE(err.message.find("nodes"), std::string::npos);
}

TEST(YamlParserTest, MegabyteDocumentWithinLimitParses) {
  std::string text = "description: " + std::string(1 << 20, 'x') + "\n";
  auto doc = parse(text);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->get("description")->text().size(), std::size_t{1} << 20);
  auto limited = parse_yaml(text, limits::k_max_frontmatter_bytes);
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().code, ErrorCode::limit_exceeded);
}

TEST(YamlParserTest, TopLevelScalarAndSequence) {
  auto scalar = parse("just text\n");
  ASSERT_TRUE(scalar);
  EXPECT_TRUE(scalar->is_scalar());
  EXPECT_EQ(scalar->text(), "just text");
  auto seq = parse("- 1\n- two\n");
  ASSERT_TRUE(seq);
  EXPECT_TRUE(seq->is_sequence());
}

}  // namespace
}  // namespace skillrt::core
