// plugin install through the plugins folder's own quarantine, end to end on
// a real temp home: what lands, what the lock file and audit log record, the
// events per skill, every refusal (a dangerous skill, a dangerous file beside
// the skills, a broken manifest, a clashing namespace, a second install
// without --force), per-user plugins, and a preview that changes nothing.
#include <gtest/gtest.h>

#include "core/discovery/catalog.hpp"
#include "core/files/read_file.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/plugin_install.hpp"
#include "hub_fixture.hpp"

namespace skillrt::core::hub {
namespace {

using test::FolderCopyFetcher;
using test::HubWorld;
using test::write_skill;
namespace fs = std::filesystem;

PluginInstallOutcome install(HubWorld& world, const fs::path& source, PluginInstallRequest request = {}) {
  FolderCopyFetcher fetcher;
  request.source = source.string();
  return install_plugin(world.ctx, Config{}, fetcher, request, nullptr);
}

// A plugin folder at src/<folder> with its manifest and two safe skills.
fs::path write_plugin(HubWorld& world, const std::string& folder, const std::string& ns) {
  world.tree.write("src/" + folder + "/plugin.yaml", "name: " + ns + "\nversion: 1.0.0\ndescription: Test plugin.\n");
  write_skill(world.tree, "src/" + folder + "/skills/review", "review");
  write_skill(world.tree, "src/" + folder + "/skills/lint", "lint");
  return world.tree.path() / "src" / folder;
}

PluginInstallRequest forced() {
  PluginInstallRequest request;
  request.force = true;
  return request;
}

std::string audit_text(const fs::path& root) {
  auto text = read_regular_file(root / ".hub" / "audit.log", 1 << 20);
  return text ? *text : std::string();
}

bool is_empty_dir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_empty(dir, ec);
}

TEST(PluginInstall, ASafePluginLandsUnderItsNamespaceWithLockAuditAndEvents) {
  HubWorld world;
  const fs::path src = write_plugin(world, "dev-tools", "devtools");
  const PluginInstallOutcome out = install(world, src);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.reason);
  const fs::path root = world.ctx.home / "plugins";
  EXPECT_EQ(out.name, "devtools");
  EXPECT_EQ(out.version, "1.0.0");
  EXPECT_EQ(out.path, root / "devtools");
  EXPECT_EQ(out.outcome, SkillOutcome::installed);
  ASSERT_EQ(out.skills.size(), 2u);
  EXPECT_EQ(out.skills[0].name, "devtools:lint");
  EXPECT_EQ(out.skills[0].relative, "skills/lint");
  EXPECT_TRUE(fs::is_regular_file(root / "devtools" / "skills" / "review" / "SKILL.md"));
  EXPECT_TRUE(fs::is_regular_file(root / "devtools" / "plugin.yaml"));
  auto lock = read_lock_file(root / ".hub" / "lock.json");
  ASSERT_TRUE(lock);
  ASSERT_EQ(lock->installed.count("devtools"), 1u);
  const LockEntry& entry = lock->installed.at("devtools");
  EXPECT_EQ(entry.install_path, "devtools");
  EXPECT_EQ(entry.content_hash, out.entry->content_hash);
  EXPECT_NE(std::find(entry.files.begin(), entry.files.end(), "skills/review/SKILL.md"), entry.files.end());
  EXPECT_NE(audit_text(root).find(" INSTALL devtools " + src.string()), std::string::npos);
  EXPECT_TRUE(is_empty_dir(root / ".hub" / "quarantine"));
  ASSERT_EQ(world.events.size(), 2u);
  EXPECT_EQ(world.events[0].name, "devtools:lint");
  EXPECT_EQ(world.events[0].location, (root / "devtools" / "skills" / "lint" / "SKILL.md").string());
  // The catalog now offers its skills, qualified.
  const Catalog catalog = build_catalog(world.ctx, Config{}, CatalogOptions{.use_cache = false});
  ASSERT_EQ(catalog.listed.size(), 2u);
  EXPECT_EQ(catalog.records[catalog.listed[0]].name, "devtools:lint");
}

