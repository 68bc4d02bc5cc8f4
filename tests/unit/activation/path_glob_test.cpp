// `paths:` globs as RE2 patterns: each form of the glob language against
// paths that must and must not match.
#include "core/activation/path_glob.hpp"

#include <re2/re2.h>

#include <gtest/gtest.h>

#include <string>

namespace skillrt::test {
namespace {

bool matches(const std::string& glob, const std::string& path) {
  std::string problem;
  const auto regex = core::glob_to_regex(glob, problem);
  EXPECT_TRUE(regex.has_value()) << glob << ": " << problem;
  if (!regex) {
    return false;
  }
  const re2::RE2 compiled(*regex);
  EXPECT_TRUE(compiled.ok()) << glob << " -> " << *regex << ": " << compiled.error();
  return re2::RE2::FullMatch(path, compiled);
}

TEST(PathGlob, StarStaysInsideOneSegment) {
  EXPECT_TRUE(matches("src/*.ts", "src/app.ts"));
  EXPECT_FALSE(matches("src/*.ts", "src/deep/app.ts"));
  EXPECT_FALSE(matches("src/*.ts", "src/app.tsx"));
  EXPECT_TRUE(matches("src/?.c", "src/a.c"));
  EXPECT_FALSE(matches("src/?.c", "src/ab.c"));
}

TEST(PathGlob, DoubleStarSpansFolders) {
  EXPECT_TRUE(matches("src/**/*.ts", "src/app.ts"));
  EXPECT_TRUE(matches("src/**/*.ts", "src/a/b/c/app.ts"));
  EXPECT_FALSE(matches("src/**/*.ts", "lib/a/app.ts"));
  EXPECT_TRUE(matches("**/Dockerfile", "Dockerfile"));
  EXPECT_TRUE(matches("**/Dockerfile", "deploy/web/Dockerfile"));
  EXPECT_TRUE(matches("docs/**", "docs/a/b.md"));
  EXPECT_TRUE(matches("docs/**", "docs"));
  EXPECT_FALSE(matches("docs/**", "documents/a.md"));
}

TEST(PathGlob, NameWithoutSlashMatchesInAnyFolder) {
  EXPECT_TRUE(matches("*.py", "tool.py"));
  EXPECT_TRUE(matches("*.py", "scripts/x/tool.py"));
  EXPECT_FALSE(matches("*.py", "tool.pyc"));
  EXPECT_TRUE(matches("Makefile", "sub/Makefile"));
  // A leading slash anchors at the project root.
  EXPECT_TRUE(matches("/Makefile", "Makefile"));
  EXPECT_FALSE(matches("/Makefile", "sub/Makefile"));
}

TEST(PathGlob, FolderGlobCoversItsContents) {
  EXPECT_TRUE(matches("apps/", "apps/web/index.ts"));
  EXPECT_FALSE(matches("apps/", "lib/apps.ts"));
  EXPECT_TRUE(matches("./apps/", "apps/x"));
}

TEST(PathGlob, BracesAndClasses) {
  EXPECT_TRUE(matches("src/**/*.{ts,tsx}", "src/ui/button.tsx"));
  EXPECT_TRUE(matches("src/**/*.{ts,tsx}", "src/ui/button.ts"));
  EXPECT_FALSE(matches("src/**/*.{ts,tsx}", "src/ui/button.js"));
  EXPECT_TRUE(matches("{a,b{c,d}}.txt", "bd.txt"));
  EXPECT_TRUE(matches("file[0-9].log", "file7.log"));
  EXPECT_FALSE(matches("file[!0-9].log", "file7.log"));
  EXPECT_TRUE(matches("file[!0-9].log", "filex.log"));
}

TEST(PathGlob, RegexCharactersAreLiteral) {
  EXPECT_TRUE(matches("a+b(1).md", "a+b(1).md"));
  EXPECT_FALSE(matches("a+b(1).md", "aab1.md"));
  EXPECT_FALSE(matches("*.md", "notes.mdx"));
  EXPECT_FALSE(matches("x.md", "xamd"));
}

TEST(PathGlob, MalformedGlobsAreProblems) {
  std::string problem;
  EXPECT_FALSE(core::glob_to_regex("src/[abc", problem).has_value());
  EXPECT_NE(problem.find("'['"), std::string::npos);
  EXPECT_FALSE(core::glob_to_regex("src/{a,b", problem).has_value());
  EXPECT_NE(problem.find("'{'"), std::string::npos);
  EXPECT_FALSE(core::glob_to_regex("", problem).has_value());
}

TEST(PathGlob, TouchedPathsAreMadeRelativeToTheProject) {
  EXPECT_EQ(core::normalize_touched_path("/work/proj/src/a.ts", "/work/proj"), "src/a.ts");
  EXPECT_EQ(core::normalize_touched_path("/work/proj/src/a.ts", "/work/proj/"), "src/a.ts");
  EXPECT_EQ(core::normalize_touched_path("/work/project2/a.ts", "/work/proj"), "/work/project2/a.ts");
  EXPECT_EQ(core::normalize_touched_path("./src\\win\\a.ts", "/work/proj"), "src/win/a.ts");
}

}  // namespace
}  // namespace skillrt::test
