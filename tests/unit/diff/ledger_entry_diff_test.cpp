// One ledger entry's diff, read from the ledger's real blobs in a temp home.
#include <gtest/gtest.h>

#include "core/diff/ledger_entry_diff.hpp"
#include "core/ledger/ledger_blobs.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::diff {
namespace {

class LedgerEntryDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_ledger.dir = m_tree.path() / "ledger";
    m_ledger.home = m_tree.path();
    ASSERT_TRUE(ensure_ledger(m_ledger));
  }

  LedgerSnapshot snapshot(const std::vector<LedgerBytes>& files) {
    auto captured = capture_bytes(m_ledger, files);
    EXPECT_TRUE(captured) << captured.error().message;
    return captured.value_or(LedgerSnapshot{});
  }

  test::TempTree m_tree;
  Ledger m_ledger;
};

TEST_F(LedgerEntryDiffTest, AnEditShowsOnlyTheChangedFile) {
  LedgerEntry entry;
  entry.before = snapshot({{"SKILL.md", "---\nname: a\n---\nold line\n", 0644}, {"references/x.md", "same\n", 0644}});
  entry.after = snapshot({{"SKILL.md", "---\nname: a\n---\nnew line\n", 0644}, {"references/x.md", "same\n", 0644}});
  const TreeDiff diff = diff_ledger_entry(m_ledger, entry);
  ASSERT_EQ(diff.files.size(), 1u);
  EXPECT_EQ(diff.files[0].path, "SKILL.md");
  EXPECT_EQ(diff.files[0].change, FileChange::modified);
  EXPECT_EQ(diff.files[0].added_lines, 1u);
  EXPECT_EQ(diff.files[0].removed_lines, 1u);
  EXPECT_NE(diff.text.find("--- a/SKILL.md\n+++ b/SKILL.md\n"), std::string::npos) << diff.text;
  EXPECT_NE(diff.text.find("-old line\n+new line\n"), std::string::npos) << diff.text;
  EXPECT_EQ(diff.text.find("x.md"), std::string::npos);
}

TEST_F(LedgerEntryDiffTest, CreateAndDeleteAndBinaryFiles) {
  LedgerEntry created;
  created.after = snapshot({{"SKILL.md", "hello\n", 0644}, {"assets/logo.bin", std::string("\x89PNG\0\1", 6), 0644}});
  const TreeDiff made = diff_ledger_entry(m_ledger, created);
  ASSERT_EQ(made.files.size(), 2u);
  EXPECT_EQ(made.files[0].path, "SKILL.md");
  EXPECT_EQ(made.files[0].change, FileChange::added);
  EXPECT_NE(made.text.find("--- /dev/null\n+++ b/SKILL.md\n"), std::string::npos) << made.text;
  EXPECT_NE(made.text.find("Binary files /dev/null and b/assets/logo.bin differ"), std::string::npos) << made.text;

  LedgerEntry deleted;
  deleted.before = created.after;
  const TreeDiff gone = diff_ledger_entry(m_ledger, deleted);
  ASSERT_EQ(gone.files.size(), 2u);
  EXPECT_EQ(gone.files[1].change, FileChange::removed);
  EXPECT_NE(gone.text.find("--- a/SKILL.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n"), std::string::npos) << gone.text;
}

TEST_F(LedgerEntryDiffTest, AMissingBlobIsSummarisedNotAnError) {
  LedgerEntry entry;
  entry.before = snapshot({{"SKILL.md", "one\n", 0644}});
  entry.after = snapshot({{"SKILL.md", "two\n", 0644}});
  std::filesystem::remove(ledger_blob_path(m_ledger, entry.before->files[0].sha256));
  const TreeDiff diff = diff_ledger_entry(m_ledger, entry);
  ASSERT_EQ(diff.files.size(), 1u);
  EXPECT_NE(diff.text.find("unreadable; not diffed"), std::string::npos) << diff.text;
}

}  // namespace
}  // namespace skillrt::core::diff
