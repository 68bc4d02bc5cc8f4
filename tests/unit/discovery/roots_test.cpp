#include "core/discovery/roots.hpp"

#include <chrono>
#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/discovery/git_identity.hpp"
#include "temp_tree.hpp"

namespace skillrt::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> root_paths(const core::RootSet& set) {
  std::vector<std::string> out;
  for (const auto& root : set.roots) {
    out.push_back(std::string(core::tier_name(root.tier)) + ":" + root.path.string());
  }
  return out;
}

bool have_git() { return std::system("git --version >/dev/null 2>&1") == 0; }

TEST(Roots, TierNames) {
  EXPECT_STREQ(core::tier_name(core::Tier::project), "project");
  EXPECT_STREQ(core::tier_name(core::Tier::local), "local");
  EXPECT_STREQ(core::tier_name(core::Tier::external), "external");
}

TEST(Roots, ExpandConfigPath) {
  auto ctx = make_context("/hermes", "/", {{"HOME", "/home/u"}, {"TEAM", "/srv/team"}, {"EMPTY", ""}});
  EXPECT_EQ(core::expand_config_path("~", ctx), fs::path("/home/u"));
  EXPECT_EQ(core::expand_config_path("~/skills", ctx), fs::path("/home/u/skills"));
  EXPECT_EQ(core::expand_config_path("${TEAM}/skills", ctx), fs::path("/srv/team/skills"));
  EXPECT_EQ(core::expand_config_path("$TEAM/x", ctx), fs::path("/srv/team/x"));
  EXPECT_EQ(core::expand_config_path("/a/$UNSET_VAR/b", ctx), fs::path("/a/$UNSET_VAR/b"));
  EXPECT_EQ(core::expand_config_path("/a/${UNSET_VAR}/b", ctx), fs::path("/a/${UNSET_VAR}/b"));
  EXPECT_EQ(core::expand_config_path("relative/dir", ctx), fs::path("/hermes/relative/dir"));
  EXPECT_EQ(core::expand_config_path("~other/x", ctx), fs::path("/hermes/~other/x"));
  EXPECT_EQ(core::expand_config_path("/cost/$5", ctx), fs::path("/cost/$5"));
  EXPECT_EQ(core::expand_config_path("/e$EMPTY/x", ctx), fs::path("/e/x"));
}

TEST(Roots, ProjectRootIsTheNearestGitAncestor) {
  TempTree tree;
  tree.mkdir("outer/.git");
  tree.mkdir("outer/proj/.git");
  tree.mkdir("outer/proj/src/deep");
  auto ctx = make_context(tree.path("hermes"), tree.path("outer/proj/src/deep"), {{"HOME", "/nonexistent-home"}});
  EXPECT_EQ(core::find_project_root(ctx), tree.path("outer/proj"));

  // A `.git` file (worktrees, submodules) counts too.
  tree.write("wt/.git", "gitdir: /elsewhere\n");
  tree.mkdir("wt/sub");
  auto wt_ctx = make_context(tree.path("hermes"), tree.path("wt/sub"), {{"HOME", "/nonexistent-home"}});
  EXPECT_EQ(core::find_project_root(wt_ctx), tree.path("wt"));
}

TEST(Roots, UserHomeIsNeverAProject) {
  TempTree tree;
  tree.mkdir("home/.git");  // a dotfiles repo
  tree.mkdir("home/notes");
  auto ctx = make_context(tree.path("hermes"), tree.path("home/notes"), {{"HOME", tree.path("home").string()}});
  auto found = core::find_project_root(ctx);
  EXPECT_TRUE(!found || *found != tree.path("home"));
}

