// Every branch of the bundled sync (spec §2.13 rules 4-9) on real temp homes.
#include "core/sync/bundled_sync.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/events/event_bus.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/folder_swap.hpp"
#include "core/limits.hpp"
#include "core/sync/sync_lock.hpp"
#include "sync_fixture.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::snapshot;
using test::write_text;
using Strings = std::vector<std::string>;

class BundledSync : public test::SyncFixture {};

bool leftovers_in(const fs::path& root) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().filename().string().rfind(".skillrt-sync-", 0) == 0 ||
        it->path().parent_path().filename() == ".skillrt-bundled-pending") {
      return true; // a staging folder, a backup, or a swap record left behind
    }
  }
  return false;
}

// ---- copied / unchanged / updated ---------------------------------------------

TEST_F(BundledSync, CopiesNewSkillsKeepingTheCategoryPathAndRecordsTheirHashes) {
  const fs::path a = bundle("tools/alpha", "alpha");
  write_text(a / "references" / "more.md", "More.\n");
  const fs::path b = bundle("tools/nested/beta", "beta");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.copied, (Strings{"alpha", "beta"}));
  EXPECT_EQ(r.total_bundled, 2U);
  EXPECT_EQ(r.skipped, 0U);
  EXPECT_TRUE(r.manifest_written);
  EXPECT_EQ(fs::canonical(r.bundled_dir), fs::canonical(m_bundled));
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
  EXPECT_EQ(snapshot(skills() / "tools" / "nested" / "beta"), snapshot(b));
  EXPECT_EQ(manifest(), (BundledManifest{{"alpha", hash(a)}, {"beta", hash(b)}}));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, TheSkillNameComesFromTheFrontmatterElseTheFolder) {
  bundle("tools/folder-name", "declared-name");
  write_text(m_bundled / "tools" / "no-name" / "SKILL.md", "---\ndescription: x\n---\nbody\n");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.copied, (Strings{"declared-name", "no-name"}));
  EXPECT_TRUE(fs::exists(skills() / "tools" / "folder-name" / "SKILL.md"));
  EXPECT_EQ(manifest().count("declared-name"), 1U);
}

TEST_F(BundledSync, ASecondSyncChangesNothing) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  const auto before = read_text(bundled_manifest_path(m_ctx));
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.copied.empty());
  EXPECT_TRUE(r.updated.empty());
  EXPECT_EQ(r.skipped, 1U);
  EXPECT_FALSE(r.manifest_written);
  EXPECT_EQ(read_text(bundled_manifest_path(m_ctx)), before);
}

TEST_F(BundledSync, UpdatesAPristineCopyAndLeavesNoBackup) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  bundle("tools/alpha", "alpha", "v2");
  write_text(a / "scripts" / "new.sh", "echo new\n");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.updated, (Strings{"alpha"}));
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
  EXPECT_EQ(manifest().at("alpha"), hash(a));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, RuntimeCachesNeitherCopiedNorCountedAsUserChanges) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  write_text(a / "scripts" / "__pycache__" / "x.pyc", "bytecode");
  sync_ok();
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha" / "scripts" / "__pycache__"));
  // Running the skill's scripts leaves caches behind: still pristine.
  write_text(skills() / "tools" / "alpha" / "scripts" / "__pycache__" / "y.pyc", "bytecode");
  bundle("tools/alpha", "alpha", "v2");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.updated, (Strings{"alpha"}));
}

// ---- the user's copies ----------------------------------------------------------

TEST_F(BundledSync, AUserModifiedCopyIsNeverOverwritten) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const std::string origin = manifest().at("alpha");
  const fs::path mine = skills() / "tools" / "alpha" / "SKILL.md";
  write_text(mine, read_text(mine) + "My own note.\n");
  const std::string edited = read_text(mine);
  bundle("tools/alpha", "alpha", "v2");
  for (int i = 0; i < 2; ++i) {
    const SyncResult r = sync_ok();
    EXPECT_EQ(r.user_modified, (Strings{"alpha"}));
    EXPECT_TRUE(r.updated.empty());
    EXPECT_EQ(read_text(mine), edited);
    EXPECT_EQ(manifest().at("alpha"), origin);
  }
}

