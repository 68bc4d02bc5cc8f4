#include "core/discovery/walker.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/limits.hpp"
#include "temp_tree.hpp"

namespace skillrt::test {
namespace {

using core::SkipReason;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> relative(const std::vector<fs::path>& files, const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& file : files) {
    out.push_back(file.lexically_relative(root).string());
  }
  return out;
}

core::WalkResult walk(const fs::path& root, bool legacy = false) {
  return core::walk_skill_root(root, core::default_walk_limits(), legacy);
}

// The doctor's walk: decoys inside pruned support dirs are searched for.
core::WalkResult walk_finding_decoys(const fs::path& root) {
  core::WalkLimits limits = core::default_walk_limits();
  limits.find_decoys = true;
  return core::walk_skill_root(root, limits, false);
}

TEST(Walker, DefaultLimitsAreTheNamedConstants) {
  core::WalkLimits limits = core::default_walk_limits();
  EXPECT_EQ(limits.max_depth, limits::k_max_walk_depth);
  EXPECT_EQ(limits.max_dirs, limits::k_max_walk_dirs_per_root);
}

TEST(Walker, FindsSkillsAtEveryNestingLevel) {
  TempTree tree;
  tree.write("top/SKILL.md", "x");
  tree.write("cat/one/SKILL.md", "x");
  tree.write("cat/sub/two/SKILL.md", "x");
  tree.write("cat/README.md", "not a skill");
  auto result = walk(tree.root());
  EXPECT_THAT(relative(result.skill_files, tree.root()),
              ElementsAre("cat/one/SKILL.md", "cat/sub/two/SKILL.md", "top/SKILL.md"));
  EXPECT_THAT(result.skipped, IsEmpty());
  EXPECT_EQ(result.dirs_visited, 6u);  // root, top, cat, one, sub, two
}

TEST(Walker, NestedSkillInsideASkillIsFound) {
  TempTree tree;
  tree.write("outer/SKILL.md", "x");
  tree.write("outer/inner/SKILL.md", "x");
  EXPECT_THAT(relative(walk(tree.root()).skill_files, tree.root()),
              ElementsAre("outer/SKILL.md", "outer/inner/SKILL.md"));
}

TEST(Walker, SupportDirBesideSkillIsPrunedAndItsDecoyReported) {
  TempTree tree;
  tree.write("s/SKILL.md", "x");
  tree.write("s/references/SKILL.md", "decoy");
  tree.write("s/templates/deep/SKILL.md", "deeper decoy");
  tree.write("s/assets/logo.txt", "x");
  auto result = walk_finding_decoys(tree.root());
  EXPECT_THAT(relative(result.skill_files, tree.root()), ElementsAre("s/SKILL.md"));
  // Every decoy SKILL.md under a pruned support dir is reported, however deep.
  EXPECT_THAT(reasons_for(result.skipped, tree.path("s/references/SKILL.md")), ElementsAre("support_dir"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("s/templates/deep/SKILL.md")), ElementsAre("support_dir"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("s/assets")), IsEmpty());
  // The listing walk prunes the same dirs without looking inside them.
  auto listing = walk(tree.root());
  EXPECT_THAT(relative(listing.skill_files, tree.root()), ElementsAre("s/SKILL.md"));
  EXPECT_THAT(listing.skipped, IsEmpty());
}

TEST(Walker, CategoryNamedLikeASupportDirStillWorks) {
  TempTree tree;
  tree.write("scripts/tool/SKILL.md", "x");
  tree.write("references/guide/SKILL.md", "x");
  EXPECT_THAT(relative(walk(tree.root()).skill_files, tree.root()),
              ElementsAre("references/guide/SKILL.md", "scripts/tool/SKILL.md"));
}

TEST(Walker, ExcludedDirectoriesArePrunedAndReported) {
  TempTree tree;
  for (const char* name : {".git", ".github", ".hub", ".archive", ".venv", "venv", "node_modules", "site-packages",
                           "__pycache__", ".tox", ".nox", ".pytest_cache", ".mypy_cache", ".ruff_cache"}) {
    EXPECT_TRUE(core::is_excluded_dir_name(name)) << name;
    tree.write(std::string("cat/") + name + "/x/SKILL.md", "x");
  }
  tree.write("ok/SKILL.md", "x");
  auto result = walk(tree.root());
  EXPECT_THAT(relative(result.skill_files, tree.root()), ElementsAre("ok/SKILL.md"));
  EXPECT_EQ(result.skipped.size(), 14u);
  EXPECT_THAT(reasons_for(result.skipped, tree.path("cat/node_modules")), ElementsAre("excluded"));
  EXPECT_FALSE(core::is_excluded_dir_name(".claude"));
  EXPECT_FALSE(core::is_excluded_dir_name("git"));
}

TEST(Walker, FollowsSymlinkedSkillAndCategoryIntoAnAllowedDir) {
  TempTree tree;
  tree.write("elsewhere/skill/SKILL.md", "x");
  tree.write("elsewhere/cat/a/SKILL.md", "x");
  tree.mkdir("root");
  tree.symlink(tree.path("elsewhere/skill"), "root/linked-skill");
  tree.symlink(tree.path("elsewhere/cat"), "root/linked-cat");
  core::WalkLimits limits = core::default_walk_limits();
  limits.allowed_dirs.push_back(fs::canonical(tree.path("elsewhere")).native());  // another configured root
  auto result = core::walk_skill_root(tree.path("root"), limits, false);
  EXPECT_THAT(relative(result.skill_files, tree.path("root")),
              ElementsAre("linked-cat/a/SKILL.md", "linked-skill/SKILL.md"));
  EXPECT_THAT(result.skipped, IsEmpty());
}

TEST(Walker, SymlinkLeavingTheRootsIsNotFollowedAndIsReported) {
  TempTree tree;
  tree.write("elsewhere/skill/SKILL.md", "x");
  tree.write("elsewhere/cat/a/SKILL.md", "x");
  tree.write("root/inside/s/SKILL.md", "x");
  tree.symlink(tree.path("elsewhere/skill"), "root/linked-skill");
  tree.symlink(tree.path("elsewhere"), "root/linked-cat");
  tree.symlink(tree.path("root/inside"), "root/z-inner");  // stays inside: followed (then seen twice)
  auto result = walk(tree.path("root"));
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("inside/s/SKILL.md"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/linked-skill")), ElementsAre("outside_roots"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/linked-cat")), ElementsAre("outside_roots"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/z-inner")), ElementsAre("symlink_cycle"));
  for (const auto& skip : result.skipped) {
    if (skip.reason == SkipReason::outside_roots) {
      EXPECT_NE(skip.detail.find(fs::canonical(tree.path("elsewhere")).string()), std::string::npos) << skip.detail;
    }
  }
}

TEST(Walker, SymlinkToTheFilesystemRootListsNothingOfIt) {
  TempTree tree;
  tree.write("root/ok/SKILL.md", "x");
  tree.symlink("/", "root/everything");
  auto result = walk(tree.path("root"));
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("ok/SKILL.md"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/everything")), ElementsAre("outside_roots"));
  EXPECT_LE(result.dirs_visited, 2u);
}

TEST(Walker, SymlinkLoopTerminatesAndIsReported) {
  TempTree tree;
  tree.write("root/a/SKILL.md", "x");
  tree.symlink(tree.path("root"), "root/a/back-to-root");
  tree.symlink(tree.path("root/a"), "root/a/self");
  auto future = std::async(std::launch::async, [&] { return walk(tree.path("root")); });
  ASSERT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto result = future.get();
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("a/SKILL.md"));
  ASSERT_THAT(reasons_for(result.skipped, tree.path("root/a/back-to-root")), ElementsAre("symlink_cycle"));
  ASSERT_THAT(reasons_for(result.skipped, tree.path("root/a/self")), ElementsAre("symlink_cycle"));
  for (const auto& skip : result.skipped) {
    EXPECT_NE(skip.detail.find("loops back to"), std::string::npos) << skip.detail;
  }
}

TEST(Walker, DirectoryReachedTwiceIsVisitedOnce) {
  TempTree tree;
  tree.write("root/real/s/SKILL.md", "x");
  tree.symlink(tree.path("root/real"), "root/z-alias");
  auto result = walk(tree.path("root"));
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("real/s/SKILL.md"));
  ASSERT_THAT(reasons_for(result.skipped, tree.path("root/z-alias")), ElementsAre("symlink_cycle"));
  EXPECT_NE(result.skipped[0].detail.find("already visited"), std::string::npos);
}

