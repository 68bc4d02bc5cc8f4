#include "core/manage/content_checks.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

// The checks fail with an Error; these tests compare its message (nullopt: passed).
std::optional<std::string> message_of(const Result<void>& checked) {
  return checked ? std::nullopt : std::optional<std::string>(checked.error().message);
}

const std::string k_valid = "---\nname: demo\ndescription: A demo\n---\n# Body\n";

// The skill-name rule of create is tested with the one checker (tests/unit/validate/skill_name_test.cpp).

TEST(ManageCategoryRules, SingleSegmentOnly) {
  EXPECT_EQ(message_of(check_category(std::nullopt)), std::nullopt);
  EXPECT_EQ(message_of(check_category(std::string("  "))), std::nullopt);
  EXPECT_EQ(message_of(check_category(std::string("devops"))), std::nullopt);
  for (const char* bad : {"../x", "/tmp/x", "a/b", "a\\b", "Dev"}) {
    EXPECT_TRUE(message_of(check_category(std::string(bad)))) << bad;
  }
  EXPECT_EQ(message_of(check_category(std::string(limits::k_max_category_length + 1, 'c'))), "Category exceeds 64 characters.");
}

TEST(ManageFrontmatter, AcceptsValidAndBomPrefixed) {
  EXPECT_EQ(message_of(check_skill_frontmatter(k_valid)), std::nullopt);
  EXPECT_EQ(message_of(check_skill_frontmatter("\xEF\xBB\xBF\xEF\xBB\xBF" + k_valid)), std::nullopt);
}

TEST(ManageFrontmatter, EachRuleHasItsMessage) {
  EXPECT_EQ(message_of(check_skill_frontmatter("  \n")), "Content cannot be empty.");
  EXPECT_NE(message_of(check_skill_frontmatter("# no frontmatter\n"))->find("must start with YAML frontmatter"), std::string::npos);
  EXPECT_NE(message_of(check_skill_frontmatter("---\nname: x\ndescription: y\n"))->find("not closed"), std::string::npos);
  EXPECT_EQ(message_of(check_skill_frontmatter("---\nname: [x\n---\nbody\n"))->rfind("YAML frontmatter parse error: ", 0), 0U);
  EXPECT_NE(message_of(check_skill_frontmatter("---\n- a\n- b\n---\nbody\n"))->find("mapping"), std::string::npos);
  EXPECT_EQ(message_of(check_skill_frontmatter("---\ndescription: y\n---\nbody\n")), "Frontmatter must include 'name' field.");
  EXPECT_EQ(message_of(check_skill_frontmatter("---\nname: x\n---\nbody\n")), "Frontmatter must include 'description' field.");
  // Presence, not non-emptiness.
  EXPECT_EQ(message_of(check_skill_frontmatter("---\nname:\ndescription:\n---\nbody\n")), std::nullopt);
  EXPECT_EQ(message_of(check_skill_frontmatter("---\nname: x\ndescription: " + std::string(1025, 'd') + "\n---\nbody\n")),
            "Description exceeds 1024 characters.");
  EXPECT_EQ(message_of(check_skill_frontmatter("---\nname: x\ndescription: " + std::string(1024, 'd') + "\n---\nbody\n")),
            std::nullopt);
  EXPECT_NE(message_of(check_skill_frontmatter("---\nname: x\ndescription: y\n---\n  \n"))->find("content after the frontmatter"),
            std::string::npos);
}

TEST(ManageFrontmatter, NameAndDescriptionAreRead) {
  EXPECT_EQ(frontmatter_name_of(k_valid), "demo");
  EXPECT_EQ(frontmatter_description_of(k_valid), "A demo");
  EXPECT_EQ(frontmatter_name_of("---\nname: 12\ndescription: y\n---\nb\n"), "12");
}

TEST(ManageContentLimits, CharactersNotBytes) {
  const std::string at_limit(limits::k_max_skill_content_chars, 'a');
  EXPECT_EQ(message_of(check_content_chars(at_limit, "SKILL.md")), std::nullopt);
  auto over = message_of(check_content_chars(at_limit + "a", "SKILL.md"));
  ASSERT_TRUE(over);
  EXPECT_EQ(*over,
            "SKILL.md content is 100,001 characters (limit: 100,000). Consider splitting into a smaller SKILL.md "
            "with supporting files in references/.");
  // 60,000 two-byte characters: 120,000 bytes but within the character limit.
  std::string wide;
  for (int i = 0; i < 60000; ++i) {
    wide += "\xC3\xA9";
  }
  EXPECT_EQ(message_of(check_content_chars(wide, "SKILL.md")), std::nullopt);
}

TEST(ManageContentLimits, SupportingFilesAlsoHaveAByteLimit) {
  // 99,000 four-byte characters (396,000 bytes): within both limits. With at
  // most 4 bytes a character, 100,000 characters never reach 1 MiB, so the byte
  // limit is a second fence that the character limit always meets first.
  std::string emoji;
  for (int i = 0; i < 99000; ++i) {
    emoji += "\xF0\x9F\x98\x80";
  }
  EXPECT_EQ(message_of(check_file_content(emoji, "assets/e.txt")), std::nullopt);
  EXPECT_EQ(limits::k_max_skill_file_bytes_written, 1048576U);
  auto over = message_of(check_file_content(std::string(limits::k_max_skill_file_bytes_written + 1, '\xFF'), "assets/b.bin"));
  ASSERT_TRUE(over);
  EXPECT_NE(over->find("assets/b.bin content is 1,048,577 characters"), std::string::npos);
}

TEST(ManageContentLimits, HelpersFormatAsPython) {
  EXPECT_EQ(with_thousands(0), "0");
  EXPECT_EQ(with_thousands(999), "999");
  EXPECT_EQ(with_thousands(1000), "1,000");
  EXPECT_EQ(with_thousands(10485760), "10,485,760");
  EXPECT_EQ(count_chars("a\xC3\xA9\xE2\x80\xA6\xF0\x9F\x98\x80"), 4U);
  EXPECT_EQ(count_chars("\xFF\xC3"), 2U);
  EXPECT_EQ(preview_chars("abcdef", 3, "..."), "abc...");
  EXPECT_EQ(preview_chars("abc", 3, "..."), "abc");
  EXPECT_EQ(preview_chars("\xC3\xA9\xC3\xA9\xC3\xA9", 2, "\xE2\x80\xA6"), "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
  EXPECT_EQ(limits::k_manage_change_preview_chars, 200U);
  EXPECT_EQ(limits::k_manage_description_preview_chars, 120U);
  EXPECT_EQ(limits::k_manage_file_preview_chars, 500U);
}

} // namespace
} // namespace skillrt::core
