#include "core/view/linked_files.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/limits.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

using Files = std::vector<std::string>;

TEST(LinkedFiles, GroupsExtensionsRecursionAndOrder) {
  test::TempTree tree;
  tree.write("SKILL.md", "---\nname: s\n---\n");
  tree.write("references/b.md", "");
  tree.write("references/a.md", "");
  tree.write("references/notes.txt", ""); // not *.md
  tree.write("references/deep/c.md", ""); // references are not recursive
  tree.write("templates/t.yaml", "");
  tree.write("templates/sub/deeper/x.tex", ""); // templates are recursive
  tree.write("templates/skip.bin", "");
  tree.write("assets/logo.png", "");
  tree.write("assets/fonts/f.ttf", "");
  tree.write("scripts/run.sh", "");
  tree.write("scripts/tool.rb", "");
  tree.write("scripts/lib/inner.py", ""); // scripts are not recursive
  tree.write("scripts/README.md", "");    // not a script extension
  tree.write("other/ignored.md", "");
  const FileGroups groups = collect_linked_files(tree.path());
  ASSERT_EQ(groups.size(), 4U);
  EXPECT_EQ(groups[0].first, "references");
  EXPECT_EQ(groups[0].second, (Files{"references/a.md", "references/b.md"}));
  EXPECT_EQ(groups[1].first, "templates");
  EXPECT_EQ(groups[1].second, (Files{"templates/sub/deeper/x.tex", "templates/t.yaml"}));
  EXPECT_EQ(groups[2].first, "assets");
  EXPECT_EQ(groups[2].second, (Files{"assets/fonts/f.ttf", "assets/logo.png"}));
  EXPECT_EQ(groups[3].first, "scripts");
  EXPECT_EQ(groups[3].second, (Files{"scripts/run.sh", "scripts/tool.rb"}));
}

TEST(LinkedFiles, EmptyGroupsAreOmittedAndNoneMeansEmpty) {
  test::TempTree tree;
  tree.write("SKILL.md", "x");
  tree.mkdir("references");
  EXPECT_TRUE(collect_linked_files(tree.path()).empty());
  tree.write("scripts/a.py", "");
  const FileGroups groups = collect_linked_files(tree.path());
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].first, "scripts");
}

TEST(LinkedFiles, RuntimeCachesAreNeverOffered) {
  // What running a skill leaves behind is not a file of the skill: the listing
  // (and the MCP resources and Skills-extension digests built on it) stays the
  // same before and after a script run.
  test::TempTree tree;
  tree.write("SKILL.md", "x");
  tree.write("scripts/run.py", "");
  tree.write("assets/logo.png", "");
  const FileGroups before = collect_linked_files(tree.path());
  tree.write("scripts/__pycache__/run.cpython-311.pyc", "");
  tree.write("assets/__pycache__/x.pyc", "");
  tree.write("assets/.DS_Store", "");
  tree.write("assets/stale.pyc", "");
  tree.write("templates/.pytest_cache/v/cache/nodeids", "");
  EXPECT_EQ(collect_linked_files(tree.path()), before);
  for (const auto& [group, files] : available_skill_files(tree.path())) {
    for (const std::string& file : files) {
      EXPECT_EQ(file.find("cache"), std::string::npos) << file;
      EXPECT_EQ(file.find(".pyc"), std::string::npos) << file;
    }
  }
}

TEST(LinkedFiles, LinksEscapingTheSkillAreNotOffered) {
  test::TempTree tree;
  tree.write("skill/SKILL.md", "x");
  tree.write("skill/references/ok.md", "ok");
  tree.write("secret.md", "secret");
  tree.mkdir("outside-dir");
  tree.write("outside-dir/x.md", "x");
  std::filesystem::create_symlink(tree.path() / "secret.md", tree.path() / "skill/references/leak.md");
  std::filesystem::create_symlink(tree.path() / "skill/references/ok.md", tree.path() / "skill/references/alias.md");
  std::filesystem::create_directory_symlink(tree.path() / "outside-dir", tree.path() / "skill/templates");
  std::filesystem::create_symlink(tree.path() / "secret.md", tree.path() / "skill/other.md");
  const FileGroups linked = collect_linked_files(tree.path() / "skill");
  ASSERT_EQ(linked.size(), 1U);
  EXPECT_EQ(linked[0].second, (Files{"references/alias.md", "references/ok.md"}));
  const FileGroups available = available_skill_files(tree.path() / "skill");
  ASSERT_EQ(available.size(), 1U);
  EXPECT_EQ(available[0].first, "references");
  EXPECT_EQ(available[0].second, (Files{"references/alias.md", "references/ok.md"}));
}

TEST(LinkedFiles, SymlinkLoopInAssetsTerminates) {
  test::TempTree tree;
  tree.write("assets/a.txt", "");
  std::filesystem::create_directory_symlink(tree.path() / "assets", tree.path() / "assets" / "loop");
  const FileGroups groups = collect_linked_files(tree.path());
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].second, (Files{"assets/a.txt"}));
}

TEST(LinkedFiles, EntriesPerListingAreBounded) {
  test::TempTree tree;
  tree.mkdir("assets");
  for (std::size_t i = 0; i < limits::k_max_linked_files + 50; ++i) {
    std::ofstream(tree.path() / "assets" / ("f" + std::to_string(i)));
  }
  const FileGroups groups = collect_linked_files(tree.path());
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].second.size(), limits::k_max_linked_files);
  const FileGroups available = available_skill_files(tree.path());
  ASSERT_EQ(available.size(), 1U);
  EXPECT_LE(available[0].second.size(), limits::k_max_linked_files);
}

TEST(AvailableFiles, GroupsByTopDirectoryWithOtherAndSkipsDotDirs) {
  test::TempTree tree;
  tree.write("SKILL.md", "x");
  tree.write("references/r.txt", ""); // any file under a support dir counts
  tree.write("scripts/s.py", "");
  tree.write("README.md", "");
  tree.write("src/main.py", "");
  tree.write("image.png", "");         // unknown extension outside support dirs: skipped
  tree.write(".hidden/secret.md", ""); // dot-directory: skipped
  tree.write(".env", "");
  tree.write("nested/SKILL.md", ""); // SKILL.md anywhere: skipped
  const FileGroups groups = available_skill_files(tree.path());
  ASSERT_EQ(groups.size(), 3U);
  EXPECT_EQ(groups[0].first, "references");
  EXPECT_EQ(groups[0].second, (Files{"references/r.txt"}));
  EXPECT_EQ(groups[1].first, "scripts");
  EXPECT_EQ(groups[2].first, "other");
  EXPECT_EQ(groups[2].second, (Files{"README.md", "src/main.py"}));
}

} // namespace
} // namespace skillrt::core
