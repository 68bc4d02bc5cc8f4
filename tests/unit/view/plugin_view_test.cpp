// Plugin skills through the catalog and skill_view (spec §2.6 rule 2, §2.7
// rules 2 and 20): qualified names after the flat skills, the bundle banner,
// Hermes' errors for a disabled plugin and a missing skill, the fall-through
// to `category/skill`, switches, and the colon never read as a path.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/discovery/catalog.hpp"
#include "protocol/catalog_json.hpp"
#include "view_fixture.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;

class PluginView : public ViewFixture {
protected:
  // HOME/plugins/<folder> with a manifest and the given skills (name → body).
  void plugin(const std::string& folder, const std::string& manifest,
              const std::vector<std::pair<std::string, std::string>>& skills) {
    m_tree.write("home/plugins/" + folder + "/plugin.yaml", manifest);
    for (const auto& [name, body] : skills) {
      m_tree.write("home/plugins/" + folder + "/skills/" + name + "/SKILL.md",
                   "---\nname: " + name + "\ndescription: The " + name + " skill of " + folder + ".\n---\n" + body);
    }
  }

  std::vector<std::string> listed_names() {
    const core::Catalog catalog = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.use_cache = false});
    const protocol::Json list = protocol::list_json(catalog, std::nullopt);
    std::vector<std::string> names;
    for (const auto& entry : list["skills"]) {
      names.push_back(entry["name"].get<std::string>());
    }
    return names;
  }
};

TEST_F(PluginView, PluginSkillsAreListedQualifiedUnderTheirNamespace) {
  skill("alpha", "name: alpha\ndescription: Flat.\n");
  plugin("devtools", "name: devtools\nversion: 1.0.0\n", {{"review", "Review body.\n"}, {"lint", "Lint body.\n"}});
  const core::Catalog catalog = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.use_cache = false});
  const protocol::Json list = protocol::list_json(catalog, std::nullopt);
  ASSERT_EQ(list["count"], 3);
  // Uncategorised flat skills first, then the plugin's, grouped as its category.
  EXPECT_EQ(list["skills"][0]["name"], "alpha");
  EXPECT_EQ(list["skills"][1]["name"], "devtools:lint");
  EXPECT_EQ(list["skills"][1]["category"], "devtools");
  EXPECT_EQ(list["skills"][1]["description"], "The lint skill of devtools.");
  EXPECT_EQ(list["skills"][2]["name"], "devtools:review");
  EXPECT_EQ(list["categories"], (protocol::Json{"devtools"}));
  const protocol::Json only = protocol::list_json(catalog, std::string("devtools"));
  EXPECT_EQ(only["count"], 2);
}

TEST_F(PluginView, ViewServesTheBundleBannerAndRule20Fields) {
  plugin("devtools", "name: devtools\n", {{"review", "Review body at ${CLAUDE_PLUGIN_ROOT}/x.\n"}, {"lint", "L\n"}});
  m_tree.write("home/plugins/devtools/skills/review/references/guide.md", "Guide.\n");
  const protocol::Json doc = view("devtools:review");
  ASSERT_EQ(doc["success"], true) << doc.dump();
  EXPECT_EQ(doc["name"], "devtools:review");
  EXPECT_EQ(doc["plugin"], "devtools");
  EXPECT_EQ(doc["source"], "plugin");
  EXPECT_EQ(doc["description"], "The review skill of devtools.");
  EXPECT_EQ(doc["readiness_status"], "available");
  const std::string content = doc["content"];
  EXPECT_TRUE(content.starts_with("[Bundle context: This skill is part of the 'devtools' plugin. Other skills in "
                                  "it: devtools:lint.]\n\n---\nname: review\n"))
      << content;
  const std::string root = fs::canonical(m_ctx.home / "plugins" / "devtools").string();
  EXPECT_NE(content.find("Review body at " + root + "/x."), std::string::npos);
  EXPECT_EQ(doc["linked_files"]["references"], (protocol::Json{"references/guide.md"}));
  EXPECT_EQ(doc["path"], "review/SKILL.md");
  EXPECT_TRUE(doc["skill_dir"].get<std::string>().ends_with("plugins/devtools/skills/review"));
  // A file of a plugin's skill is served as any other.
  const protocol::Json file = view("devtools:review", std::string("references/guide.md"));
  ASSERT_EQ(file["success"], true) << file.dump();
  EXPECT_EQ(file["content"], "Guide.\n");
}

