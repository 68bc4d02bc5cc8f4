// Rollback: an edit, a create and a delete undone through the folder swap,
// refused when the skill changed since, recorded as an entry of its own;
// a database skill's bytes planned; an interrupted rollback recovered.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "core/files/folder_swap.hpp"
#include "core/ledger/ledger_rollback.hpp"
#include "core/ledger/ledger_verify.hpp"
#include "ledger_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using LedgerRollbackTest = test::LedgerFixture;

std::size_t entries_in(const fs::path& dir) {
  std::error_code ec;
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir, ec), fs::directory_iterator()));
}

TEST_F(LedgerRollbackTest, RollsBackAnEditAndRecordsItself) {
  const auto dir = make_skill("s", "one\n");
  write(dir / "scripts" / "run.sh", "#!/bin/sh\n");
  ::chmod((dir / "scripts" / "run.sh").c_str(), 0755);
  const std::string original = read(dir / "SKILL.md");
  const LedgerSnapshot before = capture(dir);
  write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\ntwo\n");
  fs::remove_all(dir / "scripts");
  write(dir / "references" / "new.md", "added\n");
  const LedgerEntry edit = append(change_of(LedgerAction::edit, "s", before, capture(dir)));

  LedgerRollbackOptions options;
  options.actor = LedgerActor::curator;
  auto done = rollback_folder_entry(m_ledger, edit, options);
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(read(dir / "SKILL.md"), original);
  EXPECT_FALSE(fs::exists(dir / "references"));
  ASSERT_TRUE(fs::exists(dir / "scripts" / "run.sh"));
  struct stat st {};
  ::stat((dir / "scripts" / "run.sh").c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0755U);
  EXPECT_EQ(capture(dir).hash, before.hash);
  // Nothing left beside the skill, and the rollback is entry 2.
  EXPECT_EQ(entries_in(m_skills), 1U);
  EXPECT_EQ(done->entry.seq, 2U);
  EXPECT_EQ(done->entry.action, LedgerAction::rollback);
  EXPECT_EQ(done->entry.actor, LedgerActor::curator);
  EXPECT_EQ(done->entry.rolls_back, edit.id);
  EXPECT_NE(done->entry.note.find(edit.id), std::string::npos);
  EXPECT_EQ(done->entry.before->hash, edit.after->hash);
  EXPECT_EQ(done->entry.after->hash, before.hash);
  EXPECT_TRUE(verify_ledger(m_ledger).ok());
  EXPECT_TRUE(fs::is_empty(m_ledger.pending_dir()));

  // The rollback can itself be rolled back.
  auto again = rollback_folder_entry(m_ledger, done->entry, options);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(capture(dir).hash, edit.after->hash);
  EXPECT_EQ(read(dir / "references" / "new.md"), "added\n");
}

TEST_F(LedgerRollbackTest, RefusesWhenTheSkillChangedSinceUnlessForced) {
  const auto dir = make_skill("s", "one\n");
  const LedgerSnapshot before = capture(dir);
  write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\ntwo\n");
  const LedgerEntry edit = append(change_of(LedgerAction::edit, "s", before, capture(dir)));
  write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\nthree (by hand)\n");
  auto refused = rollback_folder_entry(m_ledger, edit, {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
  EXPECT_NE(refused.error().message.find("changed since ledger entry " + edit.id), std::string::npos);
  EXPECT_NE(read(dir / "SKILL.md").find("three"), std::string::npos);
  EXPECT_EQ(list_ledger(m_ledger)->size(), 1U) << "a refused rollback appends nothing";

  LedgerRollbackOptions force;
  force.force = true;
  auto forced = rollback_folder_entry(m_ledger, edit, force);
  ASSERT_TRUE(forced) << forced.error().message;
  EXPECT_EQ(capture(dir).hash, before.hash);
  EXPECT_NE(forced->entry.note.find("forced"), std::string::npos);
  // What the force overwrote is kept: the rollback's before is the hand edit.
  auto files = read_snapshot_bytes(m_ledger, *forced->entry.before);
  ASSERT_TRUE(files);
  EXPECT_NE(files->at(0).bytes.find("three (by hand)"), std::string::npos);
}

TEST_F(LedgerRollbackTest, RollsBackACreateByRemovingTheSkill) {
  const auto dir = make_skill("fresh", "new\n");
  const LedgerEntry create = append(change_of(LedgerAction::create, "fresh", std::nullopt, capture(dir)));
  auto done = rollback_folder_entry(m_ledger, create, {});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir)));
  EXPECT_EQ(entries_in(m_skills), 0U) << "no staging or backup folder left";
  EXPECT_FALSE(done->entry.after);
  EXPECT_TRUE(verify_ledger(m_ledger).ok());
  // Gone now: rolling the create back again has nothing to do.
  LedgerRollbackOptions force;
  force.force = true;
  EXPECT_EQ(rollback_folder_entry(m_ledger, create, force).error().code, ErrorCode::refused);
}

TEST_F(LedgerRollbackTest, RollsBackADeleteByRecreatingTheSkill) {
  const auto dir = make_skill("gone", "keep me\n");
  write(dir / "references" / "a.md", "ref\n");
  const std::string original = read(dir / "SKILL.md");
  const LedgerSnapshot before = capture(dir);
  fs::remove_all(dir);
  const LedgerEntry removed = append(change_of(LedgerAction::remove, "gone", before, std::nullopt));
  auto done = rollback_folder_entry(m_ledger, removed, {});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(read(dir / "SKILL.md"), original);
  EXPECT_EQ(read(dir / "references" / "a.md"), "ref\n");
  EXPECT_FALSE(done->entry.before);
  // Something at the place now (not what the delete left): changed since.
  auto stale = rollback_folder_entry(m_ledger, removed, {});
  EXPECT_EQ(stale.error().code, ErrorCode::refused);
}

