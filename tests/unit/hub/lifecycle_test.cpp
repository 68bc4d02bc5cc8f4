// After install: uninstall (hub-installed only), check (statuses), update
// (skips locally modified skills unless forced, rejudges the new bundle,
// shows the diff), audit (rescan, drift, missing folders, untracked skills).
#include <gtest/gtest.h>

#include "core/hub/audit.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/check.hpp"
#include "core/hub/install.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/uninstall.hpp"
#include "core/hub/update.hpp"
#include "core/files/read_file.hpp"
#include "hub_fixture.hpp"

namespace skillrt::core::hub {
namespace {

using test::FolderCopyFetcher;
using test::HubWorld;
using test::write_skill;
namespace fs = std::filesystem;

void install_ok(HubWorld& world, const fs::path& source, const std::string& category = "") {
  FolderCopyFetcher fetcher;
  InstallRequest request;
  request.source = source.string();
  request.category = category.empty() ? "." : category;  // the root, as these tests expect
  const InstallOutcome out = install_skills(world.ctx, Config{}, fetcher, request, nullptr);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.skills.at(0).reason);
}

LockFile lock_of(const fs::path& root) {
  auto lock = read_lock_file(root / ".hub" / "lock.json");
  return lock ? *lock : LockFile{};
}

std::string read(const fs::path& p) {
  auto text = read_regular_file(p, 1 << 20);
  return text ? *text : std::string();
}

const CheckRow* row_named(const CheckOutcome& out, const std::string& name) {
  for (const CheckRow& r : out.rows) {
    if (r.name == name) {
      return &r;
    }
  }
  return nullptr;
}

// --- uninstall ---

TEST(Uninstall, RemovesTheFolderTheLockEntryAndAuditsIt) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"), "tools");
  world.events.clear();
  const UninstallOutcome out = uninstall_skill(world.ctx, "demo", false);
  ASSERT_TRUE(out.success) << out.error->message;
  EXPECT_FALSE(fs::exists(world.shared_root() / "tools" / "demo"));
  EXPECT_EQ(lock_of(world.shared_root()).installed.count("demo"), 0u);
  EXPECT_NE(read(world.shared_root() / ".hub" / "audit.log").find(" UNINSTALL demo "), std::string::npos);
  EXPECT_NE(read(world.shared_root() / ".hub" / "audit.log").find("n/a user_request"), std::string::npos);
  ASSERT_EQ(world.events.size(), 1u);
  EXPECT_EQ(world.events[0].kind, ChangeKind::deleted);
}

TEST(Uninstall, OnlyHubInstalledSkills) {
  HubWorld world;
  write_skill(world.tree, "home/skills/mine", "mine");
  const UninstallOutcome out = uninstall_skill(world.ctx, "mine", false);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::not_found);
  EXPECT_NE(out.error->message.find("not a hub-installed skill"), std::string::npos);
  EXPECT_TRUE(fs::exists(world.shared_root() / "mine" / "SKILL.md"));
}

TEST(Uninstall, RefusesATamperedInstallPath) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  LockFile lock = lock_of(world.shared_root());
  lock.installed["demo"].install_path = "../../outside/demo";
  ASSERT_TRUE(write_lock_file(world.shared_root() / ".hub" / "lock.json", lock));
  const UninstallOutcome out = uninstall_skill(world.ctx, "demo", false);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::refused);
  EXPECT_TRUE(fs::exists(world.shared_root() / "demo"));
}

TEST(Uninstall, AnotherUsersInstallIsNotTheirs) {
  HubWorld alice("alice", "acme");
  install_ok(alice, write_skill(alice.tree, "src/demo", "demo"));
  Context bob = alice.ctx;
  bob.user_id = "bob";
  const UninstallOutcome out = uninstall_skill(bob, "demo", false);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::not_found);
  EXPECT_TRUE(fs::exists(alice.user_root() / "demo"));
}

// --- check ---