TEST_F(PluginView, ABareNameNeverReachesAPluginSkill) {
  plugin("devtools", "name: devtools\n", {{"review", "R\n"}});
  const protocol::Json bare = view("review");
  EXPECT_EQ(bare["success"], false);
  EXPECT_EQ(bare["error"], "Skill 'review' not found.");
  // Nor a path into the plugins folder.
  EXPECT_EQ(view("../plugins/devtools/skills/review")["success"], false);
  EXPECT_EQ(view("devtools/review")["success"], false);
}

TEST_F(PluginView, AMissingSkillNamesThePluginsSkills) {
  plugin("devtools", "name: devtools\n", {{"review", "R\n"}, {"lint", "L\n"}});
  const protocol::Json missing = view("devtools:nope");
  EXPECT_EQ(missing["success"], false);
  EXPECT_EQ(missing["error"], "Skill 'nope' not found in plugin 'devtools'.");
  EXPECT_EQ(missing["available_skills"], (protocol::Json{"devtools:lint", "devtools:review"}));
  EXPECT_EQ(missing["hint"], "Plugin 'devtools' has 2 skills; use one of available_skills.");
}

TEST_F(PluginView, ADisabledPluginSaysHowToEnableItAndIsNotListed) {
  plugin("devtools", "name: devtools\nenabled: false\n", {{"review", "R\n"}});
  const protocol::Json doc = view("devtools:review");
  EXPECT_EQ(doc["success"], false);
  EXPECT_EQ(doc["error"], "Plugin 'devtools' is disabled. Re-enable with: skillrt plugin enable devtools");
  EXPECT_TRUE(listed_names().empty());
  // config.yaml's switch turns it on.
  m_cfg.plugins.enabled = {"devtools"};
  EXPECT_EQ(view("devtools:review")["success"], true);
  EXPECT_EQ(listed_names(), (std::vector<std::string>{"devtools:review"}));
  m_cfg.plugins.disabled = {"devtools"};
  EXPECT_EQ(view("devtools:review")["success"], false);
}

TEST_F(PluginView, ADisabledPluginSkillIsDisabledByItsQualifiedName) {
  plugin("devtools", "name: devtools\n", {{"review", "R\n"}, {"lint", "L\n"}});
  m_cfg.skills.disabled = {"devtools:review"};
  const protocol::Json doc = view("devtools:review");
  EXPECT_EQ(doc["success"], false);
  EXPECT_EQ(doc["error"], "Skill 'devtools:review' is disabled.");
  EXPECT_EQ(listed_names(), (std::vector<std::string>{"devtools:lint"}));
  // The bare name in skills.disabled does not reach it.
  m_cfg.skills.disabled = {"review"};
  EXPECT_EQ(view("devtools:review")["success"], true);
}

TEST_F(PluginView, APlatformGatedPluginSkillIsUnsupported) {
  m_tree.write("home/plugins/p/plugin.yaml", "name: pm\n");
  m_tree.write("home/plugins/p/skills/mac/SKILL.md", "---\nname: mac\ndescription: d\nplatforms: [macos]\n---\nx\n");
  const protocol::Json doc = view("pm:mac");
  EXPECT_EQ(doc["success"], false);
  EXPECT_EQ(doc["error"], "Skill 'pm:mac' is not supported on this platform.");
  EXPECT_EQ(doc["readiness_status"], "unsupported");
}

TEST_F(PluginView, WithoutAPluginTheNamespaceFallsThroughToACategory) {
  skill("devops/deploy", "name: deploy\ndescription: Deploys.\n");
  const protocol::Json doc = view("devops:deploy");
  ASSERT_EQ(doc["success"], true) << doc.dump();
  EXPECT_EQ(doc["name"], "deploy");
  EXPECT_FALSE(doc.contains("plugin"));
  EXPECT_EQ(view("bad ns:deploy")["error"], "Invalid namespace 'bad ns' in 'bad ns:deploy'. Namespaces must match "
                                           "[a-zA-Z0-9_-]+.");
}

