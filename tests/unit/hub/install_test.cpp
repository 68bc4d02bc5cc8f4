// install through quarantine, end to end on a real temp home: the policy
// matrix, placement rules, bundles of several skills, lock.json and audit.log
// records, events, per-user roots vs the shared root, signatures, and crash
// safety (an interrupted install leaves nothing half-installed).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "core/hub/audit.hpp"
#include "core/hub/hub_paths.hpp"
#include "core/hub/install.hpp"
#include "core/hub/judge.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/pending_commit.hpp"
#include "core/hub/quarantine.hpp"
#include "core/hub/uninstall.hpp"
#include "core/hub/signature.hpp"
#include "core/files/read_file.hpp"
#include "hub_fixture.hpp"

namespace skillrt::core::hub {
namespace {

using test::FolderCopyFetcher;
using test::HubWorld;
using test::write_skill;
namespace fs = std::filesystem;

// These tests place at the root (Hermes' placement, `--category .`) unless
// they name a category; the default 3rd/<vendor>/ placement has its own test.
InstallOutcome install(HubWorld& world, const fs::path& source, InstallRequest request = {},
                       const Config& config = {}) {
  FolderCopyFetcher fetcher;
  request.source = source.string();
  if (request.category.empty()) {
    request.category = ".";
  }
  return install_skills(world.ctx, config, fetcher, request, nullptr);
}

LockFile lock_of(const fs::path& root) {
  auto lock = read_lock_file(root / ".hub" / "lock.json");
  EXPECT_TRUE(lock) << (lock ? "" : lock.error().message);
  return lock ? *lock : LockFile{};
}

bool quarantine_empty(const fs::path& root) {
  std::error_code ec;
  return fs::is_empty(root / ".hub" / "quarantine", ec) && fs::is_empty(root / ".hub" / "pending", ec) &&
         fs::is_empty(root / ".hub" / "trash", ec);
}

std::string audit_text(const fs::path& root) {
  auto text = read_regular_file(root / ".hub" / "audit.log", 1 << 20);
  return text ? *text : std::string();
}

TEST(Install, SafeSkillLandsWithLockEntryAuditLineAndEvent) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo", {{"references/notes.md", "Some notes.\n"}});
  const InstallOutcome out = install(world, src);
  ASSERT_FALSE(out.error) << out.error->message;
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::installed);
  const fs::path target = world.shared_root() / "demo";
  EXPECT_TRUE(fs::exists(target / "SKILL.md"));
  EXPECT_TRUE(fs::exists(target / "references" / "notes.md"));

  const LockFile lock = lock_of(world.shared_root());
  ASSERT_EQ(lock.installed.count("demo"), 1u);
  const LockEntry& e = lock.installed.at("demo");
  EXPECT_EQ(e.source, SourceKind::folder);
  EXPECT_EQ(e.identifier, src.string());
  EXPECT_EQ(e.source_spec, src.string());
  EXPECT_EQ(e.trust_level, TrustLevel::community);
  EXPECT_EQ(e.scan_verdict, Verdict::safe);
  EXPECT_EQ(e.scanner_version, std::string(scanner_version()));
  EXPECT_EQ(e.install_path, "demo");
  EXPECT_EQ(e.files, (std::vector<std::string>{"SKILL.md", "references/notes.md"}));
  EXPECT_EQ(e.content_hash, build_bundle_manifest(target)->content_hash);
  EXPECT_EQ(e.signature_status, SignatureStatus::unsigned_bundle);
  EXPECT_EQ(e.installed_at.size(), 20u);
  EXPECT_EQ(e.installed_at.back(), 'Z');

  EXPECT_NE(audit_text(world.shared_root()).find(" INSTALL demo " + src.string() + ":community safe " + e.content_hash),
            std::string::npos);
  ASSERT_EQ(world.events.size(), 1u);
  EXPECT_EQ(world.events[0].kind, ChangeKind::created);
  EXPECT_EQ(world.events[0].layer, Layer::shared);
  EXPECT_EQ(world.events[0].name, "demo");
  EXPECT_EQ(world.events[0].location, (target / "SKILL.md").string());
  EXPECT_TRUE(quarantine_empty(world.shared_root()));
  struct stat st {};
  ASSERT_EQ(::stat((world.shared_root() / ".hub").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(Install, WithoutACategoryASkillGoesUnderItsVendorAndAReinstallStaysPut) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "vendors/Acme Tools", "lint");
  FolderCopyFetcher fetcher;
  InstallRequest request;
  request.source = src.string();
  InstallOutcome out = install_skills(world.ctx, Config{}, fetcher, request, nullptr);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.skills.at(0).reason);
  const fs::path target = world.shared_root() / "3rd" / "acme-tools" / "lint";
  EXPECT_EQ(out.skills.at(0).path, target);
  EXPECT_TRUE(fs::exists(target / "SKILL.md"));
  EXPECT_EQ(lock_of(world.shared_root()).installed.at("lint").install_path, "3rd/acme-tools/lint");