TEST_F(BundledSync, AUserCopyMadeEqualToTheNewVersionIsBaselined) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  bundle("tools/alpha", "alpha", "v2");
  write_text(skills() / "tools" / "alpha" / "SKILL.md", read_text(a / "SKILL.md"));
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.user_modified.empty());
  EXPECT_EQ(r.skipped, 1U);
  EXPECT_EQ(manifest().at("alpha"), hash(a));
}

TEST_F(BundledSync, AUserDeletedSkillIsNotReAdded) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  fs::remove_all(skills() / "tools" / "alpha");
  bundle("tools/alpha", "alpha", "v2"); // even when upstream changes
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.copied.empty());
  EXPECT_EQ(r.skipped, 1U);
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
  EXPECT_EQ(manifest().count("alpha"), 1U);
}

TEST_F(BundledSync, AnUntrackedLocalSkillOfTheSameNameIsKept) {
  bundle("tools/alpha", "alpha", "bundled");
  write_text(skills() / "tools" / "alpha" / "SKILL.md", test::skill_md("alpha", "mine"));
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.copied.empty());
  EXPECT_EQ(r.skipped, 1U);
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_NE(r.warnings[0].find("you already have a local skill by this name"), std::string::npos);
  EXPECT_NE(read_text(skills() / "tools" / "alpha" / "SKILL.md").find("mine"), std::string::npos);
  EXPECT_EQ(manifest().count("alpha"), 0U);
}

TEST_F(BundledSync, AnUntrackedSkillOfTheSameNameElsewhereIsNotShadowedByACopy) {
  bundle("tools/alpha", "alpha", "bundled");
  write_text(skills() / "mine" / "alpha" / "SKILL.md", test::skill_md("alpha", "mine"));
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.copied.empty());
  EXPECT_EQ(r.skipped, 1U);
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_NE(r.warnings[0].find("you already have a local skill by this name"), std::string::npos);
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
  EXPECT_EQ(manifest().count("alpha"), 0U);
}

TEST_F(BundledSync, AnUntrackedIdenticalCopyIsBaselined) {
  const fs::path a = bundle("tools/alpha", "alpha");
  fs::create_directories(skills() / "tools");
  fs::copy(a, skills() / "tools" / "alpha", fs::copy_options::recursive);
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.copied.empty());
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(manifest().at("alpha"), hash(a));
}

// ---- v1 and legacy (MD5) manifest entries: never lose an edit ----------------------

TEST_F(BundledSync, AV1EntryIsBaselinedOnlyWhenTheCopyEqualsTheBundledOne) {
  const fs::path a = bundle("tools/alpha", "alpha");
  sync_ok();
  write_manifest("alpha\n");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.skipped, 1U);
  EXPECT_EQ(manifest().at("alpha"), hash(a));
}

TEST_F(BundledSync, AV1EntryWithAUserEditStaysUserModifiedAcrossUpdates) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const fs::path mine = skills() / "tools" / "alpha" / "SKILL.md";
  // The edit predates the migration: Hermes would baseline from this copy and
  // overwrite it on the next update. We must not.
  write_text(mine, read_text(mine) + "edited before the v2 manifest\n");
  const std::string edited = read_text(mine);
  write_manifest("alpha\n");
  SyncResult r = sync_ok();
  EXPECT_EQ(r.user_modified, (Strings{"alpha"}));
  EXPECT_EQ(manifest().at("alpha"), "");
  bundle("tools/alpha", "alpha", "v2");
  r = sync_ok();
  EXPECT_EQ(r.user_modified, (Strings{"alpha"}));
  EXPECT_TRUE(r.updated.empty());
  EXPECT_EQ(read_text(mine), edited);
}

TEST_F(BundledSync, ALegacyMd5EntryIsAnUnknownOrigin) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  bundle("tools/beta", "beta", "v1");
  sync_ok();
  const fs::path mine = skills() / "tools" / "alpha" / "SKILL.md";
  write_text(mine, read_text(mine) + "edit\n");
  const std::string edited = read_text(mine);
  // A manifest Hermes wrote: 32-hex MD5 digests we cannot check a copy against.
  write_manifest("alpha:0123456789abcdef0123456789abcdef\nbeta:fedcba9876543210fedcba9876543210\n");
  bundle("tools/alpha", "alpha", "v2");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.user_modified, (Strings{"alpha"}));
  EXPECT_EQ(read_text(mine), edited);
  // beta's copy equals the bundled one: re-baselined with our hash.
  EXPECT_EQ(manifest().at("beta"), hash(m_bundled / "tools" / "beta"));
  EXPECT_EQ(manifest().at("alpha"), "0123456789abcdef0123456789abcdef");
  (void)a;
}