TEST_F(PluginView, APluginNamedLikeACategoryIsLeftOutSoTheCategoryKeepsWorking) {
  skill("devops/deploy", "name: deploy\ndescription: Deploys.\n");
  plugin("devops", "name: devops\n", {{"deploy", "Plugin deploy.\n"}});
  const protocol::Json doc = view("devops:deploy");
  ASSERT_EQ(doc["success"], true);
  EXPECT_FALSE(doc.contains("plugin"));
  const core::Catalog catalog = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.use_cache = false});
  const protocol::Json doctor = protocol::doctor_json(catalog, m_cfg);
  ASSERT_EQ(doctor["plugin_problems"].size(), 1u);
  EXPECT_NE(doctor["plugin_problems"][0]["message"].get<std::string>().find("is also the category folder"),
            std::string::npos);
}

TEST_F(PluginView, ABrokenPluginBreaksNothingElse) {
  skill("alpha", "name: alpha\ndescription: Flat.\n");
  plugin("good", "name: good\n", {{"one", "1\n"}});
  m_tree.write("home/plugins/bad/plugin.yaml", "name: [broken\n");
  m_tree.write("home/plugins/bad/skills/x/SKILL.md", "---\nname: x\ndescription: d\n---\n");
  m_tree.write("home/plugins/out/plugin.yaml", "name: out\nskills: ../../skills\n");
  EXPECT_EQ(listed_names(), (std::vector<std::string>{"alpha", "good:one"}));
  EXPECT_EQ(view("bad:x")["error"], "Skill 'bad:x' not found.");  // no plugin 'bad': falls through to bad/x
  EXPECT_EQ(view("good:one")["success"], true);
}

TEST_F(PluginView, PluginDirsAddFoldersAfterHomePlugins) {
  const fs::path extra = m_tree.mkdir("extra-plugins");
  m_tree.write("extra-plugins/tools/plugin.yaml", "name: tools\n");
  m_tree.write("extra-plugins/tools/skills/t/SKILL.md", "---\nname: t\ndescription: d\n---\n");
  m_tree.write("extra-plugins/dup/plugin.yaml", "name: devtools\n");
  m_tree.write("extra-plugins/dup/skills/other/SKILL.md", "---\nname: other\ndescription: d\n---\n");
  plugin("devtools", "name: devtools\n", {{"review", "R\n"}});
  m_cfg.skills.plugin_dirs = {extra.string(), m_tree.path().string() + "/missing"};
  EXPECT_EQ(listed_names(), (std::vector<std::string>{"devtools:review", "tools:t"}));
  const core::Catalog catalog = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.use_cache = false});
  EXPECT_EQ(catalog.roots.plugins.problems.size(), 2u);  // the duplicate namespace and the missing folder
}

TEST_F(PluginView, AUsersOwnPluginsAreTheirsAlone) {
  m_ctx.user_id = "alice";
  m_ctx.org_id = "0";
  ASSERT_EQ(view("x")["success"], false);  // creates alice's home
  m_tree.write("home/users/alice/plugins/mine/plugin.yaml", "name: mine\n");
  m_tree.write("home/users/alice/plugins/mine/skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nMine.\n");
  const protocol::Json doc = view("mine:s");
  ASSERT_EQ(doc["success"], true) << doc.dump();
  EXPECT_EQ(doc["source"], "user-plugin");
  EXPECT_EQ(listed_names(), (std::vector<std::string>{"mine:s"}));
  // Alice switches it off in her own plugins.yaml.
  m_tree.write("home/users/alice/plugins.yaml", "plugins:\n  disabled: [mine]\n");
  EXPECT_EQ(view("mine:s")["error"], "Plugin 'mine' is disabled. Re-enable with: skillrt plugin enable mine");
  // Bob never sees it.
  m_ctx.user_id = "bob";
  EXPECT_TRUE(listed_names().empty());
  EXPECT_EQ(view("mine:s")["error"], "Skill 'mine:s' not found.");
}

}  // namespace
}  // namespace skillrt::test