TEST(Check, ReportsEveryStatus) {
  HubWorld world;
  const fs::path same = write_skill(world.tree, "src/same", "same");
  const fs::path changed = write_skill(world.tree, "src/changed", "changed");
  const fs::path edited = write_skill(world.tree, "src/edited", "edited");
  const fs::path gone = write_skill(world.tree, "src/gone", "gone");
  const fs::path vanished = write_skill(world.tree, "src/vanished", "vanished");
  const fs::path both = write_skill(world.tree, "src/both", "both");
  for (const fs::path& p : {same, changed, edited, gone, vanished, both}) {
    install_ok(world, p);
  }
  write_skill(world.tree, "src/changed", "changed", {}, "Upstream moved on.\n");
  world.tree.write("home/skills/edited/SKILL.md", read(world.shared_root() / "edited/SKILL.md") + "local edit\n");
  fs::remove_all(world.shared_root() / "gone");
  fs::remove_all(vanished);
  write_skill(world.tree, "src/both", "both", {}, "Upstream moved on.\n");
  world.tree.write("home/skills/both/notes.md", "local\n");

  FolderCopyFetcher fetcher;
  const CheckOutcome out = check_installed(world.ctx, fetcher, std::nullopt, false, true, nullptr);
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.rows.size(), 6u);
  EXPECT_EQ(row_named(out, "same")->status, CheckStatus::up_to_date);
  EXPECT_EQ(row_named(out, "changed")->status, CheckStatus::update_available);
  EXPECT_NE(row_named(out, "changed")->latest_hash, row_named(out, "changed")->recorded_hash);
  EXPECT_EQ(row_named(out, "edited")->status, CheckStatus::locally_modified);
  EXPECT_EQ(row_named(out, "edited")->upstream, UpstreamStatus::up_to_date);
  EXPECT_EQ(row_named(out, "gone")->status, CheckStatus::missing);
  EXPECT_EQ(row_named(out, "vanished")->status, CheckStatus::unavailable);
  const CheckRow* b = row_named(out, "both");
  EXPECT_TRUE(b->locally_modified);
  EXPECT_EQ(b->upstream, UpstreamStatus::update_available);

  // Offline: no fetch at all.
  FolderCopyFetcher counting;
  const CheckOutcome offline = check_installed(world.ctx, counting, std::string("changed"), false, false, nullptr);
  ASSERT_EQ(offline.rows.size(), 1u);
  EXPECT_EQ(offline.rows[0].status, CheckStatus::up_to_date);
  EXPECT_EQ(counting.calls, 0);
}

// A reader outside the owner org may check the shared root, but fetches
// into a private temporary folder: nothing is written into a layer it may not
// write, not even for a moment.
TEST(Check, AnOutsiderChecksTheSharedRootWithoutWritingIntoIt) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/same", "same"));
  core::Context outsider = world.ctx;
  outsider.user_id = "mallory";
  outsider.org_id = "acme";
  FolderCopyFetcher fetcher;
  const CheckOutcome out = check_installed(outsider, fetcher, std::nullopt, true, true, nullptr);
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].status, CheckStatus::up_to_date);
  ASSERT_EQ(fetcher.stagings.size(), 1u);
  const std::string staging = fetcher.stagings[0].lexically_normal().string();
  EXPECT_EQ(staging.find(world.ctx.home.lexically_normal().string()), std::string::npos) << staging;
  EXPECT_FALSE(fs::exists(fetcher.stagings[0]));  // removed afterwards
}

TEST(Check, InvalidInstallRecord) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  LockFile lock = lock_of(world.shared_root());
  lock.installed["demo"].install_path = "/etc/demo";
  ASSERT_TRUE(write_lock_file(world.shared_root() / ".hub" / "lock.json", lock));
  FolderCopyFetcher fetcher;
  const CheckOutcome out = check_installed(world.ctx, fetcher, std::nullopt, false, true, nullptr);
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].status, CheckStatus::invalid_install);
}

TEST(Check, UnknownNameIsNotFound) {
  HubWorld world;
  FolderCopyFetcher fetcher;
  const CheckOutcome out = check_installed(world.ctx, fetcher, std::string("nope"), false, true, nullptr);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::not_found);
}

// --- update ---

UpdateOutcome update(HubWorld& world, UpdateRequest request = {}) {
  FolderCopyFetcher fetcher;
  return update_skills(world.ctx, Config{}, fetcher, request, nullptr);
}

TEST(Update, ReplacesAnUnmodifiedSkillAndShowsTheDiff) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo", {}, "Step one.\n");
  install_ok(world, src, "tools");
  const LockEntry before = lock_of(world.shared_root()).installed.at("demo");
  write_skill(world.tree, "src/demo", "demo", {{"references/new.md", "New file.\n"}}, "Step one, improved.\n");
  world.events.clear();
  const UpdateOutcome out = update(world);
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::updated) << out.skills[0].reason;
  ASSERT_TRUE(out.skills[0].diff);
  EXPECT_NE(out.skills[0].diff->text.find("-Step one.\n+Step one, improved.\n"), std::string::npos)
      << out.skills[0].diff->text;
  EXPECT_NE(out.skills[0].diff->text.find("+++ b/references/new.md"), std::string::npos);
  EXPECT_NE(read(world.shared_root() / "tools/demo/SKILL.md").find("improved"), std::string::npos);
  const LockEntry after = lock_of(world.shared_root()).installed.at("demo");
  EXPECT_NE(after.content_hash, before.content_hash);
  EXPECT_EQ(after.content_hash, build_bundle_manifest(world.shared_root() / "tools/demo")->content_hash);
  EXPECT_EQ(after.installed_at, before.installed_at);
  EXPECT_EQ(after.install_path, "tools/demo");
  EXPECT_NE(read(world.shared_root() / ".hub/audit.log").find(" UPDATE demo "), std::string::npos);
  ASSERT_EQ(world.events.size(), 1u);
  EXPECT_EQ(world.events[0].kind, ChangeKind::updated);
}

