#include "core/view/file_serving.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "core/limits.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

class FileServing : public ::testing::Test {
protected:
  void SetUp() override {
    m_skill = m_tree.mkdir("skill");
    m_tree.write("skill/SKILL.md", "---\nname: s\n---\n");
    m_tree.write("skill/references/api.md", "# API\n");
    m_tree.write("outside.txt", "secret");
  }
  test::TempTree m_tree;
  std::filesystem::path m_skill;
};

TEST_F(FileServing, ServesTextWithSuffixAndSourcePath) {
  auto served = serve_skill_file(m_skill, "references/api.md", "s");
  ASSERT_TRUE(served) << served.error().error;
  EXPECT_EQ(served->file, "references/api.md");
  EXPECT_EQ(served->content, "# API\n");
  EXPECT_EQ(served->file_type, ".md");
  EXPECT_EQ(served->source_path, m_skill / "references/api.md");
  EXPECT_FALSE(served->is_binary);
}

TEST_F(FileServing, StripsOneBomAndReportsNoSuffixForDotFiles) {
  m_tree.write("skill/.config", "\xEF\xBB\xBFkey=1");
  auto served = serve_skill_file(m_skill, ".config", "s");
  ASSERT_TRUE(served);
  EXPECT_EQ(served->content, "key=1");
  EXPECT_EQ(served->file_type, "");
}

TEST_F(FileServing, RefusesTraversal) {
  auto served = serve_skill_file(m_skill, "references/../../outside.txt", "s");
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().error, "Path traversal ('..') is not allowed.");
  EXPECT_EQ(served.error().hint.value(), std::string(k_file_path_hint));
}

TEST_F(FileServing, RefusesAbsolutePaths) {
  auto served = serve_skill_file(m_skill, (m_tree.path() / "outside.txt").string(), "s");
  ASSERT_FALSE(served);
  EXPECT_NE(served.error().error.find("escapes"), std::string::npos);
}

TEST_F(FileServing, RefusesSymlinkEscapingTheSkill) {
  std::filesystem::create_symlink(m_tree.path() / "outside.txt", m_skill / "references" / "link.md");
  std::filesystem::create_directory_symlink(m_tree.path(), m_skill / "assets");
  for (const char* request : {"references/link.md", "assets/outside.txt"}) {
    auto served = serve_skill_file(m_skill, request, "s");
    ASSERT_FALSE(served) << request;
    EXPECT_NE(served.error().error.find("escapes"), std::string::npos) << served.error().error;
    EXPECT_EQ(served.error().code, ErrorCode::refused);
  }
}

TEST_F(FileServing, SymlinkInsideTheSkillIsServed) {
  std::filesystem::create_symlink(m_skill / "references" / "api.md", m_skill / "alias.md");
  auto served = serve_skill_file(m_skill, "alias.md", "s");
  ASSERT_TRUE(served);
  EXPECT_EQ(served->content, "# API\n");
}

TEST_F(FileServing, MissingFileListsAvailableFiles) {
  m_tree.write("skill/scripts/run.py", "");
  auto served = serve_skill_file(m_skill, "references/nope.md", "myskill");
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().error, "File 'references/nope.md' not found in skill 'myskill'.");
  EXPECT_EQ(served.error().hint.value(), "Use one of the available file paths listed above");
  ASSERT_TRUE(served.error().available_files.has_value());
  const FileGroups& groups = *served.error().available_files;
  ASSERT_EQ(groups.size(), 2U);
  EXPECT_EQ(groups[0].first, "references");
  EXPECT_EQ(groups[1].first, "scripts");
}

TEST_F(FileServing, DirectoryIsNotFound) {
  auto served = serve_skill_file(m_skill, "references", "s");
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().code, ErrorCode::not_found);
}

TEST_F(FileServing, FifoIsNotFoundAndNeverBlocks) {
  ASSERT_EQ(::mkfifo((m_skill / "pipe.md").c_str(), 0600), 0);
  auto served = serve_skill_file(m_skill, "pipe.md", "s");
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().code, ErrorCode::not_found);
}

TEST_F(FileServing, BinaryAndInvalidUtf8AreReportedAsBinary) {
  m_tree.write("skill/assets/logo.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  m_tree.write("skill/assets/latin1.txt", "caf\xE9");
  m_tree.write("skill/assets/nul.txt", std::string("a\0b", 3));
  auto png = serve_skill_file(m_skill, "assets/logo.png", "s");
  ASSERT_TRUE(png);
  EXPECT_TRUE(png->is_binary);
  EXPECT_EQ(png->content, "[Binary file: logo.png, size: 16 bytes]");
  auto latin1 = serve_skill_file(m_skill, "assets/latin1.txt", "s");
  ASSERT_TRUE(latin1);
  EXPECT_TRUE(latin1->is_binary);
  EXPECT_EQ(latin1->content, "[Binary file: latin1.txt, size: 4 bytes]");
  auto nul = serve_skill_file(m_skill, "assets/nul.txt", "s");
  ASSERT_TRUE(nul);
  EXPECT_TRUE(nul->is_binary);
}

TEST_F(FileServing, FilesOverTheSizeCapAreRefused) {
  const auto big = m_tree.write("skill/assets/big.txt", "");
  std::filesystem::resize_file(big, limits::k_max_served_file_bytes + 1); // sparse: cheap
  auto served = serve_skill_file(m_skill, "assets/big.txt", "s");
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().code, ErrorCode::limit_exceeded);
}

TEST(FilePathCheck, RejectsHostileInputBeforeTouchingDisk) {
  EXPECT_FALSE(check_file_path(""));
  EXPECT_FALSE(check_file_path(std::string("a\0b", 3)));
  EXPECT_FALSE(check_file_path("..\\x"));
  EXPECT_FALSE(check_file_path("C:\\x"));
  EXPECT_FALSE(check_file_path(std::string(limits::k_max_path_length + 1, 'a')));
  EXPECT_TRUE(check_file_path("references/a..b.md"));
}

} // namespace
} // namespace skillrt::core
