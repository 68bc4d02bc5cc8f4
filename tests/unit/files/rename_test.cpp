// The no-replace rename, the durable move, fsync_dir and the one fd type, on a
// real temporary tree.
#include "core/files/rename.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <utility>

#include "core/files/fsync_dir.hpp"
#include "core/files/unique_fd.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RenameNoReplace, MovesIntoAFreeName) {
  TempTree tree;
  tree.write("from/f", "x");
  ASSERT_TRUE(rename_no_replace(tree.path() / "from", tree.path() / "to"));
  EXPECT_EQ(read(tree.path() / "to" / "f"), "x");
  EXPECT_FALSE(fs::exists(tree.path() / "from"));
}

TEST(RenameNoReplace, NeverReplacesAnythingNotEvenAnEmptyFolderOrADanglingLink) {
  TempTree tree;
  tree.write("from/f", "x");
  tree.mkdir("empty");
  tree.symlink("/nonexistent", "dangling");
  tree.write("file", "keep");
  for (const char* target : {"empty", "dangling", "file"}) {
    auto moved = rename_no_replace(tree.path() / "from", tree.path() / target);
    ASSERT_FALSE(moved) << target;
    EXPECT_EQ(moved.error().code, ErrorCode::refused) << target;
    EXPECT_NE(moved.error().message.find("the target exists"), std::string::npos) << moved.error().message;
  }
  EXPECT_EQ(read(tree.path() / "file"), "keep");
  EXPECT_TRUE(fs::is_empty(tree.path() / "empty"));
  EXPECT_TRUE(fs::exists(tree.path() / "from" / "f"));
}

TEST(RenameNoReplace, AMissingSourceIsAnIoError) {
  TempTree tree;
  auto moved = rename_no_replace(tree.path() / "missing", tree.path() / "to");
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().code, ErrorCode::io_error);
}

TEST(MoveDurably, ReplacesOnlyWhenAllowed) {
  TempTree tree;
  tree.write("a", "new");
  tree.write("b", "old");
  ASSERT_FALSE(move_durably(tree.path() / "a", tree.path() / "b", Replace::refuse));
  EXPECT_EQ(read(tree.path() / "b"), "old");
  ASSERT_TRUE(move_durably(tree.path() / "a", tree.path() / "b", Replace::allow));
  EXPECT_EQ(read(tree.path() / "b"), "new");
  tree.mkdir("sub");
  ASSERT_TRUE(move_durably(tree.path() / "b", tree.path() / "sub" / "c", Replace::refuse));
  EXPECT_EQ(read(tree.path() / "sub" / "c"), "new");
}

TEST(FsyncDir, SyncsAFolderAndNamesOneItCannotOpen) {
  TempTree tree;
  EXPECT_TRUE(fsync_dir(tree.path()));
  auto missing = fsync_dir(tree.path() / "missing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::io_error);
  EXPECT_NE(missing.error().message.find("missing"), std::string::npos);
}

TEST(UniqueFd, ClosesOnScopeExitMovesAndReleases) {
  TempTree tree;
  tree.write("f", "x");
  int raw = -1;
  {
    UniqueFd fd(::open((tree.path() / "f").c_str(), O_RDONLY | O_CLOEXEC));
    ASSERT_TRUE(fd);
    raw = fd.get();
    UniqueFd moved = std::move(fd);
    EXPECT_FALSE(fd.valid()); // NOLINT(bugprone-use-after-move): the moved-from state is the point
    EXPECT_EQ(moved.get(), raw);
  }
  EXPECT_EQ(::fcntl(raw, F_GETFD), -1) << "closed when the owner left scope";
  UniqueFd kept(::open((tree.path() / "f").c_str(), O_RDONLY | O_CLOEXEC));
  const int released = kept.release();
  EXPECT_FALSE(kept.valid());
  EXPECT_NE(::fcntl(released, F_GETFD), -1) << "release gives ownership away without closing";
  UniqueFd again(released);
  EXPECT_EQ(again.close(), 0);
  EXPECT_EQ(::fcntl(released, F_GETFD), -1);
}

} // namespace
} // namespace skillrt::core::files
