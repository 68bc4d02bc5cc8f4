// Folder hashes: the record format, stability, what changes the hash and what
// (runtime caches, empty folders) does not; links and FIFOs never followed.
#include "core/sync/dir_hash.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/sync/copy_tree.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/util/sha256.hpp"
#include "sync_fixture.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

std::string hash_of(const fs::path& dir) {
  auto h = skill_dir_hash(dir);
  EXPECT_TRUE(h) << (h ? "" : h.error().message);
  return h ? *h : std::string();
}

TEST(DirHash, FollowsTheDocumentedRecordFormat) {
  TempTree tree;
  tree.write("s/SKILL.md", "hello");
  tree.write("s/refs/a.md", "");
  using namespace std::string_literals;
  const std::string expected = sha256_hex("f\0SKILL.md\0"s
                                          "5\0hello"s
                                          "f\0refs/a.md\0"s
                                          "0\0"s);
  EXPECT_EQ(hash_of(tree.path() / "s"), expected);
}

// The value the hasher before the filesystem layer (issue 14) gave for this
// tree: manifests on users' disks hold such hashes, so they must not move.
TEST(DirHash, GoldenValueOfTheEarlierHasher) {
  TempTree tree;
  tree.write("g/SKILL.md", "---\nname: g\n---\nbody\n");
  tree.write("g/scripts/run.py", "print(1)\n");
  tree.write("g/scripts.md", "x"); // '.' sorts before '/': path order, not walk order
  tree.write("g/a-b/c.txt", "c");
  tree.write("g/a/b.txt", "");
  tree.write("g/.hidden", "dot");
  tree.write("g/scripts/__pycache__/run.cpython-311.pyc", "bytecode");
  tree.write("g/.DS_Store", "finder");
  tree.symlink("SKILL.md", "g/link");
  EXPECT_EQ(hash_of(tree.path() / "g"), "08d8cf6654c677b86d99a4f6876faef2aacc3beaaf4d79e9cf38270e70ef5b4b");
}

TEST(DirHash, AMissingOrEmptyFolderHashesToNothing) {
  TempTree tree;
  tree.mkdir("empty/sub");
  EXPECT_EQ(hash_of(tree.path() / "missing"), sha256_hex(""));
  EXPECT_EQ(hash_of(tree.path() / "empty"), sha256_hex(""));
}

TEST(DirHash, IsStableAndEqualForACopy) {
  TempTree tree;
  tree.write("s/SKILL.md", "---\nname: s\n---\nbody\n");
  tree.write("s/scripts/run.py", "print(1)\n");
  tree.write("s/assets/logo.bin", std::string("\0\1\2\3", 4));
  const std::string first = hash_of(tree.path() / "s");
  EXPECT_EQ(first.size(), 64U);
  EXPECT_TRUE(is_known_origin_hash(first));
  EXPECT_EQ(hash_of(tree.path() / "s"), first);
  ASSERT_TRUE(copy_skill_tree(tree.path() / "s", tree.path() / "copy"));
  EXPECT_EQ(hash_of(tree.path() / "copy"), first);
}

TEST(DirHash, ChangesWithContentNamesAndNewFiles) {
  TempTree tree;
  tree.write("s/SKILL.md", "body");
  const std::string base = hash_of(tree.path() / "s");
  tree.write("s/SKILL.md", "body!");
  const std::string edited = hash_of(tree.path() / "s");
  EXPECT_NE(edited, base);
  tree.write("s/SKILL.md", "body");
  EXPECT_EQ(hash_of(tree.path() / "s"), base);
  tree.write("s/notes.md", "");
  EXPECT_NE(hash_of(tree.path() / "s"), base);
  fs::rename(tree.path() / "s" / "notes.md", tree.path() / "s" / "other.md");
  const std::string renamed = hash_of(tree.path() / "s");
  fs::remove(tree.path() / "s" / "other.md");
  EXPECT_EQ(hash_of(tree.path() / "s"), base);
  EXPECT_NE(renamed, base);
}

TEST(DirHash, RecordBoundariesKeepDifferentTreesApart) {
  TempTree tree;
  tree.write("one/a", "bc");
  tree.write("two/ab", "c");
  EXPECT_NE(hash_of(tree.path() / "one"), hash_of(tree.path() / "two"));
}

TEST(DirHash, IgnoresRuntimeCachesAndEmptyFolders) {
  TempTree tree;
  tree.write("s/SKILL.md", "body");
  const std::string base = hash_of(tree.path() / "s");
  tree.write("s/scripts/__pycache__/run.cpython-311.pyc", "bytecode");
  tree.write("s/scripts/helper.pyc", "bytecode");
  tree.write("s/.DS_Store", "finder");
  tree.write("s/.pytest_cache/v/cache", "x");
  tree.mkdir("s/empty");
  EXPECT_EQ(hash_of(tree.path() / "s"), base);
}