TEST(Update, SkipsALocallyModifiedSkillUnlessForced) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo", {}, "Upstream v1.\n");
  install_ok(world, src);
  world.tree.write("home/skills/demo/my-notes.md", "precious local notes\n");
  write_skill(world.tree, "src/demo", "demo", {}, "Upstream v2.\n");

  UpdateOutcome out = update(world);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::skipped_modified);
  EXPECT_TRUE(fs::exists(world.shared_root() / "demo/my-notes.md"));
  EXPECT_NE(read(world.shared_root() / "demo/SKILL.md").find("v1"), std::string::npos);

  UpdateRequest dry;
  dry.force = true;
  dry.dry_run = true;
  out = update(world, dry);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::would_update);
  EXPECT_NE(out.skills[0].diff->text.find("--- a/my-notes.md\n+++ /dev/null"), std::string::npos);
  EXPECT_TRUE(fs::exists(world.shared_root() / "demo/my-notes.md"));

  UpdateRequest forced;
  forced.force = true;
  out = update(world, forced);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::updated);
  EXPECT_FALSE(fs::exists(world.shared_root() / "demo/my-notes.md"));
  EXPECT_NE(read(world.shared_root() / "demo/SKILL.md").find("v2"), std::string::npos);
}

TEST(Update, NewVersionGoesThroughTheGuardAgain) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  install_ok(world, src);
  write_skill(world.tree, "src/demo", "demo", {test::k_dangerous_script});
  const UpdateOutcome out = update(world);
  EXPECT_FALSE(out.success);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::blocked);
  EXPECT_FALSE(fs::exists(world.shared_root() / "demo/scripts/setup.sh"));
  EXPECT_NE(read(world.shared_root() / ".hub/audit.log").find(" BLOCKED demo "), std::string::npos);
}

TEST(Update, UpToDateChangesNothing) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  world.events.clear();
  const UpdateOutcome out = update(world);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::up_to_date);
  EXPECT_TRUE(world.events.empty());
}

TEST(Update, OnlyTheNamedSkill) {
  HubWorld world;
  const fs::path a = write_skill(world.tree, "src/a", "a");
  const fs::path b = write_skill(world.tree, "src/b", "b");
  install_ok(world, a);
  install_ok(world, b);
  write_skill(world.tree, "src/a", "a", {}, "new a\n");
  write_skill(world.tree, "src/b", "b", {}, "new b\n");
  UpdateRequest request;
  request.name = "a";
  const UpdateOutcome out = update(world, request);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::updated);
  EXPECT_EQ(read(world.shared_root() / "b/SKILL.md").find("new b"), std::string::npos);
}

TEST(Update, SourceGoneOrSkillDroppedIsUnavailable) {
  HubWorld world;
  write_skill(world.tree, "src/repo/a", "a");
  write_skill(world.tree, "src/repo/b", "b");
  install_ok(world, world.tree.path() / "src/repo");
  fs::remove_all(world.tree.path() / "src/repo/b");
  write_skill(world.tree, "src/repo/a", "a", {}, "new a\n");
  FolderCopyFetcher fetcher;
  const UpdateOutcome out = update_skills(world.ctx, Config{}, fetcher, UpdateRequest{}, nullptr);
  EXPECT_FALSE(out.success);
  ASSERT_EQ(out.skills.size(), 2u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::updated);
  EXPECT_EQ(out.skills[1].status, UpdateStatus::unavailable);
  EXPECT_NE(out.skills[1].reason.find("no longer holds"), std::string::npos);
  EXPECT_EQ(fetcher.calls, 1);                                     // one fetch for the two skills of one source
  EXPECT_TRUE(fs::exists(world.shared_root() / "b" / "SKILL.md")); // kept as it was
}

TEST(Update, RequireSignatureAppliesToTheNewVersion) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  write_skill(world.tree, "src/demo", "demo", {}, "v2\n");
  UpdateRequest request;
  request.require_signature = true;
  const UpdateOutcome out = update(world, request);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].status, UpdateStatus::blocked);
  EXPECT_EQ(read(world.shared_root() / "demo/SKILL.md").find("v2"), std::string::npos);
}

