// plugin.yaml and Claude Code's .claude-plugin/plugin.json: what is read, and
// the clear error for each kind of broken manifest.
#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"
#include "core/plugins/plugin_manifest.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

Result<PluginManifest> parse(const std::string& text) { return parse_plugin_manifest(text, "plugin.yaml"); }

std::string error_of(const std::string& text) {
  auto parsed = parse(text);
  EXPECT_FALSE(parsed) << text;
  return parsed ? std::string() : parsed.error().message;
}

TEST(PluginManifest, ReadsEveryField) {
  auto manifest = parse("name: devtools\nversion: 1.2.0\ndescription: Tools for developers\nenabled: false\n"
                        "skills: [skills, extra/skills]\n");
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_EQ(manifest->name, "devtools");
  EXPECT_EQ(manifest->version, "1.2.0");
  EXPECT_EQ(manifest->description, "Tools for developers");
  EXPECT_FALSE(manifest->enabled);
  EXPECT_EQ(manifest->skills_dirs, (std::vector<std::string>{"skills", "extra/skills"}));
  EXPECT_TRUE(manifest->skills_dirs_given);
}

TEST(PluginManifest, DefaultsToEnabledWithTheSkillsFolder) {
  auto manifest = parse("name: a_b-9\n");
  ASSERT_TRUE(manifest);
  EXPECT_TRUE(manifest->enabled);
  EXPECT_EQ(manifest->skills_dirs, (std::vector<std::string>{"skills"}));
  EXPECT_FALSE(manifest->skills_dirs_given);
  EXPECT_EQ(manifest->version, "");
}

TEST(PluginManifest, AVersionWrittenAsANumberIsKeptAsWritten) {
  auto manifest = parse("name: xy\nversion: 2.10\n");
  ASSERT_TRUE(manifest);
  EXPECT_EQ(manifest->version, "2.10");
}

TEST(PluginManifest, ReadsClaudeCodesJsonManifest) {
  auto manifest = parse_plugin_manifest(
      "{\n  \"name\": \"code-tools\",\n  \"version\": \"0.3.1\",\n  \"description\": \"Review helpers\",\n"
      "  \"author\": {\"name\": \"Someone\"},\n  \"skills\": \"./custom/skills/\"\n}\n",
      ".claude-plugin/plugin.json");
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_EQ(manifest->name, "code-tools");
  EXPECT_EQ(manifest->version, "0.3.1");
  EXPECT_EQ(manifest->skills_dirs, (std::vector<std::string>{"custom/skills"}));
}

TEST(PluginManifest, RefusesABadNamespace) {
  EXPECT_NE(error_of("version: 1\n").find("`name` (the plugin's namespace) is missing"), std::string::npos);
  EXPECT_NE(error_of("name: ''\n").find("is missing"), std::string::npos);
  EXPECT_NE(error_of("name: 'has space'\n").find("is not a usable namespace"), std::string::npos);
  EXPECT_NE(error_of("name: 'a:b'\n").find("is not a usable namespace"), std::string::npos);
  EXPECT_NE(error_of("name: '../up'\n").find("is not a usable namespace"), std::string::npos);
  EXPECT_NE(error_of("name: " + std::string(limits::k_max_name_length + 1, 'a') + "\n").find("not a usable"),
            std::string::npos);
  EXPECT_TRUE(parse("name: " + std::string(limits::k_max_name_length, 'a') + "\n"));
  EXPECT_NE(error_of("name: [a, b]\n").find("`name` must be a string"), std::string::npos);
}

TEST(PluginManifest, RefusesKeysOfTheWrongType) {
  EXPECT_NE(error_of("name: xy\nenabled: sometimes\n").find("`enabled` must be true or false"), std::string::npos);
  EXPECT_NE(error_of("name: xy\ndescription: {a: 1}\n").find("`description` must be a string"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: {a: 1}\n").find("`skills` must be a folder or a list"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: []\n").find("empty list"), std::string::npos);
}

TEST(PluginManifest, RefusesSkillsFoldersThatLeaveThePlugin) {
  EXPECT_NE(error_of("name: xy\nskills: /etc\n").find("points outside the plugin folder"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: ../other\n").find("points outside the plugin folder"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: [ok, a/../../b]\n").find("climbs with '..'"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: .\n").find("names the plugin folder itself"), std::string::npos);
  EXPECT_NE(error_of("name: xy\nskills: 'a\\\\b'\n").find("is not relative"), std::string::npos);
}

TEST(PluginManifest, RefusesWhatIsNotAManifest) {
  EXPECT_NE(error_of("- a\n- b\n").find("not a mapping"), std::string::npos);
  EXPECT_NE(error_of("name: [unclosed\n").find("plugin.yaml: "), std::string::npos);
  EXPECT_NE(error_of(std::string("name: x\xff\n")).find("not valid UTF-8"), std::string::npos);
  // Bounded: a manifest past the limit is refused, not read.
  EXPECT_FALSE(parse("name: xy\ndescription: '" + std::string(limits::k_max_plugin_manifest_bytes, 'd') + "'\n"));
}

TEST(PluginManifest, ListsAtMostSoManySkillFolders) {
  std::string list = "name: xy\nskills:\n";
  for (std::size_t i = 0; i < limits::k_max_plugin_skill_dirs; ++i) {
    list += "  - dir" + std::to_string(i) + "\n";
  }
  EXPECT_TRUE(parse(list));
  EXPECT_NE(error_of(list + "  - one-more\n").find("lists more than"), std::string::npos);
}

TEST(PluginManifest, CutsALongDescription) {
  auto manifest = parse("name: xy\ndescription: '" + std::string(2000, 'd') + "'\n");
  ASSERT_TRUE(manifest);
  EXPECT_EQ(manifest->description.size(), limits::k_max_description_length);
  EXPECT_TRUE(manifest->description.ends_with("..."));
}

TEST(PluginManifest, FindsTheFileInAFolder) {
  test::TempTree tree;
  tree.write("ours/plugin.yaml", "name: ours\n");
  tree.write("ours/.claude-plugin/plugin.json", "{\"name\": \"theirs\"}\n");
  tree.write("claude/.claude-plugin/plugin.json", "{\"name\": \"claude\"}\n");
  tree.mkdir("none");
  auto ours = read_plugin_manifest(tree.path() / "ours");
  ASSERT_TRUE(ours);
  EXPECT_EQ(ours->name, "ours");  // plugin.yaml is read first
  EXPECT_EQ(ours->file, tree.path() / "ours" / "plugin.yaml");
  auto claude = read_plugin_manifest(tree.path() / "claude");
  ASSERT_TRUE(claude);
  EXPECT_EQ(claude->name, "claude");
  auto none = read_plugin_manifest(tree.path() / "none");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::not_found);
  EXPECT_NE(none.error().message.find("not a plugin"), std::string::npos);
}

TEST(PluginManifest, ANamespaceIsLettersDigitsDashAndUnderscore) {
  EXPECT_TRUE(is_plugin_namespace("a-B_9"));
  EXPECT_FALSE(is_plugin_namespace(""));
  EXPECT_FALSE(is_plugin_namespace("p"));  // "p:x" reads as a drive letter
  EXPECT_FALSE(is_plugin_namespace("a.b"));
  EXPECT_FALSE(is_plugin_namespace("a/b"));
  EXPECT_FALSE(is_plugin_namespace("é"));
}

}  // namespace
}  // namespace skillrt::core
