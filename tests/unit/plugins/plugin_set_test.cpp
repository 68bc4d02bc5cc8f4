// find_plugins over real folders: precedence, switches, and every way a
// folder is left out (with the reason) while the others still load.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <cstdio>

#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/plugins/plugin_set.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

class PluginSetTest : public ::testing::Test {
protected:
  PluginSetTest() {
    shared = fs::canonical(tree.mkdir("home/plugins"));
    skills = fs::canonical(tree.mkdir("home/skills"));
  }

  fs::path plugin(const std::string& folder, const std::string& manifest) {
    tree.write("home/plugins/" + folder + "/plugin.yaml", manifest);
    return tree.mkdir("home/plugins/" + folder + "/skills");
  }

  PluginSet find(PluginsConfig switches = {}) {
    return find_plugins({PluginsFolder{shared, Layer::shared, std::move(switches), "config.yaml"}}, {skills},
                        std::nullopt);
  }

  bool has_problem(const PluginSet& set, const std::string& text) const {
    return std::any_of(set.problems.begin(), set.problems.end(),
                       [&](const PluginProblem& p) { return p.message.find(text) != std::string::npos; });
  }

  test::TempTree tree;
  fs::path shared;
  fs::path skills;
};

TEST_F(PluginSetTest, FindsPluginsByFolderNameWithTheirSkillFolders) {
  plugin("b-tools", "name: beta\nversion: '2'\n");
  plugin("a-tools", "name: alpha\n");
  tree.mkdir("home/plugins/.hub");               // the hub's own folder
  tree.write("home/plugins/README.md", "notes");  // a file is no plugin
  const PluginSet set = find();
  ASSERT_EQ(set.plugins.size(), 2u);
  EXPECT_EQ(set.plugins[0].name(), "alpha");
  EXPECT_EQ(set.plugins[1].name(), "beta");
  EXPECT_EQ(set.plugins[1].manifest.version, "2");
  EXPECT_EQ(set.plugins[0].skill_dirs, (std::vector<fs::path>{shared / "a-tools" / "skills"}));
  EXPECT_TRUE(set.plugins[0].enabled);
  EXPECT_EQ(set.plugins[0].switched_by, "manifest");
  EXPECT_TRUE(set.problems.empty());
  EXPECT_EQ(set.find("beta"), &set.plugins[1]);
  EXPECT_EQ(set.find("gamma"), nullptr);
}

TEST_F(PluginSetTest, SwitchesOverrideTheManifestAndDisabledWins) {
  plugin("on", "name: on\nenabled: false\n");
  plugin("off", "name: off\n");
  plugin("both", "name: both\n");
  const PluginSet set = find(PluginsConfig{{"on", "both"}, {"off", "both"}});
  EXPECT_TRUE(set.find("on")->enabled);
  EXPECT_EQ(set.find("on")->switched_by, "config.yaml");
  EXPECT_FALSE(set.find("off")->enabled);
  EXPECT_FALSE(set.find("both")->enabled);
  const PluginSet plain = find();
  EXPECT_FALSE(plain.find("on")->enabled);
  EXPECT_EQ(plain.find("on")->switched_by, "manifest");
}

TEST_F(PluginSetTest, ABrokenManifestLeavesOnlyThatPluginOut) {
  plugin("good", "name: good\n");
  plugin("broken", "name: [oops\n");
  plugin("badname", "name: 'no spaces'\n");
  tree.mkdir("home/plugins/empty");
  const PluginSet set = find();
  ASSERT_EQ(set.plugins.size(), 1u);
  EXPECT_EQ(set.plugins[0].name(), "good");
  EXPECT_EQ(set.problems.size(), 3u);
  EXPECT_TRUE(has_problem(set, "not a usable namespace"));
  EXPECT_TRUE(has_problem(set, "not a plugin"));
}

TEST_F(PluginSetTest, ANamespaceThatIsACategoryFolderIsLeftOut) {
  tree.mkdir("home/skills/devops/deploy");
  plugin("devops", "name: devops\n");
  plugin("other", "name: other\n");
  const PluginSet set = find();
  EXPECT_EQ(set.find("devops"), nullptr);
  EXPECT_NE(set.find("other"), nullptr);
  EXPECT_TRUE(has_problem(set, "is also the category folder"));
}

TEST_F(PluginSetTest, TheFirstPluginOfANamespaceWins) {
  plugin("one", "name: same\n");
  plugin("two", "name: same\n");
  const PluginSet set = find();
  ASSERT_EQ(set.plugins.size(), 1u);
  EXPECT_EQ(set.plugins[0].dir, shared / "one");
  EXPECT_TRUE(has_problem(set, "namespace 'same' is already taken"));
}