TEST(PluginInstall, ADangerousSkillBlocksTheWholePlugin) {
  HubWorld world;
  const fs::path src = write_plugin(world, "p", "pk");
  write_skill(world.tree, "src/p/skills/setup", "setup", {test::k_dangerous_script});
  const PluginInstallOutcome out = install(world, src, forced());
  EXPECT_FALSE(out.success);
  EXPECT_FALSE(out.error);
  EXPECT_EQ(out.outcome, SkillOutcome::blocked);
  EXPECT_NE(out.reason.find("skill 'pk:setup'"), std::string::npos) << out.reason;
  EXPECT_FALSE(fs::exists(world.ctx.home / "plugins" / "pk"));
  EXPECT_NE(audit_text(world.ctx.home / "plugins").find(" BLOCKED pk "), std::string::npos);
  EXPECT_TRUE(is_empty_dir(world.ctx.home / "plugins" / ".hub" / "quarantine"));
}

TEST(PluginInstall, ADangerousFileBesideTheSkillsBlocksItToo) {
  HubWorld world;
  const fs::path src = write_plugin(world, "p", "pk");
  world.tree.write("src/p/hooks/post-install.sh", test::k_dangerous_script.second);
  const PluginInstallOutcome out = install(world, src);
  EXPECT_FALSE(out.success);
  EXPECT_NE(out.reason.find("the plugin folder:"), std::string::npos) << out.reason;
  EXPECT_FALSE(fs::exists(world.ctx.home / "plugins" / "pk"));
}

TEST(PluginInstall, ABrokenManifestIsAClearErrorNamingTheFile) {
  HubWorld world;
  world.tree.write("src/bad/plugin.yaml", "name: 'not ok'\n");
  write_skill(world.tree, "src/bad/skills/x", "x");
  const PluginInstallOutcome out = install(world, world.tree.path() / "src" / "bad");
  ASSERT_TRUE(out.error);
  EXPECT_TRUE(out.error->message.starts_with("plugin.yaml: `name` 'not ok' is not a usable namespace"))
      << out.error->message;
  write_skill(world.tree, "src/none/skills/x", "x");
  const PluginInstallOutcome none = install(world, world.tree.path() / "src" / "none");
  ASSERT_TRUE(none.error);
  EXPECT_NE(none.error->message.find("not a plugin"), std::string::npos);
  world.tree.write("src/empty/plugin.yaml", "name: empty\n");
  const PluginInstallOutcome empty = install(world, world.tree.path() / "src" / "empty");
  ASSERT_TRUE(empty.error);
  EXPECT_NE(empty.error->message.find("the plugin has no skills folder"), std::string::npos);
  world.tree.write("src/out/plugin.yaml", "name: out\nskills: ../elsewhere\n");
  const PluginInstallOutcome outside = install(world, world.tree.path() / "src" / "out");
  ASSERT_TRUE(outside.error);
  EXPECT_NE(outside.error->message.find("points outside the plugin folder"), std::string::npos);
  EXPECT_FALSE(fs::exists(world.ctx.home / "plugins" / "out"));
}

TEST(PluginInstall, ANamespaceThatIsACategoryFolderIsRefused) {
  HubWorld world;
  world.tree.mkdir("home/skills/devops");
  const PluginInstallOutcome out = install(world, write_plugin(world, "devops", "devops"));
  ASSERT_TRUE(out.error);
  EXPECT_NE(out.error->message.find("is also the category folder"), std::string::npos);
}

