#include "core/manage/file_path_rules.hpp"

#include <gtest/gtest.h>

#include "manage_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

TEST(ManageFilePath, AcceptsAllowedFoldersAndSkillMd) {
  auto ok = check_manage_file_path("references/api.md");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->rel, "references/api.md");
  EXPECT_FALSE(ok->is_skill_md);
  EXPECT_EQ(check_manage_file_path("scripts//./run.sh")->rel, "scripts/run.sh");
  EXPECT_TRUE(check_manage_file_path("SKILL.md")->is_skill_md);
  EXPECT_TRUE(check_manage_file_path("my-skill/SKILL.md")->is_skill_md);
  EXPECT_TRUE(check_manage_file_path("assets/deep/nested/x.png"));
}

TEST(ManageFilePath, RefusesEverythingElse) {
  EXPECT_EQ(check_manage_file_path("").error().message, "file_path is required.");
  EXPECT_EQ(check_manage_file_path("references/../SKILL.md").error().message, "Path traversal ('..') is not allowed.");
  EXPECT_EQ(check_manage_file_path("..\\x").error().message, "Path traversal ('..') is not allowed.");
  EXPECT_NE(check_manage_file_path("/etc/passwd").error().message.find("relative"), std::string::npos);
  EXPECT_TRUE(check_manage_file_path(std::string("references/a\0b", 14)).error().message.find("NUL") !=
              std::string::npos);
  EXPECT_EQ(check_manage_file_path("notes/x.md").error().message,
            "File must be under one of: references, templates, scripts, assets. Got: 'notes/x.md'");
  EXPECT_EQ(check_manage_file_path("references").error().message,
            "Provide a file path, not just a directory. Example: 'references/myfile.md'");
  EXPECT_FALSE(check_manage_file_path("a/b/SKILL.md")); // three components: not a SKILL.md form
  EXPECT_EQ(check_manage_file_path(std::string(5000, 'a')).error().code, ErrorCode::limit_exceeded);
}

using ManageContainment = test::ManageFixture;

TEST_F(ManageContainment, SymlinkOutOfTheSkillEscapes) {
  const fs::path dir = skills() / "s";
  write(dir / "SKILL.md", skill_text("s"));
  fs::create_directories(m_root / "outside");
  fs::create_directory_symlink(m_root / "outside", dir / "references");
  auto escaped = resolve_inside_skill(dir, "references/x.md");
  ASSERT_FALSE(escaped);
  EXPECT_NE(escaped.error().message.find("escapes"), std::string::npos);
  auto inside = resolve_inside_skill(dir, "templates/new/t.md");
  ASSERT_TRUE(inside);
  EXPECT_EQ(*inside, fs::canonical(dir) / "templates/new/t.md");
}

TEST_F(ManageContainment, ListsFilesOfTheAllowedFoldersOnly) {
  const fs::path dir = skills() / "s";
  write(dir / "SKILL.md", skill_text("s"));
  write(dir / "references" / "b.md", "b");
  write(dir / "scripts" / "sub" / "a.sh", "a");
  write(dir / "other" / "c.md", "c");
  EXPECT_EQ(files_in_allowed_subdirs(dir), (std::vector<std::string>{"references/b.md", "scripts/sub/a.sh"}));
}

} // namespace
} // namespace skillrt::core
