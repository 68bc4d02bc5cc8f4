// The other operations of spec §2.13 rule 12 on real temp homes: the diff of
// one bundled skill, the list of user-modified copies, the opt-out toggle and
// the removal of pristine copies.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/events/event_bus.hpp"
#include "core/sync/bundled_inspect.hpp"
#include "core/sync/bundled_opt_out.hpp"
#include "core/sync/bundled_prune.hpp"
#include "core/sync/copy_state.hpp"
#include "sync_fixture.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::snapshot;
using test::write_text;
using Strings = std::vector<std::string>;

class BundledInspect : public test::SyncFixture {
protected:
  BundledDiff diff_ok(const std::string& name) {
    auto d = diff_bundled_skill(m_ctx, name, m_bundled);
    EXPECT_TRUE(d) << (d ? "" : d.error().message);
    return d ? *d : BundledDiff{};
  }

  Strings modified_names() {
    auto r = list_user_modified_bundled_skills(m_ctx, m_bundled);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    Strings names;
    if (r) {
      for (const ModifiedSkill& s : r->modified) {
        names.push_back(s.name);
      }
    }
    return names;
  }

  PruneResult prune_ok(bool dry_run) {
    auto r = remove_pristine_bundled_skills(m_ctx, m_bundled, dry_run);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : PruneResult{};
  }

  static Strings removed_names(const PruneResult& r) {
    Strings names;
    for (const PrunedSkill& s : r.removed) {
      names.push_back(s.name);
    }
    return names;
  }

  fs::path copy_of(const std::string& rel) const { return skills() / rel; }

  // Every file below the home (the lock file aside, which any sync leaves), for "wrote nothing" checks.
  std::map<std::string, std::string> home_files() const {
    auto files = snapshot(m_ctx.home);
    files.erase("skills/.bundled_manifest.lock");
    return files;
  }
};

// ---- the shared rule ----------------------------------------------------------------------------

TEST(CopyState, FollowsTheSyncRule) {
  const std::string a(64, 'a');
  const std::string b(64, 'b');
  const std::string c(64, 'c');
  EXPECT_EQ(judge_copy(b, a, b), CopyState::matches_bundled);
  EXPECT_EQ(judge_copy(a, a, b), CopyState::pristine);
  EXPECT_EQ(judge_copy(c, a, b), CopyState::user_modified);
  // An origin we cannot check: modified unless the copy is the shipped version.
  EXPECT_EQ(judge_copy(c, "", b), CopyState::user_modified);
  EXPECT_EQ(judge_copy(c, std::string(32, 'c'), b), CopyState::user_modified);
  EXPECT_EQ(judge_copy(b, "", b), CopyState::matches_bundled);
  EXPECT_STREQ(copy_state_name(CopyState::user_modified), "user_modified");
}

// ---- diff ---------------------------------------------------------------------------------------

