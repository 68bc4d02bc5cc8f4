// config.yaml: Hermes' `skills.*` keys (spec §1, §2.4 rule 3).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/config/folder_policy.hpp"
#include "core/config/learning_config.hpp"
#include "core/yaml/yaml_node.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct SkillsConfig {
  std::vector<std::string> external_dirs;  // raw entries, unexpanded
  std::vector<std::string> disabled;       // names (parse_config_string_list)
  std::map<std::string, std::vector<std::string>> platform_disabled;
  std::vector<std::string> trusted_project_dirs;  // raw entries, unexpanded
  bool project_discovery = true;   // false only when literally `false`
  bool template_vars = true;
  bool inline_shell = false;
  int inline_shell_timeout_s = 10;  // minimum 1
  // Scan skill_manage writes (source agent-created); spec §2.10 rule 17.
  bool guard_agent_created = false;
  // Signatures (issue 5/5, core/hub/signature.hpp): public keys
  // ("ed25519:<b64>") whose signatures are trusted, and the trust levels
  // ("builtin", "trusted", "community", ...; "all") whose installs must carry a
  // valid signature by one of them.
  std::vector<std::string> trusted_keys;
  std::vector<std::string> require_signature;
  // `skills.plugin_dirs`: folders holding plugins beside HOME/plugins (raw
  // entries, unexpanded; core/plugins).
  std::vector<std::string> plugin_dirs;
};

// `plugins.*`: the operator's switches for the shared layer's plugins, by
// namespace. They override each manifest's own `enabled`; `disabled` wins
// when a namespace is in both.
struct PluginsConfig {
  std::vector<std::string> enabled;
  std::vector<std::string> disabled;
};

// `database.*` (issue 3/5): where database skills live.
struct DatabaseConfig {
  // `database.url`: "postgres://…" / "postgresql://…", "sqlite:PATH" or a
  // path; "" = HOME/skillrt.db. The --db flag overrides it.
  std::string url;
};

struct Config {
  SkillsConfig skills;
  DatabaseConfig database;
  PluginsConfig plugins;
  LearningConfig learning;  // nudges, write approval, the review's model (learning_config.hpp)
  FolderPolicies folders = default_folder_policies();  // skills.folders (folder_policy.hpp)
  YamlNode document = YamlNode::make_mapping({});  // the whole file, for skills.config.* etc.
  std::filesystem::path path;
  bool exists = false;
  // A config that is unreadable or not valid YAML counts as empty (as Hermes
  // does), but we keep the reason so `doctor` can show it.
  std::vector<Error> problems;
};

// Loads HOME/config.yaml (or an explicit --config file). Never fails: problems
// are recorded in Config::problems.
Config load_config(const std::filesystem::path& path);

// Hermes' parse_config_string_list: null → []; "[...]" string → JSON/Python list
// literal; other string → one name; list → stringified items; stripped, empties dropped.
std::vector<std::string> parse_config_string_list(const YamlNode* node);

// Names disabled for `platform` (global ∪ platform-specific).
std::vector<std::string> disabled_names(const SkillsConfig& cfg, const std::string& platform);

// `plugins.enabled` / `plugins.disabled` of a parsed YAML document (config.yaml,
// or a user's HOME/users/<uid>/plugins.yaml, which has the same keys).
PluginsConfig read_plugins_config(const YamlNode& document);

// One change to a list in a YAML config file: `section.key` gains `value`
// (present) or loses every entry equal to it.
struct ConfigListEdit {
  std::string section;
  std::string key;
  std::string value;
  bool present = true;
};

// Applies `edits` to the YAML file at `path` (created when missing) in one
// atomic write; a file that cannot be read as a mapping is never
// overwritten. Other keys are preserved (comments are not). Returns false
// when every list was already as asked and the file was left untouched.
Result<bool> edit_config_lists(const std::filesystem::path& path, const std::vector<ConfigListEdit>& edits);

// Adds / removes `dir` (already canonical) in skills.trusted_project_dirs and
// writes config.yaml atomically. Other keys are preserved (comments are not).
Result<bool> set_project_trust(const std::filesystem::path& config_path, const std::string& dir, bool trusted);

}  // namespace skillrt::core