  // A reinstall finds it where the lock file says, whatever the source is called now.
  const fs::path renamed = src.parent_path() / "renamed";
  fs::rename(src, renamed);
  request.source = renamed.string();
  request.force = true;
  out = install_skills(world.ctx, Config{}, fetcher, request, nullptr);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.skills.at(0).reason);
  EXPECT_EQ(out.skills.at(0).outcome, SkillOutcome::reinstalled);
  EXPECT_EQ(out.skills.at(0).path, target);
  EXPECT_FALSE(fs::exists(world.shared_root() / "3rd" / "renamed"));
}

TEST(Install, FolderNameComesFromTheFrontmatterNameAndCategoryNests) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/repo-main", "deploy");
  InstallRequest request;
  request.category = "devops/cloud";
  const InstallOutcome out = install(world, src, request);
  ASSERT_TRUE(out.success) << (out.skills.empty() ? "" : out.skills[0].reason);
  EXPECT_TRUE(fs::exists(world.shared_root() / "devops" / "cloud" / "deploy" / "SKILL.md"));
  EXPECT_EQ(lock_of(world.shared_root()).installed.at("deploy").install_path, "devops/cloud/deploy");
}

TEST(Install, BadCategoryIsRefusedBeforeAnyFetch) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  InstallRequest request;
  request.category = "../escape";
  const InstallOutcome out = install(world, src, request);
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::invalid_argument);
  EXPECT_FALSE(fs::exists(world.shared_root() / ".hub"));
}

struct MatrixCase {
  TrustLevel trust;
  int verdict; // 0 safe, 1 caution, 2 dangerous
  bool force;
  bool installed;
};

TEST(Install, PolicyMatrixEndToEnd) {
  const MatrixCase cases[] = {
      {TrustLevel::builtin, 0, false, true},    {TrustLevel::builtin, 1, false, true},
      {TrustLevel::builtin, 2, false, true},    {TrustLevel::trusted, 0, false, true},
      {TrustLevel::trusted, 1, false, true},    {TrustLevel::trusted, 2, false, false},
      {TrustLevel::trusted, 2, true, false},    {TrustLevel::community, 0, false, true},
      {TrustLevel::community, 1, false, false}, {TrustLevel::community, 1, true, true},
      {TrustLevel::community, 2, false, false}, {TrustLevel::community, 2, true, false},
  };
  for (const MatrixCase& c : cases) {
    HubWorld world;
    std::vector<std::pair<std::string, std::string>> files;
    if (c.verdict == 1) {
      files.push_back(test::k_caution_script);
    } else if (c.verdict == 2) {
      files.push_back(test::k_dangerous_script);
    }
    const fs::path src = write_skill(world.tree, "src/cell", "cell", files);
    InstallRequest request;
    request.trust = c.trust;
    request.force = c.force;
    const InstallOutcome out = install(world, src, request);
    const std::string what =
        std::string(trust_level_name(c.trust)) + " verdict " + std::to_string(c.verdict) + (c.force ? " --force" : "");
    ASSERT_FALSE(out.error) << what;
    ASSERT_EQ(out.skills.size(), 1u) << what;
    const InstallReport& r = out.skills[0];
    ASSERT_TRUE(r.judgement.scan) << what;
    EXPECT_EQ(static_cast<int>(r.judgement.scan->verdict), c.verdict) << what;
    EXPECT_EQ(r.outcome == SkillOutcome::installed, c.installed) << what << ": " << r.reason;
    EXPECT_EQ(fs::exists(world.shared_root() / "cell"), c.installed) << what;
    EXPECT_EQ(lock_of(world.shared_root()).installed.count("cell"), c.installed ? 1u : 0u) << what;
    if (!c.installed) {
      EXPECT_NE(audit_text(world.shared_root()).find(" BLOCKED cell "), std::string::npos) << what;
      EXPECT_NE(audit_text(world.shared_root()).find("1_findings"), std::string::npos) << what;
      if (c.verdict == 2) {
        EXPECT_NE(r.reason.find("does not override"), std::string::npos) << what << ": " << r.reason;
      }
      EXPECT_TRUE(world.events.empty()) << what;
    }
    EXPECT_TRUE(quarantine_empty(world.shared_root())) << what;
  }
}

TEST(Install, TrustDefaultsToTheSourcesLevel) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/cell", "cell", {test::k_caution_script});
  const InstallOutcome out = install(world, src); // a local path: community
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].judgement.scan->trust, TrustLevel::community);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
}

// A GitHub URL of a repository the trust table names is as trusted as the
// table's "owner/repo" form; a look-alike host or path is not.
TEST(Install, GithubUrlsOfTrustedRepositoriesAreTrusted) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/cell", "cell");
  const auto trust_of = [&](const std::string& identifier) {
    JudgeOptions options;
    options.identifier = identifier;
    const Judgement judgement = judge_skill(src, options);
    EXPECT_TRUE(judgement.scan.has_value()) << identifier;
    return judgement.scan ? judgement.scan->trust : TrustLevel::builtin;
  };
  EXPECT_EQ(trust_of("https://github.com/anthropics/skills"), TrustLevel::trusted);
  EXPECT_EQ(trust_of("https://github.com/anthropics/skills.git"), TrustLevel::trusted);
  EXPECT_EQ(trust_of("https://github.com/openai/skills/archive/main.tar.gz"), TrustLevel::trusted);
  EXPECT_EQ(trust_of("https://github.com/someone/anthropics/skills"), TrustLevel::community);
  EXPECT_EQ(trust_of("https://github.com.evil.example/anthropics/skills"), TrustLevel::community);
  EXPECT_EQ(trust_of("https://github.com/anthropics/skills-fork"), TrustLevel::community);
  EXPECT_EQ(trust_of("http://github.com/anthropics/skills"), TrustLevel::community);
}