TEST_F(PluginSetTest, SkillFoldersMustStayInsideThePlugin) {
  tree.mkdir("elsewhere/skills");
  tree.write("home/plugins/escape/plugin.yaml", "name: escape\n");
  tree.symlink(tree.path() / "elsewhere" / "skills", "home/plugins/escape/skills");
  tree.write("home/plugins/missing/plugin.yaml", "name: missing\nskills: nowhere\n");
  tree.write("home/plugins/file/plugin.yaml", "name: file\nskills: notes.md\n");
  tree.write("home/plugins/file/notes.md", "x");
  tree.write("home/plugins/noskills/plugin.yaml", "name: noskills\n");  // default folder absent: fine
  const PluginSet set = find();
  ASSERT_EQ(set.plugins.size(), 1u);
  EXPECT_EQ(set.plugins[0].name(), "noskills");
  EXPECT_TRUE(set.plugins[0].skill_dirs.empty());
  EXPECT_TRUE(has_problem(set, "`skills` points outside the plugin folder"));
  EXPECT_TRUE(has_problem(set, "which does not exist"));
  EXPECT_TRUE(has_problem(set, "which is not a folder"));
}

TEST_F(PluginSetTest, ALinkedPluginFolderMustStayInItsFolder) {
  tree.write("outside/plugin.yaml", "name: outside\n");
  tree.symlink(tree.path() / "outside", "home/plugins/linked");
  const PluginSet set = find();
  EXPECT_TRUE(set.plugins.empty());
  EXPECT_TRUE(has_problem(set, "outside"));
}

TEST_F(PluginSetTest, ASharedPluginNeverReachesIntoUserHomes) {
  const fs::path users = fs::canonical(tree.mkdir("home/users"));
  tree.write("home/users/bob/plugins/p/plugin.yaml", "name: bobs\n");
  // A plugins folder configured inside HOME/users is searched as shared:
  // every plugin in it is refused.
  const PluginSet set = find_plugins(
      {PluginsFolder{fs::canonical(tree.path() / "home/users/bob/plugins"), Layer::shared, {}, "config.yaml"}}, {},
      users);
  EXPECT_TRUE(set.plugins.empty());
  EXPECT_TRUE(has_problem(set, "per-user homes"));
}

TEST_F(PluginSetTest, AtMostSoManyPluginsAreReadPerFolder) {
  for (std::size_t i = 0; i <= limits::k_max_plugins_per_dir; ++i) {
    char folder[16];
    std::snprintf(folder, sizeof folder, "p%04zu", i);
    tree.write(std::string("home/plugins/") + folder + "/plugin.yaml", std::string("name: ") + folder + "\n");
  }
  const PluginSet set = find();
  EXPECT_EQ(set.plugins.size(), limits::k_max_plugins_per_dir);
  char last[16];
  std::snprintf(last, sizeof last, "p%04zu", limits::k_max_plugins_per_dir);
  EXPECT_EQ(set.find(last), nullptr);  // the last by name is the one left out
  EXPECT_TRUE(has_problem(set, "plugin folders; only the first"));
}

TEST_F(PluginSetTest, SwitchesAreWrittenAtomicallyAndKeepOtherKeys) {
  const fs::path file = tree.write("home/config.yaml", "skills:\n  disabled: [x]\nplugins:\n  enabled: [pl]\n");
  auto changed = write_plugin_switch(file, "pl", false);
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_TRUE(*changed);
  auto switches = read_plugin_switches(file);
  ASSERT_TRUE(switches);
  EXPECT_TRUE(switches->enabled.empty());
  EXPECT_EQ(switches->disabled, (std::vector<std::string>{"pl"}));
  const std::string text = *read_regular_file(file, 1 << 16);
  EXPECT_NE(text.find("disabled"), std::string::npos);
  EXPECT_NE(text.find("- x"), std::string::npos);  // skills.disabled kept
  auto again = write_plugin_switch(file, "pl", false);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);  // already so: untouched
  auto back = write_plugin_switch(file, "pl", true);
  ASSERT_TRUE(back && *back);
  switches = read_plugin_switches(file);
  EXPECT_EQ(switches->enabled, (std::vector<std::string>{"pl"}));
  EXPECT_TRUE(switches->disabled.empty());
}

TEST_F(PluginSetTest, ASwitchNeverOverwritesAFileItCannotRead) {
  const fs::path file = tree.write("home/config.yaml", "skills: [unclosed\n");
  auto changed = write_plugin_switch(file, "pl", true);
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().message.find("not modified"), std::string::npos);
  EXPECT_EQ(*read_regular_file(file, 1 << 16), "skills: [unclosed\n");
  EXPECT_FALSE(write_plugin_switch(tree.path() / "home/new.yaml", "bad ns", true));
  // A missing file is created, and reading a missing file is no switches.
  auto created = write_plugin_switch(tree.path() / "home/users.yaml", "pl", true);
  ASSERT_TRUE(created && *created);
  auto none = read_plugin_switches(tree.path() / "home/absent.yaml");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->enabled.empty() && none->disabled.empty());
}

}  // namespace
}  // namespace skillrt::core
