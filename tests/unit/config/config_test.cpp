#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "core/config/config.hpp"
#include "core/limits.hpp"
#include "temp_dir.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::TempDir;
using V = std::vector<std::string>;

Config load_text(const TempDir& dir, std::string_view yaml) { return load_config(dir.write("config.yaml", yaml)); }

TEST(ConfigTest, MissingFileGivesDefaults) {
  TempDir dir;
  Config cfg = load_config(dir.path() / "config.yaml");
  EXPECT_FALSE(cfg.exists);
  EXPECT_TRUE(cfg.problems.empty());
  EXPECT_TRUE(cfg.skills.external_dirs.empty());
  EXPECT_TRUE(cfg.skills.project_discovery);
  EXPECT_TRUE(cfg.skills.template_vars);
  EXPECT_FALSE(cfg.skills.inline_shell);
  EXPECT_EQ(cfg.skills.inline_shell_timeout_s, 10);
  EXPECT_TRUE(cfg.document.is_mapping());
}

TEST(ConfigTest, InvalidOrUnreadableConfigCountsAsEmptyWithAProblem) {
  TempDir dir;
  Config bad = load_text(dir, "skills:\n  disabled: [a\n");
  EXPECT_TRUE(bad.exists);
  ASSERT_EQ(bad.problems.size(), 1U);
  EXPECT_EQ(bad.problems[0].code, ErrorCode::parse_error);
  EXPECT_GT(bad.problems[0].pos.line, 0U);
  EXPECT_TRUE(bad.skills.disabled.empty());

  Config list = load_text(dir, "- a\n- b\n");
  ASSERT_EQ(list.problems.size(), 1U);
  EXPECT_TRUE(list.document.entries().empty());

  Config skills_scalar = load_text(dir, "skills: nope\n");
  EXPECT_EQ(skills_scalar.problems.size(), 1U);

  Config empty = load_text(dir, "");
  EXPECT_TRUE(empty.exists);
  EXPECT_TRUE(empty.problems.empty());

  fs::create_directories(dir.path() / "as_dir");
  Config directory = load_config(dir.path() / "as_dir");
  EXPECT_EQ(directory.problems.size(), 1U);

  fs::path fifo = dir.path() / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Config from_fifo = load_config(fifo);  // must not hang
  EXPECT_EQ(from_fifo.problems.size(), 1U);

  std::string huge = "skills:\n  disabled: [" + std::string(limits::k_max_config_bytes, 'a') + "]\n";
  Config too_big = load_text(dir, huge);
  ASSERT_EQ(too_big.problems.size(), 1U);
  EXPECT_EQ(too_big.problems[0].code, ErrorCode::limit_exceeded);
}

TEST(ConfigTest, DisabledValueForms) {
  TempDir dir;
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: [a, ' b ', '', 3, true]\n").skills.disabled,
            (V{"a", "b", "3", "True"}));
  EXPECT_EQ(load_text(dir, "skills:\n  disabled:\n    - x\n    - y\n").skills.disabled, (V{"x", "y"}));
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: one-skill\n").skills.disabled, (V{"one-skill"}));
  // `hermes config set` stores lists as JSON / Python literal strings.
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: '[\"a\", \"b\"]'\n").skills.disabled, (V{"a", "b"}));
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: \"['a', 'b']\"\n").skills.disabled, (V{"a", "b"}));
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: \"  [ 'spaced' ]  \"\n").skills.disabled, (V{"spaced"}));
  // A broken literal is one (odd) name, as ast.literal_eval failing makes it in Hermes.
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: \"[a, b\"\n").skills.disabled, (V{"[a, b"}));
  // A string is not split on commas.
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: a, b\n").skills.disabled, (V{"a, b"}));
  EXPECT_EQ(load_text(dir, "skills:\n  disabled:\n").skills.disabled, V{});
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: 5\n").skills.disabled, V{});
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: {a: 1}\n").skills.disabled, V{});
  EXPECT_EQ(load_text(dir, "skills:\n  disabled: '   '\n").skills.disabled, V{});
}

TEST(ConfigTest, PlatformDisabledAndUnion) {
  TempDir dir;
  Config cfg = load_text(dir,
                         "skills:\n"
                         "  disabled: [global, shared]\n"
                         "  platform_disabled:\n"
                         "    telegram: [tg-only, shared]\n"
                         "    discord: \"['dc1', 'dc2']\"\n"
                         "    slack: lone\n"
                         "    cli:\n");
  EXPECT_EQ(cfg.skills.platform_disabled.at("telegram"), (V{"tg-only", "shared"}));
  EXPECT_EQ(cfg.skills.platform_disabled.at("discord"), (V{"dc1", "dc2"}));
  EXPECT_EQ(cfg.skills.platform_disabled.at("slack"), (V{"lone"}));
  EXPECT_EQ(cfg.skills.platform_disabled.count("cli"), 0U);
  EXPECT_EQ(disabled_names(cfg.skills, "telegram"), (V{"global", "shared", "tg-only"}));
  EXPECT_EQ(disabled_names(cfg.skills, "discord"), (V{"global", "shared", "dc1", "dc2"}));
  EXPECT_EQ(disabled_names(cfg.skills, ""), (V{"global", "shared"}));
  EXPECT_EQ(disabled_names(cfg.skills, "whatsapp"), (V{"global", "shared"}));
  Config not_mapping = load_text(dir, "skills:\n  platform_disabled: [a]\n");
  EXPECT_TRUE(not_mapping.skills.platform_disabled.empty());
}

