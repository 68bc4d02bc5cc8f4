#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/limits.hpp"
#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {
namespace {

std::string body_of(std::string_view text, const Frontmatter& fm) {
  return std::string(text.substr(fm.body_offset));
}

std::string field(const Frontmatter& fm, std::string_view key) {
  const YamlNode* node = fm.fields.get(key);
  return node == nullptr ? "<absent>" : node->to_string();
}

TEST(FrontmatterTest, PlainMapping) {
  std::string text = "---\nname: demo\ndescription: Does things.\n---\n# Title\nBody\n";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_FALSE(fm.yaml_error.has_value());
  EXPECT_EQ(field(fm, "name"), "demo");
  EXPECT_EQ(field(fm, "description"), "Does things.");
  EXPECT_EQ(body_of(text, fm), "# Title\nBody\n");
  EXPECT_EQ(fm.yaml_first_line, 2U);
  // Field positions are file lines.
  EXPECT_EQ(fm.fields.key_pos("description").line, 3U);
  EXPECT_EQ(fm.fields.get("name")->pos().line, 2U);
  EXPECT_EQ(fm.fields.get("name")->pos().column, 7U);
}

TEST(FrontmatterTest, NoFenceMeansNoFrontmatter) {
  for (std::string text : {std::string("# Title\n---\nname: x\n---\n"), std::string(" ---\nname: x\n---\n"),
                           std::string("")}) {
    Frontmatter fm = parse_frontmatter(text);
    EXPECT_FALSE(fm.fenced);
    EXPECT_TRUE(fm.fields.is_mapping());
    EXPECT_TRUE(fm.fields.entries().empty());
    EXPECT_EQ(fm.body_offset, 0U);
  }
}

TEST(FrontmatterTest, UnclosedFenceIsNotFrontmatter) {
  std::string text = "---\nname: demo\ndescription: x\n\nBody without a closing fence\n";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_FALSE(fm.fenced);
  EXPECT_TRUE(fm.fields.entries().empty());
  EXPECT_EQ(body_of(text, fm), text);
  // `---` followed by other text on the line is not a closing fence.
  fm = parse_frontmatter("---\nname: a\n--- not a fence\nb: 2\n");
  EXPECT_FALSE(fm.fenced);
  fm = parse_frontmatter("---\nname: a\n----\n");
  EXPECT_FALSE(fm.fenced);
}

TEST(FrontmatterTest, ClosingFenceVariants) {
  // Trailing spaces/tabs after the fence.
  std::string text = "---\nname: a\n--- \t\nBody";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_EQ(body_of(text, fm), "Body");
  // Fence at the very end of the text.
  text = "---\nname: a\n---";
  fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_EQ(field(fm, "name"), "a");
  EXPECT_EQ(body_of(text, fm), "");
  // Hermes' `\n---\s*\n` swallows blank lines after the fence.
  text = "---\nname: a\n---\n\n  \nBody\n";
  fm = parse_frontmatter(text);
  EXPECT_EQ(body_of(text, fm), "Body\n");
  // The first later `---` line closes, even inside what looks like a block scalar.
  text = "---\na: |\n  x\n---\nb: 1\n---\nBody";
  fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_EQ(fm.fields.entries().size(), 1U);
  EXPECT_EQ(body_of(text, fm), "b: 1\n---\nBody");
  // An immediately closed fence is an empty (null) document.
  text = "---\n---\nBody";
  fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_FALSE(fm.yaml_error.has_value());
  EXPECT_TRUE(fm.fields.entries().empty());
  EXPECT_EQ(body_of(text, fm), "Body");
}

TEST(FrontmatterTest, FindFencesSpans) {
  auto span = find_fences("---\na: 1\n---\nrest");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->yaml_begin, 3U);
  EXPECT_EQ(span->yaml_end, 8U);
  EXPECT_EQ(span->body_begin, 13U);
  EXPECT_FALSE(find_fences("--"));
  EXPECT_FALSE(find_fences("---"));
  EXPECT_FALSE(find_fences("\xEF\xBB\xBF---\na: 1\n---\n"));  // BOM is the caller's business
}

