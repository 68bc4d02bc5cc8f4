// The one containment rule: a path is readable only while its real path stays
// inside the real path of its folder; a link out is refused, a link within is fine.
#include "core/files/containment.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "unit/config/temp_dir.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(Containment, PlainFileInsideResolvesToItsRealPath) {
  TempDir tmp;
  tmp.write("skill/references/a.md", "a");
  auto resolved = resolve_inside(tmp.path() / "skill", "references/a.md");
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(*resolved, fs::canonical(tmp.path() / "skill/references/a.md"));
  EXPECT_TRUE(stays_inside(tmp.path() / "skill", tmp.path() / "skill/references/a.md"));
}

TEST(Containment, LinkOutOfTheFolderIsRefused) {
  TempDir tmp;
  tmp.write("secret.txt", "s");
  tmp.write("skill/SKILL.md", "x");
  fs::create_symlink(tmp.path() / "secret.txt", tmp.path() / "skill/leak.md");
  fs::create_directory_symlink(tmp.path(), tmp.path() / "skill/assets");
  auto file = resolve_inside(tmp.path() / "skill", "leak.md");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, ErrorCode::refused);
  EXPECT_NE(file.error().message.find("escapes"), std::string::npos) << file.error().message;
  auto through_dir = resolve_inside(tmp.path() / "skill", "assets/secret.txt");
  ASSERT_FALSE(through_dir);
  EXPECT_EQ(through_dir.error().code, ErrorCode::refused);
  EXPECT_FALSE(stays_inside(tmp.path() / "skill", tmp.path() / "skill/leak.md"));
  EXPECT_FALSE(stays_inside(tmp.path() / "skill", tmp.path() / "skill/assets/secret.txt"));
}

TEST(Containment, LinkWithinTheFolderIsFine) {
  TempDir tmp;
  tmp.write("skill/docs/real.md", "r");
  fs::create_symlink(tmp.path() / "skill/docs/real.md", tmp.path() / "skill/alias.md");
  auto resolved = resolve_inside(tmp.path() / "skill", "alias.md");
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(*resolved, fs::canonical(tmp.path() / "skill/docs/real.md"));
}

TEST(Containment, SiblingWithACommonPrefixIsOutside) {
  TempDir tmp;
  tmp.write("skill-evil/x.md", "x");
  fs::create_directories(tmp.path() / "skill");
  fs::create_symlink(tmp.path() / "skill-evil/x.md", tmp.path() / "skill/x.md");
  EXPECT_FALSE(resolve_inside(tmp.path() / "skill", "x.md"));
}

TEST(Containment, EntryFileMustStayInItsSkillFolder) {
  TempDir tmp;
  tmp.write("outside.txt", "o");
  tmp.write("root/sibling/body.md", "b");
  tmp.write("root/ok/body.md", "---\nname: ok\n---\n");
  fs::create_directories(tmp.path() / "root/bad");
  fs::create_directories(tmp.path() / "root/near");
  fs::create_symlink(tmp.path() / "outside.txt", tmp.path() / "root/bad/SKILL.md");
  fs::create_symlink(tmp.path() / "root/sibling/body.md", tmp.path() / "root/near/SKILL.md");
  fs::create_symlink("body.md", tmp.path() / "root/ok/SKILL.md");
  auto bad = resolve_entry_file(tmp.path() / "root/bad/SKILL.md");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::refused);
  EXPECT_NE(bad.error().message.find("outside"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(resolve_entry_file(tmp.path() / "root/near/SKILL.md"));  // another skill's file is outside too
  auto ok = resolve_entry_file(tmp.path() / "root/ok/SKILL.md");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, fs::canonical(tmp.path() / "root/ok/body.md"));
}

TEST(Containment, MissingFolderIsAnIoErrorAndNeverInside) {
  TempDir tmp;
  auto resolved = resolve_inside(tmp.path() / "gone", "SKILL.md");
  ASSERT_FALSE(resolved);
  EXPECT_EQ(resolved.error().code, ErrorCode::io_error);
  EXPECT_FALSE(stays_inside(tmp.path() / "gone", tmp.path() / "gone/SKILL.md"));
}

}  // namespace
}  // namespace skillrt::core