TEST(Walker, SymlinkChainLoopIsReported) {
  TempTree tree;
  tree.mkdir("root");
  tree.symlink("ping", "root/pong");
  tree.symlink("pong", "root/ping");
  auto result = walk(tree.path("root"));
  EXPECT_THAT(result.skill_files, IsEmpty());
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/ping")), ElementsAre("symlink_cycle"));
}

TEST(Walker, DanglingSymlinksAreReported) {
  TempTree tree;
  tree.write("root/ok/SKILL.md", "x");
  tree.symlink(tree.path("nowhere"), "root/broken-dir");
  tree.mkdir("root/ghost");
  tree.symlink(tree.path("missing.md"), "root/ghost/SKILL.md");
  auto result = walk(tree.path("root"));
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("ok/SKILL.md"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/broken-dir")), ElementsAre("dangling_symlink"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/ghost/SKILL.md")), ElementsAre("dangling_symlink"));
}

TEST(Walker, SkillFileSymlinkedInsideItsSkillCounts) {
  TempTree tree;
  tree.write("root/s/docs/text.md", "x");
  tree.symlink(tree.path("root/s/docs/text.md"), "root/s/SKILL.md");
  auto result = walk(tree.path("root"));
  EXPECT_THAT(relative(result.skill_files, tree.path("root")), ElementsAre("s/SKILL.md"));
  EXPECT_THAT(result.skipped, IsEmpty());
}