// ---- cleanup, relocation, links, external dirs -------------------------------------

TEST_F(BundledSync, NamesNoLongerBundledLeaveTheManifestOnceNoCopyRemains) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  bundle("tools/gamma", "gamma");
  sync_ok();
  fs::remove_all(m_bundled / "tools" / "beta");
  fs::remove_all(m_bundled / "tools" / "gamma");
  fs::remove_all(skills() / "tools" / "beta"); // gone everywhere
  // gamma: archived by the user
  fs::create_directories(skills() / ".archive");
  fs::rename(skills() / "tools" / "gamma", skills() / ".archive" / "gamma");
  SyncResult r = sync_ok();
  EXPECT_EQ(r.cleaned, (Strings{"beta"}));
  EXPECT_EQ(manifest().count("beta"), 0U);
  EXPECT_EQ(manifest().count("gamma"), 1U);
  // An active copy keeps the entry too.
  fs::remove_all(m_bundled / "tools" / "alpha");
  r = sync_ok();
  EXPECT_TRUE(r.cleaned.empty());
  EXPECT_EQ(manifest().count("alpha"), 1U);
  EXPECT_TRUE(fs::exists(skills() / "tools" / "alpha" / "SKILL.md"));
}

TEST_F(BundledSync, APristineCopyFollowsItsSkillToANewCategory) {
  bundle("old/alpha", "alpha", "v1");
  sync_ok();
  fs::remove_all(m_bundled / "old");
  const fs::path moved = bundle("new/alpha", "alpha", "v2");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.relocated, (Strings{"alpha"}));
  EXPECT_EQ(r.updated, (Strings{"alpha"})); // then updated in place
  EXPECT_FALSE(fs::exists(skills() / "old" / "alpha"));
  EXPECT_EQ(snapshot(skills() / "new" / "alpha"), snapshot(moved));
  EXPECT_EQ(manifest().at("alpha"), hash(moved));
}

TEST_F(BundledSync, AModifiedCopyIsNotRelocated) {
  bundle("old/alpha", "alpha", "v1");
  sync_ok();
  const fs::path mine = skills() / "old" / "alpha" / "SKILL.md";
  write_text(mine, read_text(mine) + "mine\n");
  const std::string edited = read_text(mine);
  fs::remove_all(m_bundled / "old");
  bundle("new/alpha", "alpha", "v1");
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.relocated.empty());
  EXPECT_TRUE(r.copied.empty());
  EXPECT_EQ(read_text(mine), edited);
  EXPECT_FALSE(fs::exists(skills() / "new" / "alpha"));
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("left in place"), std::string::npos);
}

TEST_F(BundledSync, AHubInstalledCopyIsNeverRelocated) {
  bundle("old/alpha", "alpha", "v1");
  sync_ok();
  write_text(skills() / ".hub" / "lock.json",
             R"({"version": 1, "installed": {"alpha": {"install_path": "old/alpha"}}})");
  fs::remove_all(m_bundled / "old");
  bundle("new/alpha", "alpha", "v1");
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.relocated.empty());
  EXPECT_TRUE(fs::exists(skills() / "old" / "alpha" / "SKILL.md"));
}

TEST_F(BundledSync, ASymlinkedDestinationIsNeverWritten) {
  bundle("tools/alpha", "alpha", "v1");
  bundle("linked/beta", "beta", "v1");
  const fs::path elsewhere = m_tree.mkdir("elsewhere");
  write_text(elsewhere / "alpha" / "SKILL.md", "theirs");
  fs::create_directories(skills() / "tools");
  fs::create_directory_symlink(elsewhere / "alpha", skills() / "tools" / "alpha");
  fs::create_directory_symlink(elsewhere, skills() / "linked"); // a symlinked category
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.symlinked, (Strings{"beta", "alpha"})); // in bundled path order
  EXPECT_TRUE(r.copied.empty());
  EXPECT_EQ(read_text(elsewhere / "alpha" / "SKILL.md"), "theirs");
  EXPECT_FALSE(fs::exists(elsewhere / "beta"));
  EXPECT_TRUE(manifest().empty());
}

