// Appending: the chain, the head, list and find, concurrent appenders, and
// what a crash mid-append leaves.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <set>
#include <thread>

#include "core/ledger/ledger_verify.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "ledger_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using LedgerAppend = test::LedgerFixture;

TEST_F(LedgerAppend, EntriesChainOntoEachOther) {
  const auto entries = append_edits(3);
  ASSERT_EQ(entries.size(), 3U);
  EXPECT_EQ(entries[0].seq, 1U);
  EXPECT_EQ(entries[0].prev, "");
  for (std::size_t i = 1; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].seq, i + 1);
    EXPECT_EQ(entries[i].prev, entries[i - 1].hash);
    // Each edit's before is the previous one's after.
    EXPECT_EQ(entries[i].before->hash, entries[i - 1].after->hash);
  }
  EXPECT_EQ(read(m_ledger.head_path()), "{\"seq\":3,\"hash\":\"" + entries[2].hash + "\",\"size\":" +
                                            std::to_string(fs::file_size(m_ledger.entries_path())) + "}\n");
  auto listed = list_ledger(m_ledger);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 3U);
  EXPECT_EQ(listed->back().hash, entries[2].hash);
  EXPECT_TRUE(verify_ledger(m_ledger).ok());
  // Owner-only.
  struct stat st {};
  ASSERT_EQ(::stat(m_ledger.dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700U);
}

TEST_F(LedgerAppend, SnapshotsStoreEveryFileOnceAsABlob) {
  const auto dir = make_skill("s", "body\n");
  write(dir / "scripts" / "run.sh", "#!/bin/sh\necho hi\n");
  ::chmod((dir / "scripts" / "run.sh").c_str(), 0755);
  write(dir / "scripts" / "__pycache__" / "x.pyc", "cache"); // a runtime cache is no content
  const LedgerSnapshot snapshot = capture(dir);
  ASSERT_EQ(snapshot.files.size(), 2U);
  EXPECT_EQ(snapshot.files[0].path, "SKILL.md");
  EXPECT_EQ(snapshot.files[1].path, "scripts/run.sh");
  EXPECT_EQ(snapshot.files[1].mode, 0755U);
  EXPECT_EQ(snapshot.hash, ledger_content_hash(snapshot.files));
  // The hub's manifest text: "<sha>  <path>\n" per file.
  const std::string manifest =
      snapshot.files[0].sha256 + "  SKILL.md\n" + snapshot.files[1].sha256 + "  scripts/run.sh\n";
  EXPECT_EQ(snapshot.hash, "sha256:" + sha256_hex(manifest));
  for (const LedgerFile& file : snapshot.files) {
    EXPECT_EQ(read(ledger_blob_path(m_ledger, file.sha256)), read(dir / file.path));
  }
  // A second capture writes nothing new; the bytes of a capture_bytes agree.
  EXPECT_EQ(capture(dir).hash, snapshot.hash);
  auto bytes = capture_bytes(
      m_ledger, {{"scripts/run.sh", read(dir / "scripts/run.sh"), 0755}, {"SKILL.md", read(dir / "SKILL.md"), 0644}});
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->hash, snapshot.hash);
  EXPECT_EQ(capture_bytes(m_ledger, {{"../x", "", 0644}}).error().code, ErrorCode::invalid_argument);
}

TEST_F(LedgerAppend, ASymlinkInTheSkillIsNotCaptured) {
  const auto dir = make_skill("s", "body\n");
  fs::create_symlink("/etc/passwd", dir / "link");
  EXPECT_EQ(capture_folder(m_ledger, dir).error().code, ErrorCode::refused);
}

TEST_F(LedgerAppend, ListFiltersBySkillAndFindTakesAPrefix) {
  const auto entries = append_edits(2);
  const auto other = make_skill("other", "x\n");
  const LedgerEntry created = append(change_of(LedgerAction::create, "other", std::nullopt, capture(other)));
  auto only = list_ledger(m_ledger, "other");
  ASSERT_TRUE(only);
  ASSERT_EQ(only->size(), 1U);
  EXPECT_EQ(only->front().id, created.id);
  auto found = find_ledger_entry(m_ledger, entries[1].id.substr(0, 8));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->seq, 2U);
  EXPECT_EQ(find_ledger_entry(m_ledger, "abc").error().code, ErrorCode::invalid_argument); // k_min_ledger_id_prefix
  EXPECT_EQ(limits::k_min_ledger_id_prefix, 4U);
  EXPECT_EQ(find_ledger_entry(m_ledger, "ZZZZ").error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(find_ledger_entry(m_ledger, "0000000000000").error().code, ErrorCode::not_found);
  // A missing ledger is empty.
  Ledger none{m_home / "nowhere", m_home, ""};
  EXPECT_TRUE(list_ledger(none)->empty());
  EXPECT_TRUE(verify_ledger(none).ok());
}