TEST(DirHash, HashesSymlinksByTargetWithoutFollowing) {
  TempTree tree;
  tree.write("s/SKILL.md", "body");
  tree.write("outside-1", "one");
  tree.write("outside-2", "two");
  tree.symlink(tree.path() / "outside-1", "s/link");
  const std::string first = hash_of(tree.path() / "s");
  tree.write("outside-1", "changed"); // the target's bytes do not count
  EXPECT_EQ(hash_of(tree.path() / "s"), first);
  fs::remove(tree.path() / "s" / "link");
  tree.symlink(tree.path() / "outside-2", "s/link");
  EXPECT_NE(hash_of(tree.path() / "s"), first);
}

TEST(DirHash, NeverOpensAFifo) {
  TempTree tree;
  tree.write("s/SKILL.md", "body");
  ASSERT_EQ(::mkfifo((tree.path() / "s" / "pipe").c_str(), 0600), 0);
  const std::string with_fifo = hash_of(tree.path() / "s"); // would hang if opened
  fs::remove(tree.path() / "s" / "pipe");
  EXPECT_NE(hash_of(tree.path() / "s"), with_fifo);
}

TEST(DirHash, KnownOriginHashesAreSixtyFourLowerHex) {
  EXPECT_TRUE(is_known_origin_hash(std::string(64, 'a')));
  EXPECT_FALSE(is_known_origin_hash(""));
  EXPECT_FALSE(is_known_origin_hash(std::string(32, 'a'))); // a Hermes MD5
  EXPECT_FALSE(is_known_origin_hash(std::string(64, 'A')));
  EXPECT_FALSE(is_known_origin_hash("sha256:" + std::string(57, 'a')));
}

TEST(CopyTree, LeavesOutCachesKeepsLinksAndRefusesFifos) {
  TempTree tree;
  tree.write("s/SKILL.md", "body");
  tree.write("s/__pycache__/x.pyc", "bytecode");
  tree.symlink("SKILL.md", "s/alias.md");
  ASSERT_TRUE(copy_skill_tree(tree.path() / "s", tree.path() / "copy"));
  EXPECT_FALSE(fs::exists(tree.path() / "copy" / "__pycache__"));
  EXPECT_TRUE(fs::is_symlink(tree.path() / "copy" / "alias.md"));
  EXPECT_EQ(fs::read_symlink(tree.path() / "copy" / "alias.md"), "SKILL.md");
  // A FIFO is refused and the partial copy removed.
  ASSERT_EQ(::mkfifo((tree.path() / "s" / "pipe").c_str(), 0600), 0);
  auto copied = copy_skill_tree(tree.path() / "s", tree.path() / "copy2");
  ASSERT_FALSE(copied);
  EXPECT_NE(copied.error().message.find("pipe"), std::string::npos) << copied.error().message;
  EXPECT_FALSE(fs::exists(tree.path() / "copy2"));
  // Never into an existing target.
  EXPECT_FALSE(copy_skill_tree(tree.path() / "s", tree.path() / "copy"));
}

TEST(RemoveTree, RefusesAnythingNotStrictlyInsideTheRoot) {
  TempTree tree;
  const fs::path root = tree.mkdir("home/skills");
  tree.write("home/config.yaml", "x");
  tree.write("home/skills/cat/s/SKILL.md", "x");
  tree.mkdir("outside/victim");
  tree.symlink(tree.path() / "outside", "home/skills/linked");
  for (const fs::path& bad : {root, root / ".", root / "..", tree.path() / "home", fs::path("/"),
                              tree.path() / "outside" / "victim", root / "linked" / "victim", fs::path("relative")}) {
    auto removed = remove_skill_tree(bad, root);
    ASSERT_FALSE(removed) << bad;
    EXPECT_EQ(removed.error().code, ErrorCode::refused);
    EXPECT_NE(removed.error().message.find("refusing to remove"), std::string::npos);
  }
  EXPECT_TRUE(fs::exists(tree.path() / "outside" / "victim"));
  EXPECT_TRUE(fs::exists(tree.path() / "home" / "config.yaml"));
  // A symlink inside goes as a link; its target stays.
  ASSERT_TRUE(remove_skill_tree(root / "linked", root));
  EXPECT_TRUE(fs::exists(tree.path() / "outside" / "victim"));
  ASSERT_TRUE(remove_skill_tree(root / "cat" / "s", root));
  EXPECT_FALSE(fs::exists(root / "cat" / "s"));
  EXPECT_TRUE(fs::exists(root / "cat"));
}

} // namespace
} // namespace skillrt::core::sync