TEST_F(BundledSync, ANameAnExternalDirProvidesIsShadowed) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  bundle("tools/gamma", "gamma");
  sync_ok();
  // beta: stale identical copy (removed); gamma: changed copy (kept).
  const fs::path mine = skills() / "tools" / "gamma" / "SKILL.md";
  write_text(mine, read_text(mine) + "mine\n");
  fs::remove_all(skills() / "tools" / "alpha");
  const fs::path external = m_tree.mkdir("external");
  for (const char* name : {"alpha", "beta", "gamma"}) {
    write_text(external / name / "SKILL.md", test::skill_md(name, "external"));
  }
  m_cfg.skills.external_dirs = {external.string()};
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.shadowed_by_external, (Strings{"alpha", "beta", "gamma"}));
  EXPECT_TRUE(r.copied.empty());
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
  EXPECT_FALSE(fs::exists(skills() / "tools" / "beta"));
  EXPECT_TRUE(fs::exists(mine));
  EXPECT_EQ(manifest().count("beta"), 0U);
}

TEST_F(BundledSync, DescriptionFilesAreCopiedWhenAbsentAndNeverOverwritten) {
  bundle("tools/alpha", "alpha");
  write_text(m_bundled / "tools" / "DESCRIPTION.md", "Tools.\n");
  write_text(m_bundled / "other" / "DESCRIPTION.md", "No skills here.\n");
  SyncResult r = sync_ok();
  EXPECT_EQ(r.descriptions_copied, (Strings{"tools/DESCRIPTION.md"}));
  EXPECT_EQ(read_text(skills() / "tools" / "DESCRIPTION.md"), "Tools.\n");
  EXPECT_FALSE(fs::exists(skills() / "other"));
  write_text(skills() / "tools" / "DESCRIPTION.md", "My words.\n");
  write_text(m_bundled / "tools" / "DESCRIPTION.md", "Tools, v2.\n");
  r = sync_ok();
  EXPECT_TRUE(r.descriptions_copied.empty());
  EXPECT_EQ(read_text(skills() / "tools" / "DESCRIPTION.md"), "My words.\n");
}

TEST_F(BundledSync, TheOptOutMarkerSeedsOnlyTheEssentialSkill) {
  bundle("skillrt/using-skillrt", std::string(k_essential_skill));
  bundle("skillrt/alpha", "alpha");
  bundle("other/beta", "beta");
  write_text(m_bundled / "skillrt" / "DESCRIPTION.md", "ours\n");
  write_text(m_bundled / "other" / "DESCRIPTION.md", "other\n");
  write_manifest("gone:" + std::string(64, 'a') + "\n");
  write_text(opt_out_marker_path(m_ctx), "");
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.skipped_opt_out);
  EXPECT_EQ(r.copied, (Strings{std::string(k_essential_skill)}));
  EXPECT_EQ(r.total_bundled, 3U);
  EXPECT_FALSE(fs::exists(skills() / "skillrt" / "alpha"));
  EXPECT_TRUE(fs::exists(skills() / "skillrt" / "DESCRIPTION.md"));
  EXPECT_FALSE(fs::exists(skills() / "other"));
  EXPECT_EQ(manifest().count("gone"), 1U); // no cleanup under the opt-out
  EXPECT_TRUE(r.cleaned.empty());
}

// ---- crash recovery and failures ----------------------------------------------------

TEST_F(BundledSync, ABackupLeftWithoutItsCopyIsRestored) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const auto original = snapshot(skills() / "tools" / "alpha");
  // An update died after moving the copy aside.
  fs::rename(skills() / "tools" / "alpha", skills() / "tools" / ".skillrt-sync-bak-alpha");
  const fs::path a = bundle("tools/alpha", "alpha", "v2");
  const SyncResult r = sync_ok();
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("restored"), std::string::npos);
  EXPECT_EQ(r.updated, (Strings{"alpha"})); // pristine, so the update then runs
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
  EXPECT_FALSE(leftovers_in(skills()));
  (void)original;
}

TEST_F(BundledSync, ABackupOfAUserCopyIsRestoredAndKept) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const fs::path mine = skills() / "tools" / "alpha" / "SKILL.md";
  write_text(mine, read_text(mine) + "mine\n");
  const auto edited = snapshot(skills() / "tools" / "alpha");
  fs::rename(skills() / "tools" / "alpha", skills() / "tools" / ".skillrt-sync-bak-alpha");
  bundle("tools/alpha", "alpha", "v2");
  const SyncResult r = sync_ok();
  EXPECT_EQ(r.user_modified, (Strings{"alpha"}));
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), edited);
}