TEST_F(LedgerAppend, ConcurrentAppendersKeepTheChain) {
  const auto dir = make_skill("s", "v\n");
  const LedgerSnapshot snapshot = capture(dir);
  constexpr int k_threads = 4;
  constexpr int k_each = 10;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(k_threads);
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < k_each; ++i) {
        LedgerChange change = change_of(LedgerAction::edit, "s", snapshot, snapshot);
        change.note = std::to_string(t) + "/" + std::to_string(i);
        if (auto appended = append_ledger_entry(m_ledger, change); !appended) {
          errors[t] = appended.error().message;
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (const auto& error : errors) {
    EXPECT_EQ(error, "");
  }
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok()) << (report.problems.empty() ? "" : report.problems[0].message);
  EXPECT_TRUE(report.notes.empty());
  EXPECT_EQ(report.entries, static_cast<std::uint64_t>(k_threads * k_each));
  auto listed = list_ledger(m_ledger);
  std::set<std::string> notes;
  for (const auto& entry : *listed) {
    notes.insert(entry.note);
  }
  EXPECT_EQ(notes.size(), static_cast<std::size_t>(k_threads * k_each));
}

TEST_F(LedgerAppend, ATornLastLineIsANoteAndTheNextAppendCutsIt) {
  append_edits(2);
  const std::string committed = read(m_ledger.entries_path());
  // An append killed mid-write: half a line, no newline, head untouched.
  const std::string torn = lines()[1].substr(0, 40);
  write(m_ledger.entries_path(), committed + torn);
  LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok()) << report.problems[0].message;
  ASSERT_EQ(report.notes.size(), 1U);
  EXPECT_EQ(report.notes[0].kind, LedgerCheck::torn_tail);
  EXPECT_EQ(list_ledger(m_ledger)->size(), 2U);
  const LedgerEntry next = append(change_of(LedgerAction::edit, "s", std::nullopt, std::nullopt));
  EXPECT_EQ(next.seq, 3U);
  EXPECT_EQ(read(m_ledger.entries_path()).substr(0, committed.size()), committed);
  report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok());
  EXPECT_TRUE(report.notes.empty());
}

TEST_F(LedgerAppend, AnEntryWrittenBeforeTheHeadIsAdopted) {
  const auto entries = append_edits(2);
  // Killed after the line was written, before head.json was replaced: put
  // back the head of entry 1.
  const std::string line1 = lines()[0];
  write(m_ledger.head_path(),
        "{\"seq\":1,\"hash\":\"" + entries[0].hash + "\",\"size\":" + std::to_string(line1.size() + 1) + "}\n");
  LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok());
  ASSERT_EQ(report.notes.size(), 1U);
  EXPECT_EQ(report.notes[0].kind, LedgerCheck::head_behind);
  const LedgerEntry next = append(change_of(LedgerAction::edit, "s", std::nullopt, std::nullopt));
  EXPECT_EQ(next.seq, 3U);
  EXPECT_EQ(next.prev, entries[1].hash);
  report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok());
  EXPECT_TRUE(report.notes.empty());
}

TEST_F(LedgerAppend, ADamagedTailStopsAppends) {
  append_edits(1);
  // Two foreign lines past the head: more than a crash can leave.
  write(m_ledger.entries_path(), read(m_ledger.entries_path()) + "{}\n{}\n");
  auto appended = append_ledger_entry(m_ledger, change_of(LedgerAction::edit, "s", std::nullopt, std::nullopt));
  ASSERT_FALSE(appended);
  EXPECT_EQ(appended.error().code, ErrorCode::refused);
  EXPECT_NE(appended.error().message.find("ledger verify"), std::string::npos);
}

TEST_F(LedgerAppend, LimitsAreNamed) {
  EXPECT_EQ(limits::k_max_ledger_entry_bytes, 32U * 1024 * 1024);
  EXPECT_EQ(limits::k_max_ledger_head_bytes, 4096U);
  EXPECT_EQ(limits::k_ledger_lock_timeout_ms, 30000);
  // A head.json past its limit is corrupt, and appending refuses to guess.
  append_edits(1);
  write(m_ledger.head_path(), std::string(limits::k_max_ledger_head_bytes + 1, ' '));
  EXPECT_FALSE(append_ledger_entry(m_ledger, change_of(LedgerAction::edit, "s", std::nullopt, std::nullopt)));
  EXPECT_FALSE(verify_ledger(m_ledger).ok());
}

} // namespace
} // namespace skillrt::core