TEST_F(LedgerRollbackTest, AMissingBlobChangesNothing) {
  const auto dir = make_skill("s", "one\n");
  const LedgerSnapshot before = capture(dir);
  write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\ntwo\n");
  const LedgerEntry edit = append(change_of(LedgerAction::edit, "s", before, capture(dir)));
  fs::remove(ledger_blob_path(m_ledger, before.files[0].sha256));
  auto failed = rollback_folder_entry(m_ledger, edit, {});
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::not_found);
  EXPECT_NE(read(dir / "SKILL.md").find("two"), std::string::npos);
  EXPECT_EQ(entries_in(m_skills), 1U);
}

TEST_F(LedgerRollbackTest, AnEditedEntryCannotDriveARollback) {
  const auto dir = make_skill("s", "one\n");
  const LedgerSnapshot before = capture(dir);
  LedgerEntry edit = append(change_of(LedgerAction::edit, "s", before, capture(dir)));
  edit.path = "../../elsewhere"; // not sealed any more
  EXPECT_EQ(rollback_folder_entry(m_ledger, edit, {}).error().code, ErrorCode::refused);
  seal_ledger_entry(edit); // sealed, but the path leads out
  EXPECT_EQ(rollback_folder_entry(m_ledger, edit, {}).error().code, ErrorCode::invalid_argument);
}

TEST_F(LedgerRollbackTest, PlansADatabaseSkillsRollback) {
  const std::vector<LedgerBytes> v1{{"SKILL.md", "---\nname: d\n---\nv1\n", 0644}};
  const std::vector<LedgerBytes> v2{{"SKILL.md", "---\nname: d\n---\nv2\n", 0644}};
  LedgerChange change;
  change.action = LedgerAction::edit;
  change.layer = Layer::database;
  change.skill = "d";
  change.path = ledger_db_path("d");
  change.before = *capture_bytes(m_ledger, v1);
  change.after = *capture_bytes(m_ledger, v2);
  const LedgerEntry edit = append(change);
  EXPECT_EQ(edit.path, "db:d");
  EXPECT_EQ(ledger_entry_folder(edit).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(rollback_folder_entry(m_ledger, edit, {}).error().code, ErrorCode::invalid_argument);

  auto plan = plan_bytes_rollback(m_ledger, edit, v2, {});
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_TRUE(plan->restore);
  EXPECT_EQ(plan->restore->at(0).bytes, v1[0].bytes);
  EXPECT_EQ(plan->change.action, LedgerAction::rollback);
  EXPECT_EQ(plan->change.rolls_back, edit.id);
  // Changed since: refused; the row gone: refused too (its after was v2).
  EXPECT_EQ(plan_bytes_rollback(m_ledger, edit, v1, {}).error().code, ErrorCode::refused);
  EXPECT_EQ(plan_bytes_rollback(m_ledger, edit, std::nullopt, {}).error().code, ErrorCode::refused);
}

TEST_F(LedgerRollbackTest, AnInterruptedRollbackIsFinishedByTheNext) {
  const auto dir = make_skill("s", "one\n");
  const LedgerSnapshot before = capture(dir);
  write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\ntwo\n");
  const LedgerEntry edit = append(change_of(LedgerAction::edit, "s", before, capture(dir)));
  // A rollback killed between its swap and its commit: the staged folder is
  // in place, the old one in its backup, the record and the sealed entry
  // written, the ledger not yet appended. Built with the same primitives.
  const LedgerRollback first = *rollback_folder_entry(m_ledger, edit, {});
  const std::string restored = read(dir / "SKILL.md");
  // Undo the bookkeeping of the finished rollback to stage the crash.
  auto all = lines();
  all.pop_back();
  write_lines(all);
  write(m_ledger.head_path(),
        "{\"seq\":1,\"hash\":\"" + edit.hash + "\",\"size\":" + std::to_string(all[0].size() + 1) + "}\n");
  const fs::path backup = m_skills / ".skillrt-ledger-old-s-crash1";
  fs::create_directory(backup);
  write(backup / "SKILL.md", "---\nname: s\ndescription: d\n---\ntwo\n");
  files::FolderSwap swap;
  swap.staged = m_skills / ".skillrt-ledger-new-s-crash1";
  swap.target = dir;
  swap.extra_members = "\"ledger_entry\": \"" + first.entry.id + "\",\n  \"remove\": false";
  write(m_ledger.pending_dir() / (first.entry.id + ".json"), files::render_swap_record(swap, backup));
  write(m_ledger.dir / "pending-entries" / (first.entry.id + ".jsonl"), render_ledger_entry(first.entry) + "\n");
  EXPECT_EQ(verify_ledger(m_ledger).notes.size(), 1U);

  const auto pending = pending_ledger_rollbacks(m_ledger);
  ASSERT_EQ(pending.size(), 1U);
  EXPECT_EQ(pending[0].target, dir);
  auto recovered = recover_ledger_rollback(m_ledger, pending[0].record);
  ASSERT_TRUE(recovered) << recovered.error().message;
  EXPECT_EQ(*recovered, files::SwapRecovery::finished);
  EXPECT_EQ(read(dir / "SKILL.md"), restored);
  EXPECT_FALSE(fs::exists(backup));
  auto listed = list_ledger(m_ledger);
  ASSERT_EQ(listed->size(), 2U);
  EXPECT_EQ(listed->back().hash, first.entry.hash);
  const LedgerVerifyReport report = verify_ledger(m_ledger);
  EXPECT_TRUE(report.ok());
  EXPECT_TRUE(report.notes.empty());
}

} // namespace
} // namespace skillrt::core