TEST(Roots, LocalThenExternalWithDrops) {
  TempTree tree;
  tree.mkdir("hermes/skills");
  tree.mkdir("hermes/rel-ext");
  tree.mkdir("team");
  tree.symlink(tree.path("team"), "team-alias");
  auto ctx = make_context(tree.path("hermes"), tree.path("hermes"), {{"HOME", "/nonexistent-home"}, {"TEAM", tree.path("team").string()}});
  core::SkillsConfig cfg;
  cfg.external_dirs = {"rel-ext", "${TEAM}", tree.path("team-alias").string(), tree.path("missing").string(),
                       tree.path("hermes/skills").string(), "  ", ""};
  auto set = core::compute_roots(ctx, cfg);
  EXPECT_THAT(root_paths(set), ElementsAre("local:" + tree.path("hermes/skills").string(),
                                           "external:" + tree.path("hermes/rel-ext").string(),
                                           "external:" + tree.path("team").string()));
  ASSERT_EQ(set.dropped_external.size(), 3u);
  EXPECT_NE(set.dropped_external[0].second.find("duplicate"), std::string::npos);
  EXPECT_NE(set.dropped_external[1].second.find("missing"), std::string::npos);
  EXPECT_NE(set.dropped_external[2].second.find("local"), std::string::npos);
  EXPECT_FALSE(set.project_root.has_value());
}

TEST(Roots, MissingLocalDirIsNotARoot) {
  TempTree tree;
  auto ctx = make_context(tree.path("hermes"), tree.root(), {{"HOME", "/nonexistent-home"}});
  auto set = core::compute_roots(ctx, core::SkillsConfig{});
  EXPECT_THAT(set.roots, IsEmpty());
}

class ProjectTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    tree.mkdir("hermes/skills");
    tree.mkdir("proj/.git");
    tree.write("proj/.hermes/skills/proj-skill/SKILL.md", skill_text("proj-skill", "d"));
    tree.write("proj/.agents/skills/cat/agent-skill/SKILL.md", skill_text("agent-skill", "d"));
    tree.mkdir("proj/src");
  }
  core::Context ctx() const {
    return make_context(tree.path("hermes"), tree.path("proj/src"), {{"HOME", "/nonexistent-home"}});
  }
  TempTree tree;
};

TEST_F(ProjectTrust, UntrustedProjectIsCountedNotLoaded) {
  auto set = core::compute_roots(ctx(), core::SkillsConfig{});
  EXPECT_THAT(root_paths(set), ElementsAre("local:" + tree.path("hermes/skills").string()));
  ASSERT_TRUE(set.untrusted_project.has_value());
  EXPECT_EQ(set.untrusted_project->root, tree.path("proj"));
  EXPECT_EQ(set.untrusted_project->skill_count, 2u);
  EXPECT_EQ(set.project_root, tree.path("proj"));
}

TEST_F(ProjectTrust, TrustedProjectComesFirst) {
  core::SkillsConfig cfg;
  cfg.trusted_project_dirs = {"/somewhere/else", tree.path("proj").string() + "/"};
  auto set = core::compute_roots(ctx(), cfg);
  EXPECT_THAT(root_paths(set), ElementsAre("project:" + tree.path("proj/.hermes/skills").string(),
                                           "project:" + tree.path("proj/.agents/skills").string(),
                                           "local:" + tree.path("hermes/skills").string()));
  EXPECT_FALSE(set.untrusted_project.has_value());
}

TEST_F(ProjectTrust, TrustThroughASymlinkedEntry) {
  tree.symlink(tree.path("proj"), "proj-link");
  core::SkillsConfig cfg;
  cfg.trusted_project_dirs = {tree.path("proj-link").string()};
  auto set = core::compute_roots(ctx(), cfg);
  ASSERT_EQ(set.roots.size(), 3u);
  EXPECT_EQ(set.roots[0].tier, core::Tier::project);
}

TEST_F(ProjectTrust, ProjectDiscoveryFalseDisablesTheTier) {
  core::SkillsConfig cfg;
  cfg.project_discovery = false;
  cfg.trusted_project_dirs = {tree.path("proj").string()};
  auto set = core::compute_roots(ctx(), cfg);
  EXPECT_THAT(root_paths(set), ElementsAre("local:" + tree.path("hermes/skills").string()));
  EXPECT_FALSE(set.untrusted_project.has_value());
}

TEST_F(ProjectTrust, ProjectDirEqualToLocalIsNotAProjectRoot) {
  // HERMES_HOME inside the project: its skills dir is the local tier, not a project one.
  auto inside = make_context(tree.path("proj/.hermes"), tree.path("proj/src"), {{"HOME", "/nonexistent-home"}});
  core::SkillsConfig cfg;
  cfg.trusted_project_dirs = {tree.path("proj").string()};
  auto set = core::compute_roots(inside, cfg);
  EXPECT_THAT(root_paths(set), ElementsAre("project:" + tree.path("proj/.agents/skills").string(),
                                           "local:" + tree.path("proj/.hermes/skills").string()));
}