TEST_F(BundledInspect, DiffShowsWhatTheUserChangedFromTheBundledVersion) {
  const fs::path a = bundle("tools/alpha", "alpha", "step one");
  write_text(a / "notes.md", "keep\n");
  write_text(a / "gone.md", "bundled only\n");
  sync_ok();
  const fs::path mine = copy_of("tools/alpha");
  write_text(mine / "SKILL.md", test::skill_md("alpha", "step two"));
  write_text(mine / "mine.md", "my own file\n");
  write_text(mine / "blob.bin", std::string("\0\1\2", 3));
  write_text(a / "blob.bin", std::string("\0\1\3", 3));
  fs::remove(mine / "gone.md");
  write_text(mine / "__pycache__" / "x.pyc", "bytecode"); // runtime cache: neither hashed nor diffed

  const BundledDiff d = diff_ok("alpha");
  EXPECT_EQ(d.path, mine);
  EXPECT_EQ(d.bundled_path, fs::canonical(a));
  EXPECT_TRUE(d.tracked);
  EXPECT_TRUE(d.origin_known);
  ASSERT_TRUE(d.state);
  EXPECT_EQ(*d.state, CopyState::user_modified);
  EXPECT_FALSE(d.identical);
  std::vector<std::pair<std::string, std::string>> files;
  for (const diff::FileDiff& f : d.diff.files) {
    files.emplace_back(f.path, diff::file_change_name(f.change));
  }
  EXPECT_EQ(files,
            (std::vector<std::pair<std::string, std::string>>{
                {"SKILL.md", "modified"}, {"blob.bin", "binary"}, {"gone.md", "removed"}, {"mine.md", "added"}}));
  // Direction: bundled (a/) to the user's copy (b/).
  EXPECT_NE(d.diff.text.find("-step one"), std::string::npos) << d.diff.text;
  EXPECT_NE(d.diff.text.find("+step two"), std::string::npos) << d.diff.text;
  EXPECT_NE(d.diff.text.find("+++ b/mine.md"), std::string::npos) << d.diff.text;
  EXPECT_EQ(d.diff.text.find("pycache"), std::string::npos) << d.diff.text;
}

TEST_F(BundledInspect, DiffOfAnUntouchedCopyIsEmpty) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  write_text(copy_of("tools/alpha") / ".DS_Store", "finder");
  const BundledDiff d = diff_ok("alpha");
  EXPECT_TRUE(d.identical);
  EXPECT_EQ(*d.state, CopyState::matches_bundled);
  EXPECT_TRUE(d.diff.files.empty());
  EXPECT_TRUE(d.diff.text.empty());
}

TEST_F(BundledInspect, DiffOfAPristineCopyWhenUpstreamMovedOnSaysSo) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  bundle("tools/alpha", "alpha", "v2");
  const BundledDiff d = diff_ok("alpha");
  EXPECT_EQ(*d.state, CopyState::pristine);
  EXPECT_NE(d.diff.text.find("-v2"), std::string::npos);
  EXPECT_NE(d.diff.text.find("+v1"), std::string::npos);
}

TEST_F(BundledInspect, DiffRefusesWhatIsNotBundledDeletedOrSymlinked) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  sync_ok();

  auto d = diff_bundled_skill(m_ctx, "nobody", m_bundled);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::not_found);
  EXPECT_NE(d.error().message.find("not a bundled skill"), std::string::npos);

  fs::remove_all(copy_of("tools/alpha"));
  d = diff_bundled_skill(m_ctx, "alpha", m_bundled);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::not_found);
  EXPECT_NE(d.error().message.find("no copy"), std::string::npos);
  EXPECT_NE(d.error().message.find("skillrt reset alpha"), std::string::npos);

  const fs::path elsewhere = m_tree.mkdir("elsewhere");
  fs::rename(copy_of("tools/beta"), elsewhere / "beta");
  fs::create_directory_symlink(elsewhere / "beta", copy_of("tools/beta"));
  d = diff_bundled_skill(m_ctx, "beta", m_bundled);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::refused);
  EXPECT_NE(d.error().message.find("symlink"), std::string::npos);

  fs::remove_all(m_bundled / "tools" / "beta");
  d = diff_bundled_skill(m_ctx, "beta", m_bundled);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("no longer bundled"), std::string::npos);
}

TEST_F(BundledInspect, DiffOfAnUntrackedSameNameSkillHasNoState) {
  bundle("tools/alpha", "alpha", "shipped");
  write_text(copy_of("tools/alpha") / "SKILL.md", test::skill_md("alpha", "my own"));
  sync_ok();
  const BundledDiff d = diff_ok("alpha");
  EXPECT_FALSE(d.tracked);
  EXPECT_FALSE(d.state);
  EXPECT_FALSE(d.identical);
  EXPECT_EQ(d.diff.files.size(), 1U);
}

// ---- user-modified list ---------------------------------------------------------------------------