TEST(Install, InvalidSkillIsRefusedWithTheValidationError) {
  HubWorld world;
  world.tree.write("src/bad/SKILL.md", "---\nname: bad\n---\n\nno description\n");
  const InstallOutcome out = install(world, world.tree.path() / "src/bad");
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_FALSE(out.skills[0].judgement.validation_errors.empty());
  EXPECT_NE(out.skills[0].reason.find("validation failed"), std::string::npos);
  EXPECT_FALSE(fs::exists(world.shared_root() / "bad"));
}

TEST(Install, BundleWithSeveralSkillsInstallsEach) {
  HubWorld world;
  write_skill(world.tree, "src/repo/skills/one", "one");
  write_skill(world.tree, "src/repo/skills/nested/two", "two");
  write_skill(world.tree, "src/repo/three-dir", "three", {test::k_dangerous_script});
  world.tree.write("src/repo/README.md", "a repo\n");
  const InstallOutcome out = install(world, world.tree.path() / "src/repo");
  ASSERT_FALSE(out.error);
  ASSERT_EQ(out.skills.size(), 3u);
  EXPECT_FALSE(out.success); // one was blocked
  int installed = 0;
  for (const InstallReport& r : out.skills) {
    installed += r.outcome == SkillOutcome::installed ? 1 : 0;
    if (r.name == "three") {
      EXPECT_EQ(r.outcome, SkillOutcome::blocked);
      EXPECT_EQ(r.relative, "three-dir");
    }
  }
  EXPECT_EQ(installed, 2);
  EXPECT_TRUE(fs::exists(world.shared_root() / "one" / "SKILL.md"));
  EXPECT_TRUE(fs::exists(world.shared_root() / "two" / "SKILL.md"));
  EXPECT_FALSE(fs::exists(world.shared_root() / "three"));
  EXPECT_EQ(lock_of(world.shared_root()).installed.size(), 2u);
  EXPECT_EQ(world.events.size(), 2u);
}

TEST(Install, DiscoveryStopsAtASkillAndSkipsDotFolders) {
  HubWorld world;
  write_skill(world.tree, "src/repo/outer", "outer");
  write_skill(world.tree, "src/repo/outer/inner", "inner"); // part of outer, not a skill of its own
  write_skill(world.tree, "src/repo/.github/hidden", "hidden");
  auto found = discover_bundle_skills(world.tree.path() / "src/repo");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].name, "outer");
  EXPECT_EQ((*found)[0].relative, "outer");
}

TEST(Install, DiscoveryDoesNotFollowLinkedFoldersAndKeepsBundleOrder) {
  HubWorld world;
  write_skill(world.tree, "src/elsewhere/linked", "linked");
  write_skill(world.tree, "src/repo/b", "bee");
  write_skill(world.tree, "src/repo/a/deeper", "ay");
  world.tree.symlink(world.tree.path() / "src/elsewhere", "src/repo/c");
  auto found = discover_bundle_skills(world.tree.path() / "src/repo");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0].relative, "a/deeper");
  EXPECT_EQ((*found)[0].dir, world.tree.path() / "src/repo/a/deeper");
  EXPECT_EQ((*found)[1].relative, "b");
  EXPECT_EQ((*found)[1].name, "bee");
}

TEST(Install, LargeSkillMdOnlyWarns) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/big", "big", {}, std::string(120'000, 'x') + "\n");
  const InstallOutcome out = install(world, src);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::installed) << out.skills[0].reason;
  ASSERT_EQ(out.skills[0].judgement.warnings.size(), 1u);
  EXPECT_NE(out.skills[0].judgement.warnings[0].find("hermes.content_too_long"), std::string::npos);
}

TEST(Install, TwoSkillsWithOneNameRefuseTheBundle) {
  HubWorld world;
  write_skill(world.tree, "src/repo/a", "same");
  write_skill(world.tree, "src/repo/b", "same");
  const InstallOutcome out = install(world, world.tree.path() / "src/repo");
  ASSERT_TRUE(out.error);
  EXPECT_NE(out.error->message.find("two skills in the bundle are named 'same'"), std::string::npos);
  EXPECT_TRUE(quarantine_empty(world.shared_root()));
}

TEST(Install, HostileFrontmatterNameIsRefused) {
  HubWorld world;
  world.tree.write("src/x/SKILL.md", "---\nname: ../../etc\ndescription: d\n---\nbody\n");
  const InstallOutcome out = install(world, world.tree.path() / "src/x");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->code, ErrorCode::invalid_argument);
  EXPECT_NE(out.error->message.find("single path segment"), std::string::npos) << out.error->message;
}