TEST(Walker, SkillFileSymlinkedOutsideItsSkillIsSkipped) {
  TempTree tree;
  tree.write("shared/text.md", "x");
  tree.write("root/sibling/text.md", "x");
  tree.mkdir("root/s");
  tree.mkdir("root/t");
  tree.symlink(tree.path("shared/text.md"), "root/s/SKILL.md");
  tree.symlink(tree.path("root/sibling/text.md"), "root/t/SKILL.md");  // inside the root, not the skill
  auto result = walk(tree.path("root"));
  EXPECT_THAT(result.skill_files, IsEmpty());
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/s/SKILL.md")), ElementsAre("escaping_link"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/t/SKILL.md")), ElementsAre("escaping_link"));
  EXPECT_STREQ(core::skip_reason_name(SkipReason::escaping_link), "escaping_link");
  EXPECT_STREQ(core::skip_reason_name(SkipReason::outside_roots), "outside_roots");
}

TEST(Walker, FifoNamedSkillMdIsReportedNotOpened) {
  TempTree tree;
  tree.mkdir("root/pipe");
  ASSERT_EQ(::mkfifo(tree.path("root/pipe/SKILL.md").c_str(), 0600), 0);
  tree.write("root/pipe/references/SKILL.md", "decoy");
  auto future = std::async(std::launch::async, [&] { return walk_finding_decoys(tree.path("root")); });
  ASSERT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto result = future.get();
  EXPECT_THAT(result.skill_files, IsEmpty());
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/pipe/SKILL.md")), ElementsAre("special_file"));
  // os.walk lists the FIFO among the files, so the support dir is still pruned.
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/pipe/references/SKILL.md")), ElementsAre("support_dir"));
}

// Runs `check` as an unprivileged user when the tests run as root (root
// ignores directory permissions); returns its verdict.
bool run_unprivileged(const std::function<bool()>& check) {
  if (!running_as_root()) {
    return check();
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    constexpr uid_t k_nobody = 65534;
    if (::setgid(k_nobody) != 0 || ::setuid(k_nobody) != 0) {
      ::_exit(2);
    }
    ::_exit(check() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(Walker, UnreadableDirectoryIsReported) {
  TempTree tree;
  tree.write("root/open/SKILL.md", "x");
  tree.write("root/locked/hidden/SKILL.md", "x");
  // Let an unprivileged child through the temp tree, then lock one directory.
  for (const auto& dir : {tree.root(), tree.path("root"), tree.path("root/open")}) {
    fs::permissions(dir, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec,
                    fs::perm_options::replace);
  }
  fs::permissions(tree.path("root/open/SKILL.md"), fs::perms::owner_all | fs::perms::others_read,
                  fs::perm_options::replace);
  tree.lock("root/locked");
  bool ok = run_unprivileged([&] {
    auto result = walk(tree.path("root"));
    return relative(result.skill_files, tree.path("root")) == std::vector<std::string>{"open/SKILL.md"} &&
           reasons_for(result.skipped, tree.path("root/locked")) == std::vector<std::string>{"unreadable"};
  });
  EXPECT_TRUE(ok);
}

TEST(Walker, MissingRootIsReportedNotThrown) {
  TempTree tree;
  auto result = walk(tree.path("does-not-exist"));
  EXPECT_THAT(result.skill_files, IsEmpty());
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.dirs_visited, 0u);
}

TEST(Walker, DepthBoundStopsAndReports) {
  TempTree tree;
  tree.write("a/b/SKILL.md", "x");
  tree.write("a/b/c/SKILL.md", "x");
  auto result = core::walk_skill_root(tree.root(), core::WalkLimits{2, 1000}, false);
  EXPECT_THAT(relative(result.skill_files, tree.root()), ElementsAre("a/b/SKILL.md"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("a/b/c")), ElementsAre("depth_bound"));
}

TEST(Walker, DirectoryBudgetStopsTheRootAndReports) {
  TempTree tree;
  for (const char* name : {"a", "b", "c", "d"}) {
    tree.write(std::string(name) + "/SKILL.md", "x");
  }
  auto result = core::walk_skill_root(tree.root(), core::WalkLimits{32, 3}, false);
  EXPECT_EQ(result.dirs_visited, 3u);
  EXPECT_THAT(relative(result.skill_files, tree.root()), ElementsAre("a/SKILL.md", "b/SKILL.md"));
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].reason, SkipReason::dir_bound);
  EXPECT_EQ(result.skipped[0].path, tree.path("c"));
}

