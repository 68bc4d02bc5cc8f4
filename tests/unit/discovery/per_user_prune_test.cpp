// HOME/users holds every user's private skills: a shared-layer root that
// contains it, or a symlink into it, must never turn them into shared skills.
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/discovery/catalog.hpp"
#include "core/discovery/walker.hpp"
#include "core/view/resolver.hpp"
#include "temp_tree.hpp"

namespace skillrt {
namespace {

using test::make_context;
using test::reasons_for;
using test::skill_text;
using test::TempTree;
using ::testing::Contains;

std::vector<std::string> listed_names(const core::Catalog& catalog) {
  std::vector<std::string> out;
  for (std::size_t index : catalog.listed) {
    out.emplace_back(catalog.records[index].name);
  }
  return out;
}

struct MultiUserHome {
  TempTree tree;
  core::Config config;
  MultiUserHome() {
    tree.write("home/skills/shared-one/SKILL.md", skill_text("shared-one", "A shared skill."));
    tree.write("home/users/alice/skills/alice-secret/SKILL.md", skill_text("alice-secret", "Alice only."));
    tree.write("home/users/bob/skills/bob-own/SKILL.md", skill_text("bob-own", "Bob only."));
    tree.mkdir("work");
  }
  core::Context ctx(const char* user) const {
    core::Context out = make_context(tree.path("home"), tree.path("work"), {{"HOME", tree.path("home").string()}});
    out.user_id = user;
    out.org_id = "1";
    return out;
  }
  core::Catalog build(const core::Context& context) const {
    return core::build_catalog(context, config, {.use_cache = false});
  }
};

TEST(PerUserPrune, ExternalDirContainingUsersDoesNotExposeOtherUsers) {
  MultiUserHome home;
  home.config.skills.external_dirs = {home.tree.path("home").string()};
  const core::Catalog catalog = home.build(home.ctx("bob"));
  const std::vector<std::string> names = listed_names(catalog);
  EXPECT_THAT(names, Contains("bob-own"));
  EXPECT_THAT(names, Contains("shared-one"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "alice-secret"), 0);
  for (const core::SkillRecord& record : catalog.records) {
    EXPECT_NE(record.name, "alice-secret") << record.skill_md.path();
    if (record.name == "bob-own") {
      EXPECT_EQ(record.tier, core::Tier::user);  // only through bob's own root, never as shared
    }
  }
  EXPECT_THAT(reasons_for(catalog.skipped, home.tree.path("home/users")), Contains("per_user_dir"));
  // Nor by naming the path below the shared root.
  EXPECT_TRUE(core::collect_candidates(catalog, "users/alice/skills/alice-secret", std::nullopt).empty());
}

TEST(PerUserPrune, SymlinkIntoUsersIsPruned) {
  MultiUserHome home;
  home.tree.symlink(home.tree.path("home/users/alice/skills"), "home/skills/link");
  home.tree.symlink(home.tree.path("home/users"), "home/skills/all-users");
  const core::Catalog catalog = home.build(home.ctx("bob"));
  const std::vector<std::string> names = listed_names(catalog);
  EXPECT_EQ(std::count(names.begin(), names.end(), "alice-secret"), 0);
  EXPECT_THAT(names, Contains("shared-one"));
  EXPECT_THAT(reasons_for(catalog.skipped, home.tree.path("home/skills/all-users")), Contains("per_user_dir"));
  EXPECT_THAT(reasons_for(catalog.skipped, home.tree.path("home/skills/link")), Contains("per_user_dir"));
  EXPECT_TRUE(core::collect_candidates(catalog, "link/alice-secret", std::nullopt).empty());
}

TEST(PerUserPrune, OwnRootIsUntouched) {
  MultiUserHome home;
  home.config.skills.external_dirs = {home.tree.path("home").string()};
  const core::Catalog catalog = home.build(home.ctx("alice"));
  const std::vector<std::string> names = listed_names(catalog);
  EXPECT_THAT(names, Contains("alice-secret"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "bob-own"), 0);
}

TEST(PerUserPrune, WalkerPrunesByIdentity) {
  TempTree tree;
  tree.write("root/a/SKILL.md", skill_text("a", "A."));
  tree.write("private/p/SKILL.md", skill_text("p", "P."));
  tree.symlink(tree.path("private"), "root/via-link");
  tree.symlink(tree.path("private/p"), "root/into-link");
  core::WalkLimits limits = core::default_walk_limits();
  limits.per_user_dirs.push_back(tree.path("private").native());
  const core::WalkResult result = core::walk_skill_root(tree.path("root"), limits, false);
  ASSERT_EQ(result.skill_files.size(), 1u);
  EXPECT_EQ(result.skill_files[0], tree.path("root/a/SKILL.md"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/via-link")), Contains("per_user_dir"));
  EXPECT_THAT(reasons_for(result.skipped, tree.path("root/into-link")), Contains("per_user_dir"));
  EXPECT_FALSE(core::dir_identity(tree.path("missing")).has_value());
}

}  // namespace
}  // namespace skillrt