TEST(Install, NoSkillInTheSourceIsAnError) {
  HubWorld world;
  world.tree.write("src/empty/README.md", "nothing\n");
  const InstallOutcome out = install(world, world.tree.path() / "src/empty");
  ASSERT_TRUE(out.error);
  EXPECT_NE(out.error->message.find("no SKILL.md"), std::string::npos);
  EXPECT_NE(audit_text(world.shared_root()).find(" BLOCKED - "), std::string::npos);
}

TEST(Install, NeverClobbersASkillTheHubDidNotInstall) {
  HubWorld world;
  write_skill(world.tree, "home/skills/demo", "demo", {}, "my own work\n");
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  for (const bool force : {false, true}) {
    InstallRequest request;
    request.force = force;
    const InstallOutcome out = install(world, src, request);
    ASSERT_EQ(out.skills.size(), 1u);
    EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
    EXPECT_NE(out.skills[0].reason.find("did not install"), std::string::npos) << out.skills[0].reason;
  }
  EXPECT_NE(read_regular_file(world.shared_root() / "demo" / "SKILL.md", 4096)->find("my own work"), std::string::npos);
}

// An install never shadows a skill of the same name elsewhere in the root
// (a bundled one in its category, say): the name would turn ambiguous and
// either could speak for it in the prompt.
TEST(Install, NeverShadowsASkillOfTheSameNameElsewhereInTheRoot) {
  HubWorld world;
  write_skill(world.tree, "home/skills/skillrt/safety-review", "safety-review", {}, "the real one\n");
  const fs::path src = write_skill(world.tree, "src/impostor", "safety-review", {}, "an impostor\n");
  for (const std::string category : {"", "aaa"}) {
    InstallRequest request;
    request.category = category;
    request.force = true;
    const InstallOutcome out = install(world, src, request);
    ASSERT_EQ(out.skills.size(), 1u);
    EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
    EXPECT_NE(out.skills[0].reason.find("would make the name ambiguous"), std::string::npos) << out.skills[0].reason;
  }
  EXPECT_FALSE(fs::exists(world.shared_root() / "safety-review"));
  EXPECT_FALSE(fs::exists(world.shared_root() / "aaa"));
  // Reinstalling the hub's own install at the same place still works.
  const fs::path other = write_skill(world.tree, "src/tool", "tool");
  ASSERT_TRUE(install(world, other).success);
  InstallRequest again;
  again.force = true;
  EXPECT_TRUE(install(world, other, again).success);
}

TEST(Install, NeverOverwritesACategoryBucket) {
  HubWorld world;
  write_skill(world.tree, "home/skills/tools/other", "other");
  const fs::path src = write_skill(world.tree, "src/tools", "tools");
  const InstallOutcome out = install(world, src);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_NE(out.skills[0].reason.find("category bucket"), std::string::npos);
  EXPECT_TRUE(fs::exists(world.shared_root() / "tools" / "other" / "SKILL.md"));
}

TEST(Install, NeverNestsInsideAnExistingSkill) {
  HubWorld world;
  write_skill(world.tree, "home/skills/host", "host");
  const fs::path src = write_skill(world.tree, "src/guest", "guest");
  InstallRequest request;
  request.category = "host";
  const InstallOutcome out = install(world, src, request);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_NE(out.skills[0].reason.find("never nested"), std::string::npos);
  EXPECT_FALSE(fs::exists(world.shared_root() / "host" / "guest"));
}

TEST(Install, RefusesASymlinkOnTheWay) {
  HubWorld world;
  world.tree.mkdir("elsewhere");
  world.tree.mkdir("home/skills");
  world.tree.symlink(world.tree.path() / "elsewhere", "home/skills/linked");
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  InstallRequest request;
  request.category = "linked";
  const InstallOutcome out = install(world, src, request);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_NE(out.skills[0].reason.find("symlink"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(world.tree.path() / "elsewhere"));
}

TEST(Install, RefusesASymlinkInsideTheBundle) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  world.tree.symlink("SKILL.md", "src/demo/alias.md");
  const InstallOutcome out = install(world, src);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_FALSE(fs::exists(world.shared_root() / "demo"));
}

TEST(Install, ReinstallNeedsForceAndKeepsInstalledAt) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  ASSERT_TRUE(install(world, src).success);
  const std::string first = lock_of(world.shared_root()).installed.at("demo").installed_at;
  InstallOutcome again = install(world, src);
  ASSERT_EQ(again.skills.size(), 1u);
  EXPECT_EQ(again.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_NE(again.skills[0].reason.find("--force"), std::string::npos);
  write_skill(world.tree, "src/demo", "demo", {}, "Version two.\n");
  InstallRequest request;
  request.force = true;
  again = install(world, src, request);
  ASSERT_TRUE(again.success) << again.skills[0].reason;
  EXPECT_EQ(again.skills[0].outcome, SkillOutcome::reinstalled);
  EXPECT_NE(read_regular_file(world.shared_root() / "demo" / "SKILL.md", 4096)->find("Version two."),
            std::string::npos);
  EXPECT_EQ(lock_of(world.shared_root()).installed.at("demo").installed_at, first);
  EXPECT_TRUE(quarantine_empty(world.shared_root()));
}