TEST(PluginInstall, ASecondInstallNeedsForceAndKeepsTheFirstDate) {
  HubWorld world;
  const fs::path src = write_plugin(world, "p", "pk");
  const PluginInstallOutcome first = install(world, src);
  ASSERT_TRUE(first.success);
  const PluginInstallOutcome again = install(world, src);
  EXPECT_FALSE(again.success);
  EXPECT_EQ(again.outcome, SkillOutcome::blocked);
  world.tree.write("src/p/skills/review/references/new.md", "New.\n");
  const PluginInstallOutcome again_forced = install(world, src, forced());
  ASSERT_TRUE(again_forced.success) << again_forced.reason;
  EXPECT_EQ(again_forced.outcome, SkillOutcome::reinstalled);
  EXPECT_EQ(again_forced.entry->installed_at, first.entry->installed_at);
  EXPECT_NE(again_forced.entry->content_hash, first.entry->content_hash);
  EXPECT_TRUE(fs::exists(world.ctx.home / "plugins" / "pk" / "skills" / "review" / "references" / "new.md"));
}

TEST(PluginInstall, APreviewPlacesNothing) {
  HubWorld world;
  const PluginInstallOutcome out = install(world, write_plugin(world, "p", "pk"), [] { PluginInstallRequest r; r.preview = true; return r; }());
  EXPECT_TRUE(out.success);
  EXPECT_EQ(out.outcome, SkillOutcome::allowed);
  EXPECT_FALSE(fs::exists(world.ctx.home / "plugins" / "pk"));
  EXPECT_EQ(audit_text(world.ctx.home / "plugins"), "");
}

TEST(PluginInstall, AUsersPluginGoesIntoTheirOwnHome) {
  HubWorld alice("alice");
  const PluginInstallOutcome out = install(alice, write_plugin(alice, "p", "mine"));
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.reason);
  EXPECT_EQ(out.path, alice.ctx.home / "users" / "alice" / "plugins" / "mine");
  EXPECT_EQ(alice.events[0].layer, Layer::user);
  EXPECT_EQ(alice.events[0].owner, "alice");
  const Catalog catalog = build_catalog(alice.ctx, Config{}, CatalogOptions{.use_cache = false});
  ASSERT_EQ(catalog.listed.size(), 2u);
  EXPECT_EQ(catalog.records[catalog.listed[0]].tier, Tier::user_plugin);
  // A user outside the owner org may not install into the shared folder.
  HubWorld bob("bob", "other-org");
  const PluginInstallOutcome shared =
      install(bob, write_plugin(bob, "p", "theirs"), [] { PluginInstallRequest r; r.shared = true; return r; }());
  ASSERT_TRUE(shared.error);
  EXPECT_EQ(shared.error->code, ErrorCode::refused);
}

TEST(PluginUninstall, RemovesOnlyWhatInstallPlaced) {
  HubWorld world;
  const fs::path root = world.ctx.home / "plugins";
  ASSERT_TRUE(install(world, write_plugin(world, "p", "pk")).success);
  world.tree.write("home/plugins/handmade/plugin.yaml", "name: handmade\n");
  const PluginUninstallOutcome hand = uninstall_plugin(world.ctx, "handmade", false);
  ASSERT_TRUE(hand.error);
  EXPECT_EQ(hand.error->code, ErrorCode::not_found);
  EXPECT_TRUE(fs::exists(root / "handmade" / "plugin.yaml"));
  EXPECT_FALSE(uninstall_plugin(world.ctx, "../pk", false).success);

  const PluginUninstallOutcome out = uninstall_plugin(world.ctx, "pk", false);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : "");
  EXPECT_FALSE(fs::exists(root / "pk"));
  auto lock = read_lock_file(root / ".hub" / "lock.json");
  ASSERT_TRUE(lock);
  EXPECT_EQ(lock->installed.count("pk"), 0u);
  EXPECT_NE(audit_text(root).find(" UNINSTALL pk "), std::string::npos);
  EXPECT_TRUE(is_empty_dir(root / ".hub" / "trash"));
  EXPECT_EQ(world.events.back().kind, ChangeKind::deleted);
  const Catalog catalog = build_catalog(world.ctx, Config{}, CatalogOptions{.use_cache = false});
  EXPECT_TRUE(catalog.listed.empty());
}

}  // namespace
}  // namespace skillrt::core::hub