TEST(GitIdentity, ParsesPorcelainZ) {
  using namespace std::string_literals;
  const std::string out = "worktree /main\0HEAD abc\0branch refs/heads/main\0\0worktree /wt\0HEAD def\0detached\0\0"s;
  EXPECT_THAT(core::parse_worktree_paths(out), ElementsAre("/main", "/wt"));
  EXPECT_THAT(core::parse_worktree_paths(""), IsEmpty());
}

TEST(GitIdentity, NonRepositoryFallsBackToTheResolvedPath) {
  TempTree tree;
  tree.mkdir("plain/.git");  // not a real repository: git fails
  tree.symlink(tree.path("plain"), "alias");
  EXPECT_EQ(core::project_identity(tree.path("alias")), tree.path("plain"));
}

TEST(GitIdentity, LinkedWorktreeSharesTheMainIdentity) {
  if (!have_git()) {
    GTEST_SKIP() << "git not installed";
  }
  TempTree tree;
  const std::string main = tree.path("main").string();
  const std::string wt = tree.path("wt").string();
  std::string script = "cd '" + tree.root().string() + "' && git init -q main && git -C main -c user.name=t -c " +
                       "user.email=t@t commit -q --allow-empty -m init && git -C main worktree add -q '" + wt +
                       "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(script.c_str()), 0);
  EXPECT_EQ(core::project_identity(tree.path("wt")), tree.path("main"));
  EXPECT_EQ(core::project_identity(tree.path("main")), tree.path("main"));

  // Trusting the main checkout trusts its worktrees.
  tree.write("wt/.hermes/skills/s/SKILL.md", skill_text("s", "d"));
  tree.mkdir("hermes");
  core::SkillsConfig cfg;
  cfg.trusted_project_dirs = {main};
  auto ctx = make_context(tree.path("hermes"), tree.path("wt"), {{"HOME", "/nonexistent-home"}});
  auto set = core::compute_roots(ctx, cfg);
  ASSERT_EQ(set.roots.size(), 1u);
  EXPECT_EQ(set.roots[0].tier, core::Tier::project);
}

}  // namespace
}  // namespace skillrt::test

namespace skillrt::test {
namespace {

// Puts a fake `git` first on PATH for the test's duration.
class FakeGit {
 public:
  FakeGit(const TempTree& tree, const std::string& script) {
    fs::path bin = tree.mkdir("fake-bin");
    tree.write("fake-bin/git", "#!/bin/sh\n" + script);
    fs::permissions(bin / "git", fs::perms::owner_all);
    const char* old = std::getenv("PATH");
    m_old_path = old != nullptr ? old : "";
    ::setenv("PATH", (bin.string() + ":" + m_old_path).c_str(), 1);
  }
  ~FakeGit() { ::setenv("PATH", m_old_path.c_str(), 1); }
  FakeGit(const FakeGit&) = delete;
  FakeGit& operator=(const FakeGit&) = delete;

 private:
  std::string m_old_path;
};

TEST(GitIdentity, HungGitIsKilledAfterTheTimeout) {
  TempTree tree;
  tree.mkdir("proj/.git");
  FakeGit git(tree, "exec sleep 30\n");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(core::project_identity(tree.path("proj")), tree.path("proj"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::milliseconds(1900));
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

TEST(GitIdentity, GitEnvironmentIsStripped) {
  TempTree tree;
  tree.mkdir("proj/.git");
  // The fake git names the main worktree only when GIT_DIR is absent.
  FakeGit git(tree, "if [ -n \"$GIT_DIR\" ]; then exit 1; fi\nprintf 'worktree %s\\0HEAD 0\\0\\0worktree %s\\0\\0' '" +
                        tree.path("main").string() + "' '" + tree.path("proj").string() + "'\n");
  tree.mkdir("main");
  ::setenv("GIT_DIR", "/nonexistent", 1);
  fs::path identity = core::project_identity(tree.path("proj"));
  ::unsetenv("GIT_DIR");
  EXPECT_EQ(identity, tree.path("main"));
}

}  // namespace
}  // namespace skillrt::test
