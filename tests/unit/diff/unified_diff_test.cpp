// Unified diffs between skill folders: hunks with context, added / removed /
// binary files, and the bounds.
#include <gtest/gtest.h>

#include "core/diff/unified_diff.hpp"
#include "core/limits.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::diff {
namespace {

using test::TempTree;

TEST(UnifiedDiff, OneChangedLineWithThreeLinesOfContext) {
  std::size_t added = 0;
  std::size_t removed = 0;
  const std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string b = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_hunks(a, b, 3, added, removed), "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
  EXPECT_EQ(added, 1u);
  EXPECT_EQ(removed, 1u);
}

TEST(UnifiedDiff, FarApartChangesMakeTwoHunks) {
  std::string a;
  for (int i = 1; i <= 30; ++i) {
    a += std::to_string(i) + "\n";
  }
  std::string b = a;
  b.replace(b.find("\n2\n") + 1, 1, "two");
  b.replace(b.find("\n28\n") + 1, 2, "twenty-eight");
  std::size_t added = 0;
  std::size_t removed = 0;
  const std::string diff = unified_hunks(a, b, 3, added, removed);
  EXPECT_EQ(std::count(diff.begin(), diff.end(), '@'), 8); // two "@@ ... @@" headers
  EXPECT_NE(diff.find("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find("-28\n+twenty-eight\n"), std::string::npos) << diff;
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  std::size_t added = 0;
  std::size_t removed = 0;
  const std::string diff = unified_hunks("a\n", "a\nb", 3, added, removed);
  EXPECT_EQ(diff, "@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, TreesReportAddedRemovedModifiedAndBinary) {
  TempTree tree;
  tree.write("old/SKILL.md", "title\nold line\n");
  tree.write("old/gone.md", "bye\n");
  tree.write("old/same.md", "same\n");
  tree.write("old/blob.bin", std::string("a\0b", 3));
  tree.write("new/SKILL.md", "title\nnew line\n");
  tree.write("new/added.md", "hello\n");
  tree.write("new/same.md", "same\n");
  tree.write("new/blob.bin", std::string("a\0c", 3));
  const TreeDiff diff = diff_trees(tree.path() / "old", tree.path() / "new");
  ASSERT_EQ(diff.files.size(), 4u);
  EXPECT_EQ(diff.files[0].path, "SKILL.md");
  EXPECT_EQ(diff.files[0].change, FileChange::modified);
  EXPECT_EQ(diff.files[1].path, "added.md");
  EXPECT_EQ(diff.files[1].change, FileChange::added);
  EXPECT_EQ(diff.files[2].path, "blob.bin");
  EXPECT_EQ(diff.files[2].change, FileChange::binary);
  EXPECT_EQ(diff.files[3].path, "gone.md");
  EXPECT_EQ(diff.files[3].change, FileChange::removed);
  EXPECT_NE(diff.text.find("--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,2 +1,2 @@\n title\n-old line\n+new line\n"),
            std::string::npos)
      << diff.text;
  EXPECT_NE(diff.text.find("--- /dev/null\n+++ b/added.md\n@@ -0,0 +1 @@\n+hello\n"), std::string::npos) << diff.text;
  EXPECT_NE(diff.text.find("--- a/gone.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"), std::string::npos) << diff.text;
  EXPECT_NE(diff.text.find("Binary files a/blob.bin and b/blob.bin differ"), std::string::npos);
  EXPECT_FALSE(diff.truncated);
}

TEST(UnifiedDiff, HugeFilesAreSummarised) {
  TempTree tree;
  tree.write("old/big.md", std::string(limits::k_max_diff_file_bytes + 1, 'x'));
  tree.write("new/big.md", "small\n");
  const TreeDiff diff = diff_trees(tree.path() / "old", tree.path() / "new");
  ASSERT_EQ(diff.files.size(), 1u);
  EXPECT_NE(diff.text.find("not diffed"), std::string::npos);
}

TEST(UnifiedDiff, ManyChangedLinesPastTheCellCapAreSummarised) {
  std::string a;
  std::string b;
  for (int i = 0; i < 3000; ++i) {
    a += "a" + std::to_string(i) + "\n";
    b += "b" + std::to_string(i) + "\n";
  }
  std::size_t added = 0;
  std::size_t removed = 0;
  const std::string diff = unified_hunks(a, b, 3, added, removed);
  EXPECT_NE(diff.find("too large to diff"), std::string::npos);
  EXPECT_EQ(added, 3000u);
}

} // namespace
} // namespace skillrt::core::diff