TEST_F(BundledInspect, ListsOnlyTrackedCopiesTheUserChanged) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  bundle("tools/gamma", "gamma");
  bundle("tools/delta", "delta", "v1");
  write_text(copy_of("tools/mine/SKILL.md"), test::skill_md("mine", "not bundled"));
  sync_ok();
  write_text(copy_of("tools/alpha/SKILL.md"), test::skill_md("alpha", "edited"));
  fs::remove_all(copy_of("tools/beta"));                // user-deleted: not listed
  bundle("tools/delta", "delta", "v2");                 // pristine, upstream moved on: not listed
  write_text(copy_of("tools/mine/SKILL.md"), "edited"); // not bundled: not listed
  EXPECT_EQ(modified_names(), (Strings{"alpha"}));
}

TEST_F(BundledInspect, AnUncheckableOriginCountsAsModifiedUnlessTheCopyIsTheBundledVersion) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  bundle("tools/gamma", "gamma");
  sync_ok();
  write_text(copy_of("tools/alpha/SKILL.md"), test::skill_md("alpha", "edited before the migration"));
  write_text(copy_of("tools/gamma/SKILL.md"), test::skill_md("gamma", "edited too"));
  // alpha: v1 line; beta: v1 line but identical; gamma: a Hermes MD5.
  write_manifest("alpha\nbeta\ngamma:" + std::string(32, 'f') + "\n");
  auto r = list_user_modified_bundled_skills(m_ctx, m_bundled);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->modified.size(), 2U);
  EXPECT_EQ(r->modified[0].name, "alpha");
  EXPECT_FALSE(r->modified[0].origin_known);
  EXPECT_EQ(r->modified[1].name, "gamma");
  EXPECT_EQ(r->total_bundled, 3U);
  // The same verdict as sync's.
  EXPECT_EQ(sync_ok().user_modified, (Strings{"alpha", "gamma"}));
}

TEST_F(BundledInspect, ASymlinkedCopyIsReportedNotJudged) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  const fs::path elsewhere = m_tree.mkdir("elsewhere");
  fs::rename(copy_of("tools"), elsewhere / "tools");
  fs::create_directory_symlink(elsewhere / "tools", copy_of("tools")); // a symlinked category
  write_text(elsewhere / "tools" / "alpha" / "SKILL.md", "changed");
  auto r = list_user_modified_bundled_skills(m_ctx, m_bundled);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->modified.empty());
  EXPECT_EQ(r->symlinked, (Strings{"alpha"}));
}

// ---- opt-out ------------------------------------------------------------------------------------

TEST_F(BundledInspect, OptOutRoundTripWithFixedMessages) {
  const fs::path marker = opt_out_marker_path(m_ctx);
  auto r = set_bundled_opt_out(m_ctx, false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, OptOutAction::not_opted_out);
  EXPECT_EQ(r->message, "bundled skills were not opted out");
  EXPECT_FALSE(r->changed);

  r = set_bundled_opt_out(m_ctx, true);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, OptOutAction::opted_out);
  EXPECT_TRUE(r->opted_out);
  EXPECT_TRUE(r->changed);
  EXPECT_TRUE(fs::is_regular_file(marker));
  EXPECT_EQ(r->marker, marker);

  const std::string text = read_text(marker);
  r = set_bundled_opt_out(m_ctx, true);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, OptOutAction::already_opted_out);
  EXPECT_EQ(r->message, "bundled skills are already opted out");
  EXPECT_FALSE(r->changed);
  EXPECT_EQ(read_text(marker), text);

  // Sync sees the marker.
  bundle("skillrt/using-skillrt", "using-skillrt");
  bundle("tools/alpha", "alpha");
  const SyncResult synced = sync_ok();
  EXPECT_TRUE(synced.skipped_opt_out);
  EXPECT_EQ(synced.copied, (Strings{"using-skillrt"}));

  r = set_bundled_opt_out(m_ctx, false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, OptOutAction::opted_in);
  EXPECT_FALSE(r->opted_out);
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_EQ(sync_ok().copied, (Strings{"alpha"}));
}

