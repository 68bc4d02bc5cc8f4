// HOME/users/<uid>: made on first use, owner-only, never through a symlink.
#include "core/tenancy/user_home.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "support/temp_tree.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;

core::Context user_ctx(const fs::path& home, const std::string& user) {
  core::Context ctx;
  ctx.home = home;
  ctx.user_id = user;
  return ctx;
}

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(UserHome, PathsNeedAUserAndCreateNothing) {
  TempTree tree;
  core::Context ctx;
  ctx.home = tree.path();
  EXPECT_FALSE(core::user_home_paths(ctx));
  EXPECT_FALSE(core::ensure_user_home(ctx));
  ctx.user_id = "alice";
  auto paths = core::user_home_paths(ctx);
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->root, tree.path() / "users" / "alice");
  EXPECT_EQ(paths->skills, paths->root / "skills");
  EXPECT_EQ(paths->memory, paths->root / "memory.json");
  EXPECT_EQ(paths->todo, paths->root / "todo.json");
  EXPECT_EQ(paths->tmp, paths->root / "tmp");
  EXPECT_FALSE(fs::exists(tree.path() / "users"));
}

TEST(UserHome, CreatesOwnerOnlyFolders) {
  TempTree tree;
  const fs::path home = tree.path() / "home";  // HOME itself missing too
  auto made = core::ensure_user_home(user_ctx(home, "alice"));
  ASSERT_TRUE(made) << made.error().message;
  for (const fs::path& dir : {home / "users", made->root, made->skills, made->tmp}) {
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    EXPECT_EQ(mode_of(dir) & 077, 0u) << dir;
  }
  EXPECT_FALSE(fs::exists(made->memory));  // files are made by whoever writes them
  // Idempotent, and it tightens a loosened user folder.
  ::chmod(made->root.c_str(), 0755);
  ASSERT_TRUE(core::ensure_user_home(user_ctx(home, "alice")));
  EXPECT_EQ(mode_of(made->root), 0700u);
}

TEST(UserHome, RefusesInvalidIds) {
  TempTree tree;
  for (const char* id : {"..", ".", "a/b", "../../etc", ""}) {
    EXPECT_FALSE(core::ensure_user_home(user_ctx(tree.path(), id))) << id;
  }
  EXPECT_FALSE(fs::exists(tree.path() / "users" / "a"));
  EXPECT_FALSE(fs::exists(tree.path() / "etc"));
}

TEST(UserHome, RefusesASymlinkedUsersFolder) {
  TempTree tree;
  tree.mkdir("elsewhere");
  tree.mkdir("home");
  tree.symlink(tree.path() / "elsewhere", "home/users");
  auto made = core::ensure_user_home(user_ctx(tree.path() / "home", "alice"));
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(tree.path() / "elsewhere" / "alice"));
}

TEST(UserHome, RefusesASymlinkedUserFolderOrSubfolder) {
  TempTree tree;
  tree.mkdir("elsewhere");
  tree.mkdir("home/users");
  tree.symlink(tree.path() / "elsewhere", "home/users/alice");
  auto made = core::ensure_user_home(user_ctx(tree.path() / "home", "alice"));
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(tree.path() / "elsewhere" / "skills"));

  tree.mkdir("home/users/bob");
  tree.symlink(tree.path() / "elsewhere", "home/users/bob/skills");
  EXPECT_FALSE(core::ensure_user_home(user_ctx(tree.path() / "home", "bob")));
}

TEST(UserHome, RefusesAFileInPlaceOfTheFolder) {
  TempTree tree;
  tree.write("home/users/alice", "not a folder");
  auto made = core::ensure_user_home(user_ctx(tree.path() / "home", "alice"));
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code, ErrorCode::refused);
}

}  // namespace
}  // namespace skillrt::test