TEST(Install, CorruptLockJsonStopsTheInstallAndIsKept) {
  HubWorld world;
  world.tree.write("home/skills/.hub/lock.json", "{not json");
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  const InstallOutcome out = install(world, src);
  ASSERT_TRUE(out.error);
  EXPECT_NE(out.error->message.find("lock.json"), std::string::npos);
  EXPECT_EQ(*read_regular_file(world.shared_root() / ".hub" / "lock.json", 100), "{not json");
  EXPECT_FALSE(fs::exists(world.shared_root() / "demo"));
}

TEST(Install, UnreachableSourceIsAnErrorAndLeavesNothing) {
  HubWorld world;
  const InstallOutcome out = install(world, world.tree.path() / "does-not-exist");
  ASSERT_TRUE(out.error);
  EXPECT_TRUE(quarantine_empty(world.shared_root()));
}

// --- tenancy ---

TEST(InstallTenancy, UserInstallGoesToTheUsersOwnRootAndIsInvisibleToOthers) {
  HubWorld alice("alice", "acme");
  const fs::path src = write_skill(alice.tree, "src/demo", "demo");
  const InstallOutcome out = install(alice, src);
  ASSERT_TRUE(out.success) << (out.error ? out.error->message : out.skills[0].reason);
  EXPECT_TRUE(fs::exists(alice.user_root() / "demo" / "SKILL.md"));
  EXPECT_FALSE(fs::exists(alice.shared_root() / "demo"));
  EXPECT_EQ(lock_of(alice.user_root()).installed.count("demo"), 1u);
  ASSERT_EQ(alice.events.size(), 1u);
  EXPECT_EQ(alice.events[0].layer, Layer::user);
  EXPECT_EQ(alice.events[0].owner, "alice");

  // Bob, same home: his root has no such install, and his lock knows nothing of it.
  Context bob = alice.ctx;
  bob.user_id = "bob";
  std::vector<SkillEvent> bob_events;
  auto sub = alice.bus.subscribe(std::string("bob"), [&](const SkillEvent& e) { bob_events.push_back(e); });
  auto bob_paths = resolve_hub_paths(bob, false, Operation::read);
  ASSERT_TRUE(bob_paths);
  EXPECT_EQ(read_lock_file(bob_paths->lock_json)->installed.size(), 0u);
  FolderCopyFetcher fetcher;
  InstallRequest request;
  request.source = src.string();
  ASSERT_TRUE(install_skills(bob, Config{}, fetcher, request, nullptr).success);
  // Alice's install event never reached Bob; Bob's reaches only Bob.
  ASSERT_EQ(bob_events.size(), 1u);
  EXPECT_EQ(bob_events[0].owner, "bob");
  EXPECT_EQ(alice.events.size(), 1u);
}

TEST(InstallTenancy, SharedInstallIsForTheOwnerOrgOnly) {
  HubWorld outsider("mallory", "acme");
  const fs::path src = write_skill(outsider.tree, "src/demo", "demo");
  InstallRequest request;
  request.shared = true;
  const InstallOutcome refused = install(outsider, src, request);
  ASSERT_TRUE(refused.error);
  EXPECT_EQ(refused.error->code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(outsider.shared_root() / "demo"));
  EXPECT_FALSE(fs::exists(outsider.shared_root() / ".hub"));

  HubWorld owner("olga", "0");
  const fs::path src2 = write_skill(owner.tree, "src/demo", "demo");
  const InstallOutcome ok = install(owner, src2, request);
  ASSERT_TRUE(ok.success) << (ok.error ? ok.error->message : "");
  EXPECT_TRUE(fs::exists(owner.shared_root() / "demo" / "SKILL.md"));
  ASSERT_EQ(owner.events.size(), 1u);
  EXPECT_EQ(owner.events[0].layer, Layer::shared);
  EXPECT_EQ(owner.events[0].owner, "");
}

// --- crash safety ---

TEST(InstallCrashSafety, FailedRenameLeavesNothingHalfInstalled) {
  HubWorld world;
  world.tree.mkdir("home/skills/locked");
  const fs::path src = write_skill(world.tree, "src/demo", "demo");
  world.tree.chmod("home/skills/locked", 0500); // the target's parent refuses the rename
  if (::access((world.shared_root() / "locked").c_str(), W_OK) == 0) {
    GTEST_SKIP() << "running as a user that ignores directory permissions";
  }
  InstallRequest request;
  request.category = "locked";
  const InstallOutcome out = install(world, src, request);
  world.tree.chmod("home/skills/locked", 0700);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::failed);
  EXPECT_FALSE(fs::exists(world.shared_root() / "locked" / "demo"));
  EXPECT_EQ(lock_of(world.shared_root()).installed.count("demo"), 0u);
  EXPECT_TRUE(quarantine_empty(world.shared_root()));
  EXPECT_TRUE(world.events.empty());
}

