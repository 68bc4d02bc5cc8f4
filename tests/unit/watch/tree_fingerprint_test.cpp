// The stat sweep's fingerprint (issue 4/6): what it sees and what it leaves out.
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "core/watch/tree_fingerprint.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

TEST(TreeFingerprint, StableWhileNothingChanges) {
  test::TempTree tree;
  tree.write("skills/a/SKILL.md", "---\nname: a\n---\n");
  tree.write("skills/b/references/x.md", "x");
  const auto first = fingerprint_trees({tree.path() / "skills"}, 1000);
  const auto second = fingerprint_trees({tree.path() / "skills"}, 1000);
  EXPECT_EQ(first.value, second.value);
  EXPECT_EQ(first.entries, 5u);  // a, a/SKILL.md, b, b/references, b/references/x.md
  EXPECT_FALSE(first.truncated);
}

TEST(TreeFingerprint, AnEditAddAndRemoveEachChangeIt) {
  test::TempTree tree;
  const fs::path skill = tree.write("skills/a/SKILL.md", "---\nname: a\n---\nold\n");
  const fs::path root = tree.path() / "skills";
  const auto before = fingerprint_trees({root}, 1000).value;

  // The same size, rewritten in place: only the times and ctime differ.
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  tree.write("skills/a/SKILL.md", "---\nname: a\n---\nnew\n");
  const auto edited = fingerprint_trees({root}, 1000).value;
  EXPECT_NE(edited, before);

  tree.write("skills/c/SKILL.md", "---\nname: c\n---\n");
  const auto added = fingerprint_trees({root}, 1000).value;
  EXPECT_NE(added, edited);

  fs::remove_all(root / "c");
  const auto removed = fingerprint_trees({root}, 1000).value;
  EXPECT_NE(removed, added);
  // Back to the same entries: the same fingerprint (the root's own times are
  // left out, or the usage book's every write would count). The sweep keys
  // its events on the change from one fingerprint to the next, so this
  // return is still announced.
  EXPECT_EQ(removed, edited);

  // A mode change alone (chmod) is seen through ctime and mode.
  ::chmod(skill.c_str(), 0600);
  EXPECT_NE(fingerprint_trees({root}, 1000).value, removed);
}

TEST(TreeFingerprint, HiddenNamesAreLeftOut) {
  test::TempTree tree;
  tree.write("skills/a/SKILL.md", "---\nname: a\n---\n");
  const fs::path root = tree.path() / "skills";
  const auto before = fingerprint_trees({root}, 1000);
  // The usage book, the hub's bookkeeping and an editor's swap file change
  // all the time and never change what a skill says.
  tree.write("skills/.usage.json", "{}");
  tree.write("skills/.hub/lock", "");
  tree.write("skills/a/.SKILL.md.swp", "x");
  const auto after = fingerprint_trees({root}, 1000);
  EXPECT_EQ(after.entries, before.entries);
  // The folder holding the swap file changed its own times, so compare a tree
  // whose visible folders are untouched: only the root received hidden names.
  test::TempTree second;
  second.write("skills/a/SKILL.md", "---\nname: a\n---\n");
  const fs::path other = second.path() / "skills";
  const auto quiet = fingerprint_trees({other}, 1000).value;
  second.write("skills/.usage.json", "{}");
  EXPECT_EQ(fingerprint_trees({other}, 1000).value, quiet);
}

TEST(TreeFingerprint, MissingRootsCountAsAbsentAndTheCapIsReported) {
  test::TempTree tree;
  const auto none = fingerprint_trees({tree.path() / "nothing"}, 1000);
  EXPECT_EQ(none.entries, 0u);
  EXPECT_EQ(none.value, fingerprint_trees({tree.path() / "nothing"}, 1000).value);
  tree.write("nothing/a/SKILL.md", "x");
  EXPECT_NE(fingerprint_trees({tree.path() / "nothing"}, 1000).value, none.value) << "a root that appears is a change";

  for (int i = 0; i < 20; ++i) {
    tree.write("many/s" + std::to_string(i) + "/SKILL.md", "x");
  }
  const auto capped = fingerprint_trees({tree.path() / "many"}, 10);
  EXPECT_TRUE(capped.truncated);
  EXPECT_LE(capped.entries, 10u);
}

}  // namespace
}  // namespace skillrt::core

namespace skillrt::core {
namespace {

// The remembering sweeper must see everything the one-off sweep sees, and
// answer the same fingerprint for the same tree.
TEST(TreeSweeper, RemembersListingsYetSeesEveryKindOfChange) {
  test::TempTree tree;
  const fs::path root = tree.path() / "skills";
  tree.write("skills/a/SKILL.md", "---\nname: a\n---\n");
  tree.write("skills/deep/er/still/b/SKILL.md", "---\nname: b\n---\n");
  tree.write("skills/a/references/notes.md", "n");
  TreeSweeper sweeper;
  auto sweep = [&] { return sweeper.fingerprint({root}, 1000).value; };
  std::uint64_t last = sweep();
  EXPECT_EQ(last, fingerprint_trees({root}, 1000).value);
  EXPECT_EQ(sweep(), last) << "nothing changed";

  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  tree.write("skills/deep/er/still/b/SKILL.md", "---\nname: b\n---\nEdited in place.\n");  // no folder moves
  std::uint64_t now = sweep();
  EXPECT_NE(now, last) << "an in-place edit of a SKILL.md deep down";
  EXPECT_EQ(now, fingerprint_trees({root}, 1000).value);
  last = now;

  tree.write("skills/deep/er/still/c/SKILL.md", "---\nname: c\n---\n");
  now = sweep();
  EXPECT_NE(now, last) << "a new skill in a remembered folder";
  EXPECT_EQ(now, fingerprint_trees({root}, 1000).value);
  last = now;

  // A support file replaced by rename (a new inode) is seen; the folder moved too.
  tree.write("skills/a/references/notes.md.new", "m");
  fs::rename(root / "a/references/notes.md.new", root / "a/references/notes.md");
  now = sweep();
  EXPECT_NE(now, last);
  EXPECT_EQ(now, fingerprint_trees({root}, 1000).value);
  last = now;

  fs::remove_all(root / "deep");
  now = sweep();
  EXPECT_NE(now, last) << "a removed subtree";
  EXPECT_EQ(now, fingerprint_trees({root}, 1000).value);
}

}  // namespace
}  // namespace skillrt::core