TEST(Walker, OrderIsBytewiseAndDeterministic) {
  TempTree tree;
  for (const char* name : {"b", "a-b", "a", "B", "\xC3\xA9t\xC3\xA9", "with space", "a/x"}) {
    tree.write(std::string(name) + "/SKILL.md", "x");
  }
  auto first = relative(walk(tree.root()).skill_files, tree.root());
  auto second = relative(walk(tree.root()).skill_files, tree.root());
  EXPECT_EQ(first, second);
  // Bytewise: "a-b" < "a/SKILL.md" because '-' < '/'; upper case first; UTF-8 last.
  EXPECT_THAT(first, ElementsAre("B/SKILL.md", "a-b/SKILL.md", "a/SKILL.md", "a/x/SKILL.md", "b/SKILL.md",
                                 "with space/SKILL.md", "\xC3\xA9t\xC3\xA9/SKILL.md"));
}

TEST(Walker, OrgMirrorNeedsAnActiveMarker) {
  TempTree tree;
  tree.write("_org/acme/x/SKILL.md", "x");
  tree.write("_org/other/y/SKILL.md", "x");
  tree.write("mine/SKILL.md", "x");
  auto inactive = walk(tree.root());
  EXPECT_THAT(relative(inactive.skill_files, tree.root()), ElementsAre("mine/SKILL.md"));
  EXPECT_THAT(reasons_for(inactive.skipped, tree.path("_org")), ElementsAre("excluded"));

  tree.write("_org/.active_org", "acme\n");
  auto active = walk(tree.root());
  EXPECT_THAT(relative(active.skill_files, tree.root()), ElementsAre("_org/acme/x/SKILL.md", "mine/SKILL.md"));
  EXPECT_THAT(reasons_for(active.skipped, tree.path("_org/other")), ElementsAre("excluded"));
}

TEST(Walker, OrgDirBelowTheRootIsAnOrdinaryDirectory) {
  TempTree tree;
  tree.write("cat/_org/s/SKILL.md", "x");
  EXPECT_THAT(relative(walk(tree.root()).skill_files, tree.root()), ElementsAre("cat/_org/s/SKILL.md"));
}

TEST(Walker, LegacyFilesAreCollectedOnlyWhenAsked) {
  TempTree tree;
  tree.write("flat.md", "x");
  tree.write("cat/old-style.md", "x");
  tree.write("s/SKILL.md", "x");
  tree.write("s/references/guide.md", "x");
  tree.write("notes.txt", "x");
  EXPECT_THAT(walk(tree.root()).legacy_files, IsEmpty());
  EXPECT_THAT(relative(walk(tree.root(), true).legacy_files, tree.root()), ElementsAre("cat/old-style.md", "flat.md"));
}

TEST(Walker, SupportPathPredicate) {
  TempTree tree;
  tree.write("s/SKILL.md", "x");
  tree.write("s/references/a.md", "x");
  tree.write("scripts/tool/SKILL.md", "x");
  EXPECT_TRUE(core::is_skill_support_path(tree.path("s/references/a.md"), tree.root()));
  EXPECT_TRUE(core::is_skill_support_path(tree.path("s/references/deep/b.md"), tree.root()));
  EXPECT_FALSE(core::is_skill_support_path(tree.path("s/SKILL.md"), tree.root()));
  EXPECT_FALSE(core::is_skill_support_path(tree.path("scripts/tool/SKILL.md"), tree.root()));
  EXPECT_FALSE(core::is_skill_support_path(tree.path("other/references/x.md"), tree.root()));
  EXPECT_FALSE(core::is_skill_support_path("/elsewhere/s/references/a.md", tree.root()));
  EXPECT_TRUE(core::is_support_dir_name("templates"));
  EXPECT_FALSE(core::is_support_dir_name("examples"));
}

TEST(Walker, SkipReasonNamesAreStable) {
  EXPECT_STREQ(core::skip_reason_name(SkipReason::symlink_cycle), "symlink_cycle");
  EXPECT_STREQ(core::skip_reason_name(SkipReason::not_utf8), "not_utf8");
  EXPECT_STREQ(core::skip_reason_name(SkipReason::special_file), "special_file");
}

}  // namespace
}  // namespace skillrt::test
