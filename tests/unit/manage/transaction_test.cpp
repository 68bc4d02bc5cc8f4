#include "core/manage/transaction.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "manage_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using TransactionTest = test::ManageFixture;

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return static_cast<unsigned>(st.st_mode & 07777);
}

TEST_F(TransactionTest, RollbackRestoresBytesAndMode) {
  const fs::path file = skills() / "s" / "SKILL.md";
  write(file, "original\n");
  ::chmod(file.c_str(), 0640);
  FileTransaction transaction;
  ASSERT_TRUE(transaction.write(file, "changed\n"));
  EXPECT_EQ(read(file), "changed\n");
  EXPECT_EQ(mode_of(file), 0640U); // the atomic write keeps the mode
  EXPECT_TRUE(transaction.rollback().empty());
  EXPECT_EQ(read(file), "original\n");
  EXPECT_EQ(mode_of(file), 0640U);
}

TEST_F(TransactionTest, RollbackRemovesNewFilesAndTheFoldersMadeForThem) {
  const fs::path dir = skills() / "s";
  write(dir / "SKILL.md", "x");
  const fs::path file = dir / "references" / "deep" / "new.md";
  FileTransaction transaction;
  ASSERT_TRUE(transaction.make_parents(file, dir));
  ASSERT_TRUE(transaction.write(file, "new"));
  EXPECT_EQ(mode_of(file), 0644U);
  EXPECT_TRUE(transaction.rollback().empty());
  EXPECT_FALSE(fs::exists(dir / "references"));
  EXPECT_TRUE(fs::exists(dir / "SKILL.md"));
}

TEST_F(TransactionTest, RollbackBringsBackARemovedFile) {
  const fs::path file = skills() / "s" / "scripts" / "run.sh";
  write(file, "#!/bin/sh\necho hi\n");
  ::chmod(file.c_str(), 0755);
  FileTransaction transaction;
  ASSERT_TRUE(transaction.remove(file));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(transaction.rollback().empty());
  EXPECT_EQ(read(file), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(mode_of(file), 0755U);
}

TEST_F(TransactionTest, CommitKeepsTheChanges) {
  const fs::path file = skills() / "s" / "SKILL.md";
  write(file, "original\n");
  FileTransaction transaction;
  ASSERT_TRUE(transaction.write(file, "changed\n"));
  transaction.commit();
  EXPECT_TRUE(transaction.rollback().empty());
  EXPECT_EQ(read(file), "changed\n");
}

TEST_F(TransactionTest, AFailedWriteChangesNothing) {
  const fs::path dir = skills() / "s";
  fs::create_directories(dir / "SKILL.md"); // a folder where the file should be
  FileTransaction transaction;
  EXPECT_FALSE(transaction.write(dir / "SKILL.md", "x"));
  EXPECT_TRUE(fs::is_directory(dir / "SKILL.md"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

} // namespace
} // namespace skillrt::core