TEST(FrontmatterTest, ByteOrderMark) {
  std::string text = "\xEF\xBB\xBF---\nname: bom\n---\nBody";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_EQ(field(fm, "name"), "bom");
  EXPECT_EQ(body_of(text, fm), "Body");
  // Only one BOM is stripped; a second one is data and breaks the fence.
  fm = parse_frontmatter("\xEF\xBB\xBF\xEF\xBB\xBF---\nname: x\n---\n");
  EXPECT_FALSE(fm.fenced);
  EXPECT_EQ(fm.body_offset, 3U);
  EXPECT_EQ(strip_bom("\xEF\xBB\xBFx"), "x");
  EXPECT_EQ(strip_bom("x\xEF\xBB\xBF"), "x\xEF\xBB\xBF");
}

TEST(FrontmatterTest, CrlfLineEndings) {
  std::string text = "---\r\nname: crlf\r\ndescription: |\r\n  two\r\n  lines\r\n---\r\nBody\r\n";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  EXPECT_FALSE(fm.yaml_error.has_value());
  EXPECT_EQ(field(fm, "name"), "crlf");
  EXPECT_EQ(field(fm, "description"), "two\nlines\n");
  EXPECT_EQ(body_of(text, fm), "Body\r\n");
  EXPECT_EQ(fm.fields.key_pos("description").line, 3U);
  // Errors keep file line numbers under CRLF too.
  fm = parse_frontmatter("---\r\nname: a\r\nbad: [1\r\n---\r\n");
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_GE(fm.yaml_error->pos.line, 3U);
}

TEST(FrontmatterTest, NonMappingYamlGivesEmptyFields) {
  for (const char* text : {"---\n- a\n- b\n---\nBody", "---\njust a string\n---\nBody", "---\n~\n---\nBody",
                           "---\n\n---\nBody"}) {
    Frontmatter fm = parse_frontmatter(text);
    EXPECT_TRUE(fm.fenced) << text;
    EXPECT_FALSE(fm.yaml_error.has_value()) << text;
    EXPECT_TRUE(fm.fields.is_mapping()) << text;
    EXPECT_TRUE(fm.fields.entries().empty()) << text;
    EXPECT_EQ(body_of(text, fm), "Body");
  }
}

TEST(FrontmatterTest, LineFallbackOnYamlError) {
  // The unquoted colon-space inside the description is a YAML error.
  std::string text =
      "---\nname: broken\ndescription: Use when: things happen\nno colon line\n  tags: [a, b\nname: again\n---\nBody";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_TRUE(fm.fenced);
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.yaml_error->code, ErrorCode::parse_error);
  EXPECT_EQ(fm.yaml_error->pos.line, 3U);  // file-relative
  EXPECT_EQ(field(fm, "description"), "Use when: things happen");
  EXPECT_EQ(field(fm, "tags"), "[a, b");
  // Duplicate keys: one entry, the last value, the first slot.
  EXPECT_EQ(field(fm, "name"), "again");
  ASSERT_EQ(fm.fields.entries().size(), 3U);
  EXPECT_EQ(fm.fields.entries()[0].first, "name");
  // Fallback values are strings, never typed.
  fm = parse_frontmatter("---\na: 1\nb: true\nc: [x\n---\n");
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.fields.get("b")->scalar_type(), YamlNode::ScalarType::string);
  EXPECT_EQ(fm.fields.get("a")->text(), "1");
  EXPECT_EQ(fm.fields.key_pos("b").line, 3U);
  EXPECT_EQ(body_of("---\na: 1\nb: true\nc: [x\n---\n", fm), "");
}