// A rename that fails while replacing (the staged folder vanished): the old
// install is moved back from trash before the error returns. Works as root too.
TEST(InstallCrashSafety, FailedPlacementRestoresTheReplacedInstall) {
  HubWorld world;
  ASSERT_TRUE(install(world, write_skill(world.tree, "src/demo", "demo", {}, "Version one.\n")).success);
  auto paths = resolve_hub_paths(world.ctx, false, Operation::update);
  ASSERT_TRUE(paths);
  const LockFile before = lock_of(paths->root);
  PendingPlacement p{"demo", AuditAction::update, paths->quarantine / "q-gone/ready/demo", paths->root / "demo", {}, {}};
  p.entry = before.installed.at("demo");
  p.entry.content_hash = "sha256:new";
  auto placed = commit_placement(*paths, p, true);
  ASSERT_FALSE(placed);
  EXPECT_EQ(placed.error().code, ErrorCode::io_error);
  EXPECT_NE(read_regular_file(paths->root / "demo" / "SKILL.md", 4096)->find("Version one."), std::string::npos);
  EXPECT_EQ(lock_of(paths->root), before);
  EXPECT_TRUE(quarantine_empty(paths->root));
}

// A reader who may not write the root (outside the owner org, shared root)
// changes nothing in it: no .hub made, no audit line.
TEST(InstallTenancy, OutsiderAuditOfTheSharedRootLeavesNoTrace) {
  HubWorld outsider("mallory", "acme");
  write_skill(outsider.tree, "home/skills/shared-one", "shared-one");
  const AuditOutcome out = audit_installed(outsider.ctx, Config{}, true, nullptr);
  EXPECT_TRUE(out.success);
  EXPECT_EQ(out.untracked, std::vector<std::string>{"shared-one"});
  EXPECT_FALSE(fs::exists(outsider.shared_root() / ".hub"));
}

// A crash after the pending record, before the rename: the next command undoes it.
TEST(InstallCrashSafety, CrashBeforeTheRenameIsUndoneByTheNextCommand) {
  HubWorld world;
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  ASSERT_TRUE(ensure_hub_dirs(*paths));
  const fs::path staged = write_skill(world.tree, "home/skills/.hub/quarantine/q-crash1/ready/demo", "demo");
  PendingPlacement p{"demo", AuditAction::install, staged, paths->root / "demo", {}, {}};
  p.entry.install_path = "demo";
  p.entry.content_hash = "sha256:x";
  ASSERT_TRUE(write_pending_record(*paths, p));

  const fs::path src = write_skill(world.tree, "src/other", "other");
  const InstallOutcome out = install(world, src);
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_FALSE(out.recovered[0].completed);
  EXPECT_FALSE(fs::exists(paths->root / "demo"));
  EXPECT_EQ(lock_of(paths->root).installed.count("demo"), 0u);
  EXPECT_TRUE(quarantine_empty(paths->root));
}

// A record whose paths leave the hub (planted, or corrupted) is never acted
// on: recovery would otherwise remove or move any folder it names.
TEST(InstallCrashSafety, RecordsPointingOutsideTheHubAreIgnored) {
  HubWorld world;
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  ASSERT_TRUE(ensure_hub_dirs(*paths));
  world.tree.write("victim/sub/data", "precious\n");
  world.tree.write("victim-two/data", "also precious\n");
  write_skill(world.tree, "home/skills/x", "x");
  const fs::path victim = world.tree.path() / "victim";
  const fs::path victim_two = world.tree.path() / "victim-two";
  struct Case {
    std::string name;
    fs::path staged, target, backup;
  };
  const std::vector<Case> cases{
      {"x", "/nonexistent", paths->root / "x", victim},                             // backup outside trash
      {"x", paths->quarantine / "q-a/ready/x", paths->root / "x", victim},          // same, staged inside
      {"x", paths->quarantine / "q-b/ready/x", victim_two, paths->trash / "x-1"},   // target outside
      {"x", paths->quarantine / "../../victim", paths->root / "x", {}},             // staged escapes by ..
      {"y", paths->quarantine / "q-c/ready/y", paths->root / "x", {}},             // name is not the file's
  };
  for (const Case& c : cases) {
    PendingPlacement p{c.name, AuditAction::install, c.staged, c.target, c.backup, {}};
    p.entry.install_path = "x";
    ASSERT_TRUE(write_pending_record(*paths, p));
    if (c.name != "x") {
      fs::rename(pending_record_path(*paths, c.name), pending_record_path(*paths, "x"));
    }
    const InstallOutcome out = install(world, write_skill(world.tree, "src/other", "other"));
    EXPECT_TRUE(out.success);
    EXPECT_TRUE(fs::exists(victim / "sub/data")) << c.backup;
    EXPECT_TRUE(fs::exists(victim_two / "data")) << c.target;
    EXPECT_TRUE(fs::exists(paths->root / "x" / "SKILL.md"));
    EXPECT_FALSE(fs::exists(pending_record_path(*paths, "x")));
    ASSERT_TRUE(uninstall_skill(world.ctx, "other", false).success);
  }
}

