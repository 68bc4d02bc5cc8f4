// `reset NAME [--restore]` (spec §2.13 rule 11): every action word.
#include "core/sync/bundled_reset.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "sync_fixture.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::snapshot;
using test::write_text;

class BundledReset : public test::SyncFixture {
protected:
  ResetResult reset_ok(const std::string& name, bool restore) {
    auto r = reset(name, restore);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : ResetResult{};
  }

  fs::path edit_alpha() {
    const fs::path mine = skills() / "tools" / "alpha" / "SKILL.md";
    write_text(mine, read_text(mine) + "mine\n");
    return mine;
  }
};

TEST_F(BundledReset, AnUnknownNameIsNotInTheManifest) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  const ResetResult r = reset_ok("nobody", false);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::not_in_manifest);
  EXPECT_NE(r.message.find("not a tracked bundled skill"), std::string::npos);
  EXPECT_FALSE(r.synced);
}

TEST_F(BundledReset, RestoringASkillNoLongerBundledIsRefused) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  fs::remove_all(m_bundled / "tools" / "alpha");
  const ResetResult r = reset_ok("alpha", true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::bundled_missing);
  EXPECT_TRUE(fs::exists(skills() / "tools" / "alpha" / "SKILL.md"));
}

TEST_F(BundledReset, RestoreReplacesTheUserCopyWithTheBundledVersion) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  edit_alpha();
  write_text(skills() / "tools" / "alpha" / "extra.md", "mine too\n");
  bundle("tools/alpha", "alpha", "v2");
  EXPECT_EQ(sync_ok().user_modified, (std::vector<std::string>{"alpha"}));
  const ResetResult r = reset_ok("alpha", true);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.action, ResetAction::restored);
  ASSERT_TRUE(r.synced);
  EXPECT_EQ(r.synced->updated, (std::vector<std::string>{"alpha"})); // swapped in, not deleted and copied
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
  EXPECT_EQ(manifest().at("alpha"), hash(a));
}

// The user's copy goes only once the bundled version is in its place: a
// restore that cannot copy leaves the copy, and its tracking, as they were.
TEST_F(BundledReset, ARestoreThatCannotCopyLeavesTheUserCopy) {
  const fs::path a = bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  edit_alpha();
  const auto mine = snapshot(skills() / "tools" / "alpha");
  const std::string origin = manifest().at("alpha");
  ASSERT_EQ(::mkfifo((a / "pipe").c_str(), 0600), 0); // the copy of the bundled version fails
  const ResetResult r = reset_ok("alpha", true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::not_reset);
  EXPECT_NE(r.message.find("left as it was"), std::string::npos) << r.message;
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), mine);
  EXPECT_EQ(manifest().at("alpha"), origin);
  fs::remove(a / "pipe");
  EXPECT_EQ(reset_ok("alpha", true).action, ResetAction::restored);
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
}

TEST_F(BundledReset, RestoreBringsBackAUserDeletedSkill) {
  const fs::path a = bundle("tools/alpha", "alpha");
  sync_ok();
  fs::remove_all(skills() / "tools" / "alpha");
  const ResetResult r = reset_ok("alpha", true);
  EXPECT_EQ(r.action, ResetAction::restored);
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
}

TEST_F(BundledReset, WithoutRestoreADivergingCopyIsRefusedAndUntouched) {
  bundle("tools/alpha", "alpha", "v1");
  sync_ok();
  const fs::path mine = edit_alpha();
  const std::string edited = read_text(mine);
  const std::string origin = manifest().at("alpha");
  const ResetResult r = reset_ok("alpha", false);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::refused_copy_diverges);
  EXPECT_NE(r.message.find("--restore"), std::string::npos);
  EXPECT_EQ(read_text(mine), edited);
  EXPECT_EQ(manifest().at("alpha"), origin);
}

TEST_F(BundledReset, WithoutRestoreAnIdenticalCopyIsRebaselined) {
  const fs::path a = bundle("tools/alpha", "alpha");
  sync_ok();
  write_manifest("alpha\n"); // a v1 entry
  const ResetResult r = reset_ok("alpha", false);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.action, ResetAction::manifest_cleared);
  EXPECT_EQ(manifest().at("alpha"), hash(a));
}

TEST_F(BundledReset, WithoutRestoreAUserDeletedSkillIsCopiedAgain) {
  const fs::path a = bundle("tools/alpha", "alpha");
  sync_ok();
  fs::remove_all(skills() / "tools" / "alpha");
  const ResetResult r = reset_ok("alpha", false);
  EXPECT_EQ(r.action, ResetAction::manifest_cleared);
  ASSERT_TRUE(r.synced);
  EXPECT_EQ(r.synced->copied, (std::vector<std::string>{"alpha"}));
  EXPECT_EQ(snapshot(skills() / "tools" / "alpha"), snapshot(a));
}

TEST_F(BundledReset, ANameNoLongerBundledIsNotRebaselined) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  fs::remove_all(m_bundled / "tools" / "alpha");
  const ResetResult r = reset_ok("alpha", false);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::not_rebaselined);
  EXPECT_EQ(manifest().count("alpha"), 0U);
  EXPECT_TRUE(fs::exists(skills() / "tools" / "alpha" / "SKILL.md")); // the copy itself stays
}

TEST_F(BundledReset, ACopyThatCannotBeDeletedIsNotReset) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  // The category now resolves outside HOME/skills: deleting through it is refused.
  const fs::path elsewhere = m_tree.mkdir("elsewhere");
  fs::rename(skills() / "tools", elsewhere / "tools");
  fs::create_directory_symlink(elsewhere / "tools", skills() / "tools");
  const std::string origin = manifest().at("alpha");
  const ResetResult r = reset_ok("alpha", true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.action, ResetAction::not_reset);
  EXPECT_NE(r.message.find("left as it was"), std::string::npos) << r.message;
  EXPECT_TRUE(fs::exists(elsewhere / "tools" / "alpha" / "SKILL.md"));
  EXPECT_EQ(manifest().at("alpha"), origin);
}

TEST_F(BundledReset, IsRefusedOutsideTheOwnerOrg) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  fs::remove_all(skills() / "tools" / "alpha");
  m_ctx.user_id = "bob";
  m_ctx.org_id = "5";
  auto r = reset("alpha", true);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(skills() / "tools" / "alpha"));
}

TEST_F(BundledReset, ABundledFolderInsideTheSkillsFolderIsRefusedBeforeAnythingChanges) {
  bundle("tools/alpha", "alpha");
  sync_ok();
  const fs::path mine = edit_alpha();
  const std::string edited = read_text(mine);
  const auto before = manifest();
  // --restore against HOME/skills itself would delete the copy and "restore" it from itself.
  m_options.bundled_dir = skills();
  auto r = reset("alpha", true);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(r.error().message.find("overlap"), std::string::npos) << r.error().message;
  EXPECT_EQ(read_text(mine), edited);
  EXPECT_EQ(manifest(), before);
}

} // namespace
} // namespace skillrt::core::sync