TEST(FrontmatterTest, StrictRefusalsFallBackToLines) {
  Frontmatter fm = parse_frontmatter("---\nname: &n demo\ndescription: *n\n---\n");
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.yaml_error->pos.line, 2U);
  EXPECT_EQ(field(fm, "name"), "&n demo");
  fm = parse_frontmatter("---\nname: a\nname: b\n---\n");
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_NE(fm.yaml_error->message.find("duplicate"), std::string::npos);
  EXPECT_EQ(fm.yaml_error->pos.line, 3U);
  EXPECT_EQ(field(fm, "name"), "b");
}

TEST(FrontmatterTest, ErrorOnFenceLineGetsFileColumn) {
  // Hermes parses whatever follows the opening `---` on its line as YAML too.
  Frontmatter fm = parse_frontmatter("--- a: &x 1\n---\n");
  ASSERT_TRUE(fm.fenced);
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.yaml_error->pos.line, 1U);
  EXPECT_EQ(fm.yaml_error->pos.column, 8U);
}

TEST(FrontmatterTest, OversizedFrontmatterIsRefusedWithBoundedFallback) {
  std::string text = "---\nname: big\ndescription: " + std::string(1 << 20, 'x') + "\nlate: key\n---\nBody";
  auto start = std::chrono::steady_clock::now();
  Frontmatter fm = parse_frontmatter(text);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(fm.fenced);
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.yaml_error->code, ErrorCode::limit_exceeded);
  EXPECT_EQ(field(fm, "name"), "big");
  EXPECT_EQ(fm.fields.get("late"), nullptr);  // beyond the limit: never looked at
  EXPECT_LE(fm.fields.get("description")->text().size(), limits::k_max_frontmatter_bytes);
  EXPECT_EQ(body_of(text, fm), "Body");
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count(), 2);
}

TEST(FrontmatterTest, InvalidUtf8BecomesReplacementCharacter) {
  std::string text = "---\nname: caf\xE9\ndescription: ok\n---\n";
  Frontmatter fm = parse_frontmatter(text);
  EXPECT_FALSE(fm.yaml_error.has_value());
  EXPECT_EQ(field(fm, "name"), "caf\xEF\xBF\xBD");
}

TEST(FrontmatterTest, DeepNestingFallsBack) {
  std::string text = "---\nx: " + std::string(10000, '[') + "\nname: deep\n---\n";
  Frontmatter fm = parse_frontmatter(text);
  ASSERT_TRUE(fm.yaml_error.has_value());
  EXPECT_EQ(fm.yaml_error->code, ErrorCode::limit_exceeded);
  EXPECT_EQ(field(fm, "name"), "deep");
}

TEST(FrontmatterTest, TagListForms) {
  auto tags_of = [](const std::string& yaml) {
    Frontmatter fm = parse_frontmatter("---\n" + yaml + "\n---\n");
    EXPECT_FALSE(fm.yaml_error.has_value()) << yaml;
    return parse_tag_list(fm.fields.get("tags"));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(tags_of("tags: [a, b, ' c ']"), (V{"a", "b", "c"}));
  EXPECT_EQ(tags_of("tags:\n  - x\n  - 2\n  - true\n  - ''\n  - null\n  - 0"), (V{"x", "2", "True"}));
  EXPECT_EQ(tags_of("tags: a, b ,c"), (V{"a", "b", "c"}));
  EXPECT_EQ(tags_of("tags: \"[one, 'two', \\\"three\\\"]\""), (V{"one", "two", "three"}));
  EXPECT_EQ(tags_of("tags: '[a,,b, ]'"), (V{"a", "b"}));
  EXPECT_EQ(tags_of("tags: single"), (V{"single"}));
  EXPECT_EQ(tags_of("tags:"), V{});
  EXPECT_EQ(tags_of("tags: ''"), V{});
  EXPECT_EQ(tags_of("tags: []"), V{});
  EXPECT_EQ(tags_of("other: 1"), V{});
  EXPECT_EQ(tags_of("tags: 42"), (V{"42"}));
  EXPECT_EQ(parse_tag_list(nullptr), V{});
}

}  // namespace
}  // namespace skillrt::core