// A crash after the rename, before lock.json: the next command records it.
TEST(InstallCrashSafety, CrashAfterTheRenameIsFinishedByTheNextCommand) {
  HubWorld world;
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  ASSERT_TRUE(ensure_hub_dirs(*paths));
  const fs::path placed = write_skill(world.tree, "home/skills/demo", "demo");
  PendingPlacement p{"demo", AuditAction::install, paths->quarantine / "q-crash2/ready/demo", placed, {}, {}};
  p.entry.install_path = "demo";
  p.entry.identifier = "/src/demo";
  p.entry.trust_level = TrustLevel::community;
  p.entry.scan_verdict = Verdict::safe;
  p.entry.content_hash = build_bundle_manifest(placed)->content_hash;
  ASSERT_TRUE(write_pending_record(*paths, p));

  const InstallOutcome out = install(world, write_skill(world.tree, "src/other", "other"));
  ASSERT_TRUE(out.success);
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_TRUE(out.recovered[0].completed);
  const LockFile lock = lock_of(paths->root);
  ASSERT_EQ(lock.installed.count("demo"), 1u);
  EXPECT_EQ(lock.installed.at("demo").content_hash, p.entry.content_hash);
  EXPECT_NE(
      audit_text(paths->root).find("INSTALL demo /src/demo:community safe " + p.entry.content_hash + " recovered"),
      std::string::npos);
  EXPECT_TRUE(quarantine_empty(paths->root));
}

// The staged folder is gone and a folder sits at the target, but not the one
// the placement made: recovery never records a lock entry for it.
TEST(InstallCrashSafety, AFolderThatIsNotThePlacedOneIsNeverRecorded) {
  HubWorld world;
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  ASSERT_TRUE(ensure_hub_dirs(*paths));
  const fs::path placed = write_skill(world.tree, "home/skills/demo", "demo", {}, "Someone else's.\n");
  PendingPlacement p{"demo", AuditAction::install, paths->quarantine / "q-gone/ready/demo", placed, {}, {}};
  p.entry.install_path = "demo";
  p.entry.content_hash = "sha256:" + std::string(64, '0');
  ASSERT_TRUE(write_pending_record(*paths, p));

  const InstallOutcome out = install(world, write_skill(world.tree, "src/other", "other"));
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_FALSE(out.recovered[0].completed);
  EXPECT_NE(out.recovered[0].message.find("is not the folder the interrupted INSTALL placed"), std::string::npos)
      << out.recovered[0].message;
  EXPECT_EQ(lock_of(paths->root).installed.count("demo"), 0u);
  EXPECT_TRUE(fs::exists(pending_record_path(*paths, "demo")));
  EXPECT_NE(read_regular_file(placed / "SKILL.md", 4096)->find("Someone else's."), std::string::npos);
}

// A crash while replacing: the old install had moved to trash, the new one not yet in place.
TEST(InstallCrashSafety, CrashMidReplaceRestoresTheOldInstall) {
  HubWorld world;
  const fs::path src = write_skill(world.tree, "src/demo", "demo", {}, "Version one.\n");
  ASSERT_TRUE(install(world, src).success);
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  const fs::path backup = paths->trash / "demo-crash";
  fs::rename(paths->root / "demo", backup);
  const fs::path staged =
      write_skill(world.tree, "home/skills/.hub/quarantine/q-crash3/ready/demo", "demo", {}, "Version two.\n");
  PendingPlacement p{"demo", AuditAction::update, staged, paths->root / "demo", backup, {}};
  p.entry.install_path = "demo";
  ASSERT_TRUE(write_pending_record(*paths, p));

  const InstallOutcome out = install(world, write_skill(world.tree, "src/other", "other"));
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_FALSE(out.recovered[0].completed);
  EXPECT_NE(read_regular_file(paths->root / "demo" / "SKILL.md", 4096)->find("Version one."), std::string::npos);
  EXPECT_TRUE(quarantine_empty(paths->root));
}

// Recovery never throws away a replaced install it could not put back: the
// record stays, and so do trash and quarantine, until the way is clear.
TEST(InstallCrashSafety, RecoveryKeepsWhatItCannotPutBack) {
  HubWorld world;
  auto paths = resolve_hub_paths(world.ctx, false, Operation::create);
  ASSERT_TRUE(paths);
  ASSERT_TRUE(ensure_hub_dirs(*paths));
  const fs::path backup = write_skill(world.tree, "home/skills/.hub/trash/demo-old", "demo", {}, "Old.\n");
  const fs::path staged = write_skill(world.tree, "home/skills/.hub/quarantine/q-x/ready/demo", "demo");
  world.tree.write("home/skills/demo/stranger.txt", "someone else's folder\n"); // in the way, no SKILL.md
  PendingPlacement p{"demo", AuditAction::update, staged, paths->root / "demo", backup, {}};
  p.entry.install_path = "demo";
  ASSERT_TRUE(write_pending_record(*paths, p));
  world.tree.write("home/skills/.hub/pending/.demo.json.tmp.AbC123", "half");

  InstallOutcome out = install(world, write_skill(world.tree, "src/other", "other"));
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_FALSE(out.recovered[0].completed);
  EXPECT_NE(out.recovered[0].message.find("kept"), std::string::npos);
  EXPECT_TRUE(fs::exists(backup / "SKILL.md"));
  EXPECT_TRUE(fs::exists(pending_record_path(*paths, "demo")));

  fs::remove_all(paths->root / "demo"); // the way is clear again
  out = install(world, write_skill(world.tree, "src/third", "third"));
  ASSERT_EQ(out.recovered.size(), 1u);
  EXPECT_NE(read_regular_file(paths->root / "demo" / "SKILL.md", 4096)->find("Old."), std::string::npos);
  EXPECT_TRUE(quarantine_empty(paths->root));
}