TEST_F(BundledInspect, OptOutNeedsTheSharedLayerWritePermission) {
  m_ctx.user_id = "alice";
  m_ctx.org_id = "7";
  auto r = set_bundled_opt_out(m_ctx, true);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(opt_out_marker_path(m_ctx)));
  m_ctx.user_id.reset();
  m_ctx.anonymous = true;
  EXPECT_FALSE(set_bundled_opt_out(m_ctx, true));
  m_ctx.anonymous = false;
  m_ctx.user_id = "root-admin";
  m_ctx.org_id = "0";
  ASSERT_TRUE(set_bundled_opt_out(m_ctx, true));
  // Removing is refused too.
  m_ctx.org_id = "7";
  auto off = set_bundled_opt_out(m_ctx, false);
  ASSERT_FALSE(off);
  EXPECT_EQ(off.error().code, ErrorCode::refused);
  EXPECT_TRUE(fs::exists(opt_out_marker_path(m_ctx)));
}

// ---- prune --------------------------------------------------------------------------------------

TEST_F(BundledInspect, PruneRemovesOnlyTrackedBundledCopiesIdenticalToTheShippedVersion) {
  bundle("tools/alpha", "alpha");       // pristine: removed
  bundle("tools/beta", "beta");         // edited: kept
  bundle("tools/gamma", "gamma", "v1"); // pristine but outdated: kept (not the shipped version)
  bundle("tools/delta", "delta");       // a same-name skill of the user's own: never tracked
  bundle("tools/epsilon", "epsilon");   // no longer bundled: kept
  write_text(copy_of("tools/delta/SKILL.md"), test::skill_md("delta", "mine"));
  write_text(m_bundled / "tools" / "DESCRIPTION.md", "Tools.\n");
  sync_ok();
  write_text(copy_of("tools/beta/SKILL.md"), test::skill_md("beta", "edited"));
  bundle("tools/gamma", "gamma", "v2");
  fs::remove_all(m_bundled / "tools" / "epsilon");
  write_text(copy_of("tools/alpha/__pycache__/a.pyc"), "cache"); // does not make it "changed"
  const auto manifest_before = manifest();

  const PruneResult r = prune_ok(false);
  EXPECT_FALSE(r.dry_run);
  EXPECT_EQ(removed_names(r), (Strings{"alpha"}));
  EXPECT_EQ(r.removed[0].path, copy_of("tools/alpha"));
  EXPECT_EQ(r.kept_differing, (Strings{"beta", "gamma"}));
  EXPECT_TRUE(r.errors.empty());
  EXPECT_FALSE(fs::exists(copy_of("tools/alpha")));
  for (const char* kept : {"tools/beta", "tools/gamma", "tools/delta", "tools/epsilon", "tools/DESCRIPTION.md"}) {
    EXPECT_TRUE(fs::exists(copy_of(kept))) << kept;
  }
  EXPECT_EQ(manifest(), manifest_before); // entries kept: that is what makes the removal stick
}

TEST_F(BundledInspect, PruneThenSyncDoesNotBringTheCopiesBack) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  sync_ok();
  EXPECT_EQ(removed_names(prune_ok(false)), (Strings{"alpha", "beta"}));
  const SyncResult again = sync_ok();
  EXPECT_TRUE(again.copied.empty());
  EXPECT_EQ(again.skipped, 2U);
  EXPECT_FALSE(fs::exists(copy_of("tools/alpha")));
  // reset brings one back.
  auto r = reset("alpha", false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->action, ResetAction::manifest_cleared);
  EXPECT_TRUE(fs::exists(copy_of("tools/alpha/SKILL.md")));
}

