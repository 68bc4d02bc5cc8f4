// verify finds every kind of damage, and names the entry.
#include <gtest/gtest.h>

#include "core/ledger/ledger_verify.hpp"
#include "ledger_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using LedgerVerify = test::LedgerFixture;

std::string describe(const LedgerVerifyReport& report) {
  std::string out;
  for (const auto& p : report.problems) {
    out += std::string(ledger_check_name(p.kind)) + " seq " + std::to_string(p.seq) + ": " + p.message + "\n";
  }
  return out;
}

bool has(const LedgerVerifyReport& report, LedgerCheck kind, std::uint64_t seq) {
  for (const auto& p : report.problems) {
    if (p.kind == kind && p.seq == seq) {
      return true;
    }
  }
  return false;
}

TEST_F(LedgerVerify, AnIntactLedgerPasses) {
  append_edits(4);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok()) << describe(report);
  EXPECT_EQ(report.entries, 4U);
  EXPECT_EQ(report.blobs, 5U); // v0..v4
}

TEST_F(LedgerVerify, FindsAnEditedEntry) {
  append_edits(3);
  auto all = lines();
  const std::size_t at = all[1].find("\"note\":\"\"");
  ASSERT_NE(at, std::string::npos);
  all[1].replace(at, 9, "\"note\":\"x\"");
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(has(report, LedgerCheck::edited, 2)) << describe(report);
  EXPECT_EQ(report.problems.size(), 1U) << describe(report);
}

TEST_F(LedgerVerify, FindsAnEditedEntryWhoseHashWasRecomputed) {
  const auto entries = append_edits(3);
  auto edited = *parse_ledger_entry(lines()[1]);
  edited.note = "forged";
  seal_ledger_entry(edited);
  auto all = lines();
  all[1] = render_ledger_entry(edited);
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  // Entry 3 no longer chains onto entry 2.
  EXPECT_TRUE(has(report, LedgerCheck::chain_break, 3)) << describe(report);
}

TEST_F(LedgerVerify, FindsARemovedMiddleEntry) {
  append_edits(4);
  auto all = lines();
  all.erase(all.begin() + 1);
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(has(report, LedgerCheck::chain_break, 3)) << describe(report);
  EXPECT_NE(report.problems[0].message.find("entry 2 was removed"), std::string::npos) << describe(report);
  EXPECT_EQ(report.problems.size(), 1U) << describe(report);
}

TEST_F(LedgerVerify, FindsReorderedEntries) {
  append_edits(3);
  auto all = lines();
  std::swap(all[1], all[2]);
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(has(report, LedgerCheck::chain_break, 3)) << describe(report);
}

TEST_F(LedgerVerify, FindsRemovedLastEntriesThroughTheHead) {
  append_edits(4);
  auto all = lines();
  all.resize(2); // entries 3 and 4 gone; the rest still chains
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(has(report, LedgerCheck::truncated, 4)) << describe(report);
  EXPECT_NE(report.problems[0].message.find("the last entries were removed"), std::string::npos);
  // Appending on top of a truncated ledger is refused rather than hiding it.
  EXPECT_FALSE(append_ledger_entry(m_ledger, change_of(LedgerAction::edit, "s", std::nullopt, std::nullopt)));
}

TEST_F(LedgerVerify, FindsALastLineCutShortBeforeTheHead) {
  append_edits(2);
  auto all = lines();
  all[1] = all[1].substr(0, all[1].size() / 2);
  write_lines(all, /*final_newline=*/false);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(has(report, LedgerCheck::truncated, 2)) << describe(report);
}

TEST_F(LedgerVerify, ATornLineAfterTheHeadIsOnlyANote) {
  append_edits(2);
  write(m_ledger.entries_path(), read(m_ledger.entries_path()) + "{\"seq\":3,\"id\":\"ab");
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok()) << describe(report);
  ASSERT_EQ(report.notes.size(), 1U);
  EXPECT_EQ(report.notes[0].kind, LedgerCheck::torn_tail);
  EXPECT_EQ(report.notes[0].line, 3U);
}

TEST_F(LedgerVerify, FindsACorruptLine) {
  append_edits(3);
  auto all = lines();
  all[1] = "not json";
  write_lines(all);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(has(report, LedgerCheck::corrupt, 2)) << describe(report);
}

TEST_F(LedgerVerify, FindsACorruptAndAMissingBlob) {
  const auto entries = append_edits(2);
  const auto& v1 = entries[0].after->files[0];
  const auto& v2 = entries[1].after->files[0];
  write(ledger_blob_path(m_ledger, v1.sha256), "tampered bytes of another size\n");
  fs::remove(ledger_blob_path(m_ledger, v2.sha256));
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(has(report, LedgerCheck::corrupt_blob, 1)) << describe(report);
  EXPECT_TRUE(has(report, LedgerCheck::missing_blob, 2)) << describe(report);
}

TEST_F(LedgerVerify, AMissingHeadWithEntriesIsAProblem) {
  append_edits(3);
  fs::remove(m_ledger.head_path());
  EXPECT_FALSE(verify_ledger(m_ledger).ok());
}

} // namespace
} // namespace skillrt::core