// --- signatures (core/hub/signature.hpp, by the sign helper) ---

struct SignedWorld {
  HubWorld world;
  Config config;
  fs::path key_file;
  std::string public_key;
  SignedWorld() {
    auto keys = generate_key_pair();
    EXPECT_TRUE(keys);
    public_key = keys->public_key;
    key_file = world.tree.path() / "keys" / "signer.key";
    fs::create_directories(key_file.parent_path());
    EXPECT_TRUE(write_key_pair(*keys, key_file));
  }
};

TEST(InstallSignature, ValidSignatureByATrustedKeyIsRecorded) {
  SignedWorld s;
  s.config.skills.trusted_keys = {s.public_key};
  const fs::path src = write_skill(s.world.tree, "src/demo", "demo");
  ASSERT_TRUE(sign_bundle(src, s.key_file));
  InstallRequest request;
  request.require_signature = true;
  const InstallOutcome out = install(s.world, src, request, s.config);
  ASSERT_TRUE(out.success) << out.skills[0].reason;
  EXPECT_EQ(out.skills[0].judgement.signature->status, SignatureStatus::valid);
  const LockEntry e = lock_of(s.world.shared_root()).installed.at("demo");
  EXPECT_EQ(e.signature_status, SignatureStatus::valid);
  EXPECT_EQ(e.signature_key, s.public_key);
  EXPECT_TRUE(fs::exists(s.world.shared_root() / "demo" / std::string(k_signature_file_name)));
}

TEST(InstallSignature, BundleChangedAfterSigningIsAlwaysRefused) {
  SignedWorld s;
  s.config.skills.trusted_keys = {s.public_key};
  const fs::path src = write_skill(s.world.tree, "src/demo", "demo");
  ASSERT_TRUE(sign_bundle(src, s.key_file));
  s.world.tree.write("src/demo/extra.md", "slipped in after signing\n");
  const InstallOutcome out = install(s.world, src, {}, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  EXPECT_EQ(out.skills[0].judgement.signature->status, SignatureStatus::invalid);
  EXPECT_FALSE(fs::exists(s.world.shared_root() / "demo"));
}

TEST(InstallSignature, RequireSignatureRefusesUnsignedAndUntrusted) {
  SignedWorld s;
  const fs::path unsigned_src = write_skill(s.world.tree, "src/plain", "plain");
  InstallRequest request;
  request.require_signature = true;
  InstallOutcome out = install(s.world, unsigned_src, request, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);

  const fs::path signed_src = write_skill(s.world.tree, "src/signed", "signed");
  ASSERT_TRUE(sign_bundle(signed_src, s.key_file));
  out = install(s.world, signed_src, request, s.config); // key not in trusted_keys
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].judgement.signature->status, SignatureStatus::untrusted_key);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);

  // Without the requirement an untrusted key passes with a note.
  out = install(s.world, signed_src, {}, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::installed) << out.skills[0].reason;
  EXPECT_EQ(lock_of(s.world.shared_root()).installed.at("signed").signature_status, SignatureStatus::untrusted_key);
}

TEST(InstallSignature, ConfigRequiresSignaturesPerTrustLevel) {
  SignedWorld s;
  s.config.skills.require_signature = {"community"};
  const fs::path src = write_skill(s.world.tree, "src/plain", "plain");
  InstallOutcome out = install(s.world, src, {}, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked);
  // Raising the trust with --trust does not drop the requirement of the
  // source's own level...
  InstallRequest trusted;
  trusted.trust = TrustLevel::trusted;
  out = install(s.world, src, trusted, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked) << out.skills[0].reason;
  // ...and a level the config does not list installs unsigned.
  s.config.skills.require_signature = {"trusted"};
  out = install(s.world, src, {}, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::installed) << out.skills[0].reason;
  // The level chosen with --trust is held to its own requirement too.
  ASSERT_TRUE(uninstall_skill(s.world.ctx, "plain", false).success);
  out = install(s.world, src, trusted, s.config);
  ASSERT_EQ(out.skills.size(), 1u);
  EXPECT_EQ(out.skills[0].outcome, SkillOutcome::blocked) << out.skills[0].reason;
}

} // namespace
} // namespace skillrt::core::hub