TEST_F(BundledInspect, PruneDryRunWritesNothing) {
  bundle("tools/alpha", "alpha");
  bundle("tools/beta", "beta");
  sync_ok();
  write_text(copy_of("tools/beta/SKILL.md"), test::skill_md("beta", "edited"));
  const auto before = home_files();
  EventBus bus;
  int events = 0;
  auto subscription = bus.subscribe(std::nullopt, [&](const SkillEvent&) { ++events; });
  m_ctx.events = &bus;
  const PruneResult r = prune_ok(true);
  EXPECT_TRUE(r.dry_run);
  EXPECT_EQ(removed_names(r), (Strings{"alpha"}));
  EXPECT_EQ(r.kept_differing, (Strings{"beta"}));
  EXPECT_EQ(home_files(), before);
  EXPECT_EQ(events, 0);
  // The real run removes exactly what the dry run announced.
  EXPECT_EQ(removed_names(prune_ok(false)), (Strings{"alpha"}));
  EXPECT_EQ(events, 1);
}

TEST_F(BundledInspect, PruneNeverTouchesASymlinkedCopyOrItsTarget) {
  bundle("tools/alpha", "alpha");
  bundle("other/beta", "beta");
  sync_ok();
  const fs::path elsewhere = m_tree.mkdir("elsewhere");
  fs::rename(copy_of("tools/alpha"), elsewhere / "alpha");
  fs::create_directory_symlink(elsewhere / "alpha", copy_of("tools/alpha")); // the skill folder itself
  fs::rename(copy_of("other"), elsewhere / "other");
  fs::create_directory_symlink(elsewhere / "other", copy_of("other")); // its category
  const auto outside = snapshot(elsewhere);
  const PruneResult r = prune_ok(false);
  EXPECT_TRUE(r.removed.empty());
  EXPECT_EQ(r.symlinked, (Strings{"beta", "alpha"})); // bundled path order
  EXPECT_EQ(snapshot(elsewhere), outside);
  EXPECT_TRUE(fs::is_symlink(copy_of("tools/alpha")));
  EXPECT_TRUE(fs::is_symlink(copy_of("other")));
}

TEST_F(BundledInspect, PruneNeedsPermissionAndPublishesDeletedEvents) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  m_ctx.user_id = "alice";
  m_ctx.org_id = "7";
  auto refused = remove_pristine_bundled_skills(m_ctx, m_bundled, false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
  EXPECT_TRUE(fs::exists(copy_of("tools/alpha")));
  // The read-only operations are open to any reader of the shared layer.
  EXPECT_TRUE(list_user_modified_bundled_skills(m_ctx, m_bundled));
  EXPECT_TRUE(diff_bundled_skill(m_ctx, "alpha", m_bundled));

  m_ctx.user_id.reset();
  m_ctx.org_id.clear();
  EventBus bus;
  std::vector<SkillEvent> seen;
  auto subscription = bus.subscribe(std::nullopt, [&](const SkillEvent& e) { seen.push_back(e); });
  m_ctx.events = &bus;
  prune_ok(false);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].kind, ChangeKind::deleted);
  EXPECT_EQ(seen[0].layer, Layer::shared);
  EXPECT_EQ(seen[0].name, "alpha");
  EXPECT_EQ(seen[0].location, (copy_of("tools/alpha") / "SKILL.md").string());
}

TEST_F(BundledInspect, PruneRefusesABundledFolderInsideTheSkillsFolder) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  // Pointing --bundled at HOME/skills would make every copy "identical" to itself.
  auto r = remove_pristine_bundled_skills(m_ctx, skills(), false);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_TRUE(fs::exists(copy_of("tools/alpha/SKILL.md")));
}

TEST_F(BundledInspect, PruneOnAHomeWithoutSkillsCreatesNothing) {
  bundle("tools/alpha", "alpha");
  const PruneResult r = prune_ok(true);
  EXPECT_TRUE(r.removed.empty());
  EXPECT_FALSE(fs::exists(skills()));
}

} // namespace
} // namespace skillrt::core::sync