TEST(ConfigTest, ExternalAndTrustedDirForms) {
  TempDir dir;
  EXPECT_EQ(load_text(dir, "skills:\n  external_dirs: ~/more-skills\n").skills.external_dirs, (V{"~/more-skills"}));
  EXPECT_EQ(load_text(dir, "skills:\n  external_dirs: [/a, ' /b ', '', 7]\n").skills.external_dirs,
            (V{"/a", "/b", "7"}));
  EXPECT_EQ(load_text(dir, "skills:\n  external_dirs: {a: b}\n").skills.external_dirs, V{});
  EXPECT_EQ(load_text(dir, "skills:\n  external_dirs: 42\n").skills.external_dirs, V{});
  EXPECT_EQ(load_text(dir, "skills:\n  external_dirs: '42'\n").skills.external_dirs, (V{"42"}));
  EXPECT_EQ(load_text(dir, "skills:\n  trusted_project_dirs: /p\n").skills.trusted_project_dirs, (V{"/p"}));
  EXPECT_EQ(load_text(dir, "skills:\n  trusted_project_dirs:\n    - /p\n    - $HOME/q\n").skills.trusted_project_dirs,
            (V{"/p", "$HOME/q"}));
}

TEST(ConfigTest, BooleanAndTimeoutKeys) {
  TempDir dir;
  Config cfg = load_text(dir,
                         "skills:\n  project_discovery: false\n  template_vars: false\n  inline_shell: true\n"
                         "  inline_shell_timeout: 30\n");
  EXPECT_FALSE(cfg.skills.project_discovery);
  EXPECT_FALSE(cfg.skills.template_vars);
  EXPECT_TRUE(cfg.skills.inline_shell);
  EXPECT_EQ(cfg.skills.inline_shell_timeout_s, 30);
  // Only a real boolean false disables project discovery.
  for (const char* value : {"'false'", "no", "0", "off", "", "null"}) {
    Config c = load_text(dir, std::string("skills:\n  project_discovery: ") + value + "\n");
    EXPECT_TRUE(c.skills.project_discovery) << value;
  }
  EXPECT_FALSE(load_text(dir, "skills:\n  project_discovery: FALSE\n").skills.project_discovery);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: 0\n").skills.inline_shell_timeout_s, 1);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: -5\n").skills.inline_shell_timeout_s, 1);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: '20'\n").skills.inline_shell_timeout_s, 20);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: 2.9\n").skills.inline_shell_timeout_s, 2);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: soon\n").skills.inline_shell_timeout_s, 10);
  EXPECT_EQ(load_text(dir, "skills:\n  inline_shell_timeout: 99999999999999\n").skills.inline_shell_timeout_s,
            INT_MAX);
  EXPECT_FALSE(load_text(dir, "skills:\n  inline_shell: 'false'x\n").skills.inline_shell);  // invalid YAML
  EXPECT_TRUE(load_text(dir, "skills:\n  inline_shell: 'false'\n").skills.inline_shell);  // truthy string
  EXPECT_FALSE(load_text(dir, "skills:\n  inline_shell: 0\n").skills.inline_shell);
}

TEST(ConfigTest, DuplicateKeysLastWinsAsInPyYaml) {
  TempDir dir;
  Config cfg = load_text(dir, "skills:\n  disabled: [old]\n  disabled: [new]\n");
  EXPECT_TRUE(cfg.problems.empty());
  EXPECT_EQ(cfg.skills.disabled, (V{"new"}));
  fs::path path = dir.write("dup/config.yaml", "skills:\n  inline_shell: true\nskills:\n  disabled: [x]\n");
  auto trusted = set_project_trust(path, "/p", true);
  ASSERT_TRUE(trusted) << trusted.error().message;
  Config after = load_config(path);
  EXPECT_EQ(after.skills.disabled, (V{"x"}));
  EXPECT_EQ(after.skills.trusted_project_dirs, (V{"/p"}));
  EXPECT_FALSE(after.skills.inline_shell);
}

TEST(ConfigTest, DocumentIsKeptForOtherKeys) {
  TempDir dir;
  Config cfg = load_text(dir, "model: x\nskills:\n  config:\n    wiki.path: /w\n");
  ASSERT_NE(cfg.document.get("model"), nullptr);
  const YamlNode* skills = cfg.document.get("skills");
  ASSERT_NE(skills, nullptr);
  EXPECT_EQ(skills->get("config")->get("wiki.path")->text(), "/w");
}