// --- audit ---

TEST(Audit, CleanInstallHasNoIssues) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  const AuditOutcome out = audit_installed(world.ctx, Config{}, false, nullptr);
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_TRUE(out.rows[0].issues.empty());
  EXPECT_FALSE(out.rows[0].drift);
  EXPECT_NE(read(world.shared_root() / ".hub/audit.log").find(" AUDIT demo "), std::string::npos);
}

TEST(Audit, ReportsDriftRescanMissingAndUntracked) {
  HubWorld world;
  install_ok(world, write_skill(world.tree, "src/demo", "demo"));
  install_ok(world, write_skill(world.tree, "src/gone", "gone"));
  // Changed on disk after install, with content today's guard rates dangerous.
  world.tree.write("home/skills/demo/" + test::k_dangerous_script.first, test::k_dangerous_script.second);
  fs::remove_all(world.shared_root() / "gone");
  write_skill(world.tree, "home/skills/hand-made", "hand-made");

  const AuditOutcome out = audit_installed(world.ctx, Config{}, false, nullptr);
  EXPECT_FALSE(out.success);
  ASSERT_EQ(out.rows.size(), 2u);
  const AuditRow& demo = out.rows[0].name == "demo" ? out.rows[0] : out.rows[1];
  const AuditRow& gone = out.rows[0].name == "gone" ? out.rows[0] : out.rows[1];
  EXPECT_TRUE(demo.drift);
  ASSERT_TRUE(demo.scan);
  EXPECT_EQ(demo.scan->verdict, Verdict::dangerous);
  EXPECT_TRUE(demo.verdict_changed);
  EXPECT_EQ(demo.policy->decision, InstallDecision::block);
  EXPECT_TRUE(gone.missing);
  EXPECT_EQ(out.untracked, std::vector<std::string>{"hand-made"});
  EXPECT_GE(out.issue_count, 4u);
}

// What running a skill leaves behind is not a local change: check, update
// and audit all read the same manifest, which leaves runtime caches out.
TEST(RuntimeCaches, NeverMakeAnInstalledSkillModified) {
  HubWorld world;
  const fs::path src =
      write_skill(world.tree, "src/pytool", "pytool", {{"scripts/helper.py", "def greet():\n    return 1\n"}});
  install_ok(world, src);
  world.tree.write("home/skills/pytool/scripts/__pycache__/helper.cpython-311.pyc", "bytecode");
  world.tree.write("home/skills/pytool/scripts/helper.pyc", "bytecode");
  world.tree.write("home/skills/pytool/.DS_Store", "finder");
  world.tree.write("home/skills/pytool/.pytest_cache/v/cache/nodeids", "[]");

  FolderCopyFetcher fetcher;
  const CheckOutcome checked = check_installed(world.ctx, fetcher, std::nullopt, false, false, nullptr);
  ASSERT_EQ(checked.rows.size(), 1u);
  EXPECT_EQ(checked.rows[0].status, CheckStatus::up_to_date);
  EXPECT_FALSE(checked.rows[0].locally_modified);

  const AuditOutcome audited = audit_installed(world.ctx, Config{}, false, nullptr);
  ASSERT_EQ(audited.rows.size(), 1u);
  EXPECT_FALSE(audited.rows[0].drift);

  write_skill(world.tree, "src/pytool", "pytool", {{"scripts/helper.py", "def greet():\n    return 2\n"}});
  const UpdateOutcome updated = update(world);
  ASSERT_EQ(updated.skills.size(), 1u);
  EXPECT_EQ(updated.skills[0].status, UpdateStatus::updated);
  ASSERT_TRUE(updated.skills[0].diff);
  EXPECT_EQ(updated.skills[0].diff->text.find("__pycache__"), std::string::npos);
  EXPECT_EQ(updated.skills[0].diff->text.find(".DS_Store"), std::string::npos);
  EXPECT_NE(read(world.shared_root() / "pytool/scripts/helper.py").find("return 2"), std::string::npos);

  // A real edit still counts.
  world.tree.write("home/skills/pytool/scripts/helper.py", "def greet():\n    return 3\n");
  const CheckOutcome edited = check_installed(world.ctx, fetcher, std::nullopt, false, false, nullptr);
  ASSERT_EQ(edited.rows.size(), 1u);
  EXPECT_EQ(edited.rows[0].status, CheckStatus::locally_modified);
}

TEST(Audit, CorruptLockIsAnError) {
  HubWorld world;
  world.tree.write("home/skills/.hub/lock.json", "[]");
  const AuditOutcome out = audit_installed(world.ctx, Config{}, false, nullptr);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::parse_error);
}

} // namespace
} // namespace skillrt::core::hub