TEST_F(BundledSync, AnUpdateInterruptedAfterTheSwapIsFinished) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const std::string old_origin = manifest().at("alpha");
  const fs::path a = bundle("tools/alpha", "alpha", "v2");
  // The state a crash leaves between the swap and the manifest write.
  fs::rename(skills() / "tools" / "alpha", skills() / "tools" / ".skillrt-sync-bak-alpha");
  fs::copy(a, skills() / "tools" / "alpha", fs::copy_options::recursive);
  EXPECT_EQ(manifest().at("alpha"), old_origin);
  const SyncResult r = sync_ok();
  EXPECT_TRUE(r.user_modified.empty());
  EXPECT_EQ(manifest().at("alpha"), hash(a));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, AnUnexplainedBackupIsKeptBesideTheCopy) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  write_text(skills() / "tools" / ".skillrt-sync-bak-alpha" / "SKILL.md", "something else");
  bundle("tools/alpha", "alpha", "v2");
  const SyncResult r = [&] {
    auto result = sync();
    EXPECT_TRUE(result);
    return result ? *result : SyncResult{};
  }();
  EXPECT_EQ(read_text(skills() / "tools" / ".skillrt-sync-bak-alpha" / "SKILL.md"), "something else");
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("compare them"), std::string::npos);
  // The pristine copy is not updated while a backup it would need is in the way.
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_NE(r.errors[0].find("backup"), std::string::npos);
  EXPECT_TRUE(r.updated.empty());
}

// The swap record of an update (core/files/folder_swap.hpp), as a crash leaves it.
struct InterruptedUpdate {
  fs::path staged, target, backup, record;
};

InterruptedUpdate interrupted_update(const fs::path& skills, const std::string& bundled_hash) {
  InterruptedUpdate u;
  u.target = skills / "tools" / "alpha";
  u.staged = skills / "tools" / ".skillrt-sync-new-alpha-4242";
  u.backup = skills / "tools" / ".skillrt-sync-old-alpha-Ab12Cd";
  u.record = skills / ".skillrt-bundled-pending" / "alpha.json";
  files::FolderSwap swap;
  swap.staged = u.staged;
  swap.target = u.target;
  swap.extra_members = "\"name\": \"alpha\",\n  \"bundled_hash\": \"" + bundled_hash + "\"";
  fs::create_directories(u.record.parent_path());
  EXPECT_TRUE(write_file_atomic(u.record, files::render_swap_record(swap, u.backup)));
  return u;
}

TEST_F(BundledSync, AnUpdateInterruptedAfterItsSwapIsFinishedFromItsRecord) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const fs::path a = bundle("tools/alpha", "alpha", "v2");
  const InterruptedUpdate u = interrupted_update(skills(), hash(a));
  fs::rename(u.target, u.backup);
  fs::copy(a, u.target, fs::copy_options::recursive); // the new copy is in place, the manifest not yet written
  const SyncResult r = sync_ok();
  EXPECT_EQ(manifest().at("alpha"), hash(a));
  EXPECT_TRUE(r.user_modified.empty());
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("finished an interrupted update"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(snapshot(u.target), snapshot(a));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, AnUpdateInterruptedBeforeItsSwapIsUndoneThenRunAgain) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const auto old_copy = snapshot(skills() / "tools" / "alpha");
  const fs::path a = bundle("tools/alpha", "alpha", "v2");
  const InterruptedUpdate u = interrupted_update(skills(), hash(a));
  fs::rename(u.target, u.backup); // the old copy moved aside, the new one never arrived
  fs::create_directories(u.staged);
  write_text(u.staged / "SKILL.md", "half a copy");
  const SyncResult r = sync_ok();
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("undid an interrupted update"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(r.updated, (Strings{"alpha"})); // the old copy was back and pristine, so the update ran
  EXPECT_NE(snapshot(u.target), old_copy);
  EXPECT_EQ(snapshot(u.target), snapshot(a));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, ARecordWhoseTargetIsNotThePlacedCopyIsKeptAndTheSkillLeftAlone) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const std::string origin = manifest().at("alpha");
  const fs::path a = bundle("tools/alpha", "alpha", "v2");
  const InterruptedUpdate u = interrupted_update(skills(), hash(a));
  // The staged folder is gone and something sits at the target, but not what the swap placed.
  fs::rename(u.target, u.backup);
  write_text(u.target / "SKILL.md", "someone else's folder");
  auto r = sync();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->errors.size(), 1U);
  EXPECT_NE(r->errors[0].find("is kept for the next sync"), std::string::npos) << r->errors[0];
  EXPECT_TRUE(fs::exists(u.record));
  EXPECT_EQ(read_text(u.target / "SKILL.md"), "someone else's folder");
  EXPECT_TRUE(fs::exists(u.backup / "SKILL.md"));
  EXPECT_EQ(manifest().at("alpha"), origin);
}