TEST(ConfigTest, TrustRoundTripPreservesOtherKeysAndTypes) {
  TempDir dir;
  fs::path path = dir.write("config.yaml",
                            "model:\n  name: gpt\n  max_turns: 014\n"
                            "memory:\n  nudge_interval: 10\n  enabled: true\n  label: 'true'\n  mode: 'yes'\n"
                            "skills:\n  disabled: [a]\n  inline_shell_timeout: 5\n"
                            "  trusted_project_dirs:\n    - /already\n"
                            "notes: |\n  first\n  second\n");
  auto before = parse_yaml(read_text(path), 1 << 20);
  ASSERT_TRUE(before);

  auto added = set_project_trust(path, "/work/proj", true);
  ASSERT_TRUE(added) << added.error().message;
  EXPECT_TRUE(*added);
  Config cfg = load_config(path);
  ASSERT_TRUE(cfg.problems.empty());
  EXPECT_EQ(cfg.skills.trusted_project_dirs, (V{"/already", "/work/proj"}));
  EXPECT_EQ(cfg.skills.disabled, (V{"a"}));
  EXPECT_EQ(cfg.skills.inline_shell_timeout_s, 5);
  const YamlNode& doc = cfg.document;
  EXPECT_EQ(doc.entries()[0].first, "model");
  EXPECT_EQ(doc.get("model")->get("max_turns")->scalar_type(), YamlNode::ScalarType::integer);
  EXPECT_EQ(doc.get("model")->get("max_turns")->text(), "014");
  EXPECT_EQ(doc.get("memory")->get("enabled")->scalar_type(), YamlNode::ScalarType::boolean);
  EXPECT_EQ(doc.get("memory")->get("label")->scalar_type(), YamlNode::ScalarType::string);
  EXPECT_EQ(doc.get("memory")->get("label")->text(), "true");
  EXPECT_EQ(doc.get("memory")->get("mode")->scalar_type(), YamlNode::ScalarType::string);
  EXPECT_EQ(doc.get("notes")->text(), "first\nsecond\n");
  // PyYAML would read `yes` as a boolean: it must stay quoted on disk.
  EXPECT_NE(read_text(path).find("'yes'"), std::string::npos) << read_text(path);

  // Adding again changes nothing and leaves the file untouched.
  std::string text_after_add = read_text(path);
  auto again = set_project_trust(path, "/work/proj", true);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(read_text(path), text_after_add);

  auto removed = set_project_trust(path, "/work/proj", false);
  ASSERT_TRUE(removed);
  EXPECT_TRUE(*removed);
  EXPECT_EQ(load_config(path).skills.trusted_project_dirs, (V{"/already"}));
  auto removed_again = set_project_trust(path, "/work/proj", false);
  ASSERT_TRUE(removed_again);
  EXPECT_FALSE(*removed_again);
}

TEST(ConfigTest, TrustCreatesConfigAndHandlesStringForm) {
  TempDir dir;
  fs::path path = dir.path() / "home" / "config.yaml";
  auto created = set_project_trust(path, "/p1", true);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_TRUE(*created);
  EXPECT_EQ(load_config(path).skills.trusted_project_dirs, (V{"/p1"}));

  fs::path string_form = dir.write("s/config.yaml", "skills:\n  trusted_project_dirs: /p0\n");
  auto appended = set_project_trust(string_form, "/p1", true);
  ASSERT_TRUE(appended);
  EXPECT_EQ(load_config(string_form).skills.trusted_project_dirs, (V{"/p0", "/p1"}));

  fs::path empty = dir.write("e/config.yaml", "# only a comment\n");
  ASSERT_TRUE(set_project_trust(empty, "/p1", true));
  EXPECT_EQ(load_config(empty).skills.trusted_project_dirs, (V{"/p1"}));

  fs::path null_skills = dir.write("n/config.yaml", "skills:\nother: 1\n");
  ASSERT_TRUE(set_project_trust(null_skills, "/p1", true));
  Config n = load_config(null_skills);
  EXPECT_EQ(n.skills.trusted_project_dirs, (V{"/p1"}));
  EXPECT_NE(n.document.get("other"), nullptr);
}

TEST(ConfigTest, TrustNeverClobbersABrokenConfig) {
  TempDir dir;
  const std::string broken = "skills:\n  trusted_project_dirs: [a\n";
  fs::path path = dir.write("config.yaml", broken);
  auto result = set_project_trust(path, "/p", true);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::parse_error);
  EXPECT_EQ(read_text(path), broken);

  fs::path scalar_skills = dir.write("x/config.yaml", "skills: 3\n");
  EXPECT_FALSE(set_project_trust(scalar_skills, "/p", true));
  fs::path map_dirs = dir.write("y/config.yaml", "skills:\n  trusted_project_dirs: {a: 1}\n");
  EXPECT_FALSE(set_project_trust(map_dirs, "/p", true));
  EXPECT_FALSE(set_project_trust(dir.path() / "z.yaml", "  ", true));
}

}  // namespace
}  // namespace skillrt::core
