#include "core/guard/ignore_rules.hpp"

#include <gtest/gtest.h>

namespace skillrt::core {
namespace {

TEST(GlobMatch, FnmatchSemantics) {
  EXPECT_TRUE(glob_match("*.md", "a.md"));
  EXPECT_TRUE(glob_match("*.md", "dir/a.md")); // "*" crosses "/", as in Python's fnmatch
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_TRUE(glob_match("[ab]x", "bx"));
  EXPECT_FALSE(glob_match("[!ab]x", "bx"));
  EXPECT_TRUE(glob_match("[a-c]x", "cx"));
  EXPECT_TRUE(glob_match("[x", "[x")); // an unclosed class is literal
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "a"));
  EXPECT_TRUE(glob_match("**", ""));
}

TEST(GlobMatch, ManyStarsStayFast) {
  // The backtracking matcher is O(n·m), never exponential.
  const std::string pattern(200, '*');
  EXPECT_FALSE(glob_match(pattern + "b", std::string(20000, 'a')));
}

TEST(IgnoreRules, CommentsAndBlankLines) {
  IgnoreRules rules;
  rules.add_file("# comment\n\n   \n*.log\n");
  EXPECT_TRUE(rules.ignored("x.log", false));
  EXPECT_TRUE(rules.ignored("deep/dir/x.log", false));
  EXPECT_FALSE(rules.ignored("x.md", false));
  EXPECT_FALSE(rules.ignored("# comment", false));
}

TEST(IgnoreRules, DirectoryRules) {
  IgnoreRules rules;
  rules.add_file("build/\n");
  EXPECT_TRUE(rules.ignored("build", true));
  EXPECT_FALSE(rules.ignored("build", false)); // a file named build is not a directory
  EXPECT_TRUE(rules.ignored("build/out.txt", false));
  EXPECT_TRUE(rules.ignored("sub/build/out.txt", false)); // unanchored: inner component
  EXPECT_FALSE(rules.ignored("builder/out.txt", false));
}

TEST(IgnoreRules, AnchoredRules) {
  IgnoreRules rules;
  rules.add_file("/tmp\n/docs/\n");
  EXPECT_TRUE(rules.ignored("tmp", false));
  EXPECT_TRUE(rules.ignored("tmp/x", false));
  EXPECT_FALSE(rules.ignored("sub/tmp", false));
  EXPECT_TRUE(rules.ignored("docs/a.md", false));
  EXPECT_FALSE(rules.ignored("a/docs/a.md", false));
}

TEST(IgnoreRules, PathPatternsAndSegments) {
  IgnoreRules rules;
  rules.add_file("references/*.tmp\nnode_modules\n");
  EXPECT_TRUE(rules.ignored("references/a.tmp", false));
  EXPECT_TRUE(rules.ignored("node_modules/x/y.js", false));
  EXPECT_TRUE(rules.ignored("a/node_modules/y.js", false));
}

TEST(IgnoreRules, SkillMdNeverIgnoredIgnoreFilesAlways) {
  IgnoreRules rules;
  rules.add_file("*\n");
  EXPECT_FALSE(rules.ignored("SKILL.md", false));
  EXPECT_TRUE(rules.ignored("other.md", false));
  IgnoreRules none;
  EXPECT_TRUE(none.ignored(".skillignore", false));
  EXPECT_TRUE(none.ignored(".clawhubignore", false));
  EXPECT_FALSE(none.ignored("sub/.skillignore", false));
}

} // namespace
} // namespace skillrt::core