TEST_F(BundledSync, ARecordPointingOutsideItsCategoryIsIgnored) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const fs::path victim = m_tree.mkdir("victim");
  write_text(victim / "data", "precious\n");
  files::FolderSwap swap;
  swap.staged = skills() / "tools" / ".skillrt-sync-new-alpha-1";
  swap.target = skills() / "tools" / "alpha";
  swap.extra_members = "\"name\": \"alpha\",\n  \"bundled_hash\": \"" + std::string(64, 'a') + "\"";
  const fs::path record = skills() / ".skillrt-bundled-pending" / "alpha.json";
  fs::create_directories(record.parent_path());
  ASSERT_TRUE(write_file_atomic(record, files::render_swap_record(swap, victim))); // "backup" outside
  const SyncResult r = sync_ok();
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("ignored an unusable swap record"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(read_text(victim / "data"), "precious\n");
  EXPECT_TRUE(fs::exists(skills() / "tools" / "alpha" / "SKILL.md"));
  EXPECT_FALSE(fs::exists(record));
}

TEST_F(BundledSync, AFailedCopyRecordsNothingAndIsRetried) {
  const fs::path a = bundle("tools/alpha", "alpha");
  ASSERT_EQ(::mkfifo((a / "pipe").c_str(), 0600), 0);
  auto r = sync();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->errors.size(), 1U);
  EXPECT_NE(r->errors[0].find("retried next sync"), std::string::npos) << r->errors[0];
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
  EXPECT_FALSE(leftovers_in(skills()));
  EXPECT_EQ(manifest().count("alpha"), 0U);
  fs::remove(a / "pipe");
  EXPECT_EQ(sync_ok().copied, (Strings{"alpha"}));
}

TEST_F(BundledSync, AFailedUpdateLeavesTheCopyAndTheManifestAsTheyWere) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const auto before = snapshot(skills() / "tools" / "alpha");
  const std::string origin = manifest().at("alpha");
  bundle("tools/alpha", "alpha", "v2");
  ASSERT_EQ(::mkfifo((a / "pipe").c_str(), 0600), 0);
  auto r = sync();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->errors.size(), 1U);
  EXPECT_NE(r->errors[0].find("your copy is unchanged"), std::string::npos) << r->errors[0];
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), before);
  EXPECT_EQ(manifest().at("alpha"), origin);
  EXPECT_FALSE(leftovers_in(skills()));
  fs::remove(a / "pipe");
  EXPECT_EQ(sync_ok().updated, (Strings{"alpha"}));
}

TEST_F(BundledSync, StaleStagingFoldersOfADeadSyncAreRemoved) {
  bundle("tools/alpha", "alpha");
  write_text(skills() / "tools" / ".skillrt-sync-new-alpha-99999" / "SKILL.md", "half");
  EXPECT_EQ(sync_ok().copied, (Strings{"alpha"}));
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, BadBundledSkillsAreReportedAndTheRestSynced) {
  bundle("tools/alpha", "alpha");
  bundle("tools/zz-alpha", "alpha");
  bundle("tools/colon", "a:b");
  bundle("tools/beta", "beta");
  auto r = sync();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->copied, (Strings{"alpha", "beta"}));
  EXPECT_EQ(r->errors.size(), 2U);
  EXPECT_FALSE(fs::exists(skills() / "tools" / "zz-alpha"));
}

TEST_F(BundledSync, ACorruptManifestStopsTheSyncBeforeAnyWrite) {
  bundle("tools/alpha", "alpha");
  write_manifest(std::string(limits::k_max_hub_state_bytes + 1, 'x'));
  auto r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::limit_exceeded);
  EXPECT_FALSE(fs::exists(skills() / "tools"));
  write_manifest("alpha:\xff\n");
  r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
}

