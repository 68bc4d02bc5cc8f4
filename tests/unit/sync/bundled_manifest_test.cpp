// The bundled manifest file: v1/v2 lines, blank lines, the first-colon split,
// sorted atomic writes that keep the mode, and refusals of corrupt files.
#include "core/sync/bundled_manifest.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/limits.hpp"
#include "sync_fixture.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::TempTree;
using test::write_text;

TEST(BundledManifest, ReadsV2LinesAsNameAndHash) {
  const BundledManifest m = parse_bundled_manifest("alpha:abc\nbeta:def\n");
  EXPECT_EQ(m, (BundledManifest{{"alpha", "abc"}, {"beta", "def"}}));
}

TEST(BundledManifest, ReadsV1LinesWithAnEmptyHash) {
  const BundledManifest m = parse_bundled_manifest("alpha\nbeta:def\ngamma");
  EXPECT_EQ(m, (BundledManifest{{"alpha", ""}, {"beta", "def"}, {"gamma", ""}}));
}

TEST(BundledManifest, IgnoresBlankLinesAndStripsBlanksAndCarriageReturns) {
  const BundledManifest m = parse_bundled_manifest("\n  \n alpha : abc \r\n\t\nbeta:def\r\n\n");
  EXPECT_EQ(m, (BundledManifest{{"alpha", "abc"}, {"beta", "def"}}));
}

TEST(BundledManifest, SplitsAtTheFirstColonOnly) {
  const BundledManifest m = parse_bundled_manifest("alpha:sha256:abc:def\n");
  EXPECT_EQ(m, (BundledManifest{{"alpha", "sha256:abc:def"}}));
}

TEST(BundledManifest, IgnoresEmptyNamesAndKeepsTheLastLineOfAName) {
  const BundledManifest m = parse_bundled_manifest(":orphan\nalpha:one\nalpha:two\n");
  EXPECT_EQ(m, (BundledManifest{{"alpha", "two"}}));
}

TEST(BundledManifest, FormatsSortedByName) {
  const BundledManifest m{{"zeta", "1"}, {"alpha", ""}, {"Beta", "2"}};
  EXPECT_EQ(format_bundled_manifest(m), "Beta:2\nalpha:\nzeta:1\n");
}

TEST(BundledManifest, RoundTripsThroughTheFile) {
  TempTree tree;
  const fs::path path = tree.path() / ".bundled_manifest";
  const BundledManifest m{{"b", std::string(64, 'a')}, {"a", ""}, {"c", "x:y"}};
  ASSERT_TRUE(write_bundled_manifest(path, m));
  EXPECT_EQ(read_text(path), "a:\nb:" + std::string(64, 'a') + "\nc:x:y\n");
  auto back = read_bundled_manifest(path);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, m);
}

TEST(BundledManifest, AMissingFileIsAnEmptyManifest) {
  TempTree tree;
  auto m = read_bundled_manifest(tree.path() / "nothing");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->empty());
}

TEST(BundledManifest, WritingKeepsTheFileMode) {
  TempTree tree;
  const fs::path path = tree.write(".bundled_manifest", "a:1\n");
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  ASSERT_TRUE(write_bundled_manifest(path, {{"b", "2"}}));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644U);
  EXPECT_EQ(read_text(path), "b:2\n");
  // Nothing but the manifest: the temp file was renamed, not left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(tree.path()), fs::directory_iterator()), 1);
}

TEST(BundledManifest, RefusesAFileLargerThanTheLimit) {
  TempTree tree;
  const fs::path path = tree.write(".bundled_manifest", std::string(limits::k_max_hub_state_bytes + 1, 'a'));
  auto m = read_bundled_manifest(path);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(m.error().message.find("k_max_hub_state_bytes"), std::string::npos) << m.error().message;
}

TEST(BundledManifest, RefusesBinaryOrNonUtf8Content) {
  TempTree tree;
  for (const std::string& bad : {std::string("a:1\n\xff\xfe\n"), std::string("a:1\n\0b:2\n", 9)}) {
    const fs::path path = tree.write(".bundled_manifest", bad);
    auto m = read_bundled_manifest(path);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(m.error().message.find("corrupt"), std::string::npos) << m.error().message;
  }
}

TEST(BundledManifest, RefusesADirectoryOrASymlink) {
  TempTree tree;
  tree.mkdir("dir/.bundled_manifest");
  EXPECT_FALSE(read_bundled_manifest(tree.path() / "dir" / ".bundled_manifest"));
  tree.write("elsewhere", "a:1\n");
  tree.symlink(tree.path() / "elsewhere", "link/.bundled_manifest");
  auto linked = read_bundled_manifest(tree.path() / "link" / ".bundled_manifest");
  ASSERT_FALSE(linked);
  EXPECT_NE(linked.error().message.find("symlink"), std::string::npos);
}

TEST(BundledManifest, WriteRefusesNamesThatWouldNotReadBack) {
  TempTree tree;
  const fs::path path = tree.path() / ".bundled_manifest";
  for (const std::string& bad : {std::string("a:b"), std::string(" a"), std::string("a\nb"), std::string("")}) {
    auto written = write_bundled_manifest(path, {{bad, "1"}});
    EXPECT_FALSE(written) << bad;
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(write_bundled_manifest(path, {{"a", "1\n2"}}));
  EXPECT_TRUE(is_manifest_safe_name("using-skillrt"));
  EXPECT_FALSE(is_manifest_safe_name("a\tb"));
}

} // namespace
} // namespace skillrt::core::sync