TEST_F(BundledSync, AMissingBundledFolderOrAnOverlapIsRefused) {
  m_options.bundled_dir = m_tree.path() / "nope";
  auto r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::not_found);
  m_options.bundled_dir = skills();
  fs::create_directories(skills());
  r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
}

// ---- permission, events, progress, concurrency --------------------------------------

TEST_F(BundledSync, OnlyTheOwnerOrgAndSingleUserModeMayWriteTheSharedLayer) {
  bundle("tools/alpha", "alpha");
  m_ctx.user_id = "alice";
  m_ctx.org_id = "7";
  auto r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(skills()));
  m_ctx.user_id.reset();
  m_ctx.anonymous = true;
  r = sync();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(skills()));
  m_ctx.anonymous = false;
  m_ctx.user_id = "root-admin";
  m_ctx.org_id = "0";
  EXPECT_EQ(sync_ok().copied, (Strings{"alpha"}));
}

TEST_F(BundledSync, PublishesSharedLayerChangeEvents) {
  EventBus bus;
  std::vector<SkillEvent> seen;
  auto subscription = bus.subscribe(std::nullopt, [&](const SkillEvent& e) { seen.push_back(e); });
  m_ctx.events = &bus;
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  bundle("tools/alpha", "alpha", "v2");
  sync_ok();
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0].kind, ChangeKind::created);
  EXPECT_EQ(seen[1].kind, ChangeKind::updated);
  for (const SkillEvent& e : seen) {
    EXPECT_EQ(e.layer, Layer::shared);
    EXPECT_EQ(e.name, "alpha");
    EXPECT_EQ(e.owner, "");
    EXPECT_EQ(e.location, (skills() / "tools" / "alpha" / "SKILL.md").string());
  }
}

class RecordingProgress final : public Progress {
public:
  void update(std::string_view phase, std::uint64_t done, std::uint64_t total) override {
    phases.emplace_back(phase);
    last_done = done;
    last_total = total;
  }
  void finish() override { ++finished; }
  std::vector<std::string> phases;
  std::uint64_t last_done = 0;
  std::uint64_t last_total = 0;
  int finished = 0;
};

TEST_F(BundledSync, ReportsProgressPerBundledSkill) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  RecordingProgress progress;
  m_options.progress = &progress;
  sync_ok();
  EXPECT_EQ(progress.phases, (Strings{"sync", "sync"}));
  EXPECT_EQ(progress.last_done, 2U);
  EXPECT_EQ(progress.last_total, 2U);
  EXPECT_EQ(progress.finished, 1);
}

TEST_F(BundledSync, ConcurrentSyncsRunOneAfterTheOther) {
  for (int i = 0; i < 12; ++i) {
    bundle("cat" + std::to_string(i % 3) + "/skill-" + std::to_string(i), "skill-" + std::to_string(i));
  }
  std::vector<SyncResult> results(4);
  std::vector<int> ok(4, 0);
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        auto r = core::sync::sync_bundled_skills(m_ctx, m_cfg, m_options);
        ok[t] = r && r->errors.empty();
        if (r) {
          results[t] = *r;
        }
      });
    }
  }
  std::size_t copied = 0;
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_TRUE(ok[t]);
    copied += results[t].copied.size();
    EXPECT_TRUE(results[t].user_modified.empty());
  }
  EXPECT_EQ(copied, 12U); // each skill copied exactly once
  EXPECT_EQ(manifest().size(), 12U);
  EXPECT_FALSE(leftovers_in(skills()));
}

TEST_F(BundledSync, TheSyncLockIsExclusive) {
  fs::create_directories(skills());
  auto held = SyncLock::acquire(m_ctx);
  ASSERT_TRUE(held);
  bundle("tools/alpha", "alpha");
  std::atomic<bool> done{false};
  std::jthread other([&] {
    auto r = core::sync::sync_bundled_skills(m_ctx, m_cfg, m_options);
    EXPECT_TRUE(r);
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(done.load());
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
  { auto release = std::move(*held); }
  other.join();
  EXPECT_TRUE(done.load());
  EXPECT_TRUE(fs::exists(skills() / "tools" / "alpha"));
}

} // namespace
} // namespace skillrt::core::sync
