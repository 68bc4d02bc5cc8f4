// A plugin's manifest (issue 18, spec §2.3 rule 1, §2.6 rule 2): the small
// file that makes a folder a plugin and names the namespace its skills are
// addressed under (`ns:skill`). Our own `plugin.yaml` is read first; a folder
// made for Claude Code, with `.claude-plugin/plugin.json`, works as it is.
//
//   name: devtools            # the namespace: 2-64 of [A-Za-z0-9_-]
//   version: 1.2.0            # optional
//   description: ...          # optional, cut at 1024 characters
//   enabled: true             # optional; config.yaml `plugins.*` overrides it
//   skills: skills            # optional: one folder or a list, inside the plugin
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_plugin_manifest_file = "plugin.yaml";
inline constexpr std::string_view k_claude_plugin_manifest_file = ".claude-plugin/plugin.json";
inline constexpr std::string_view k_default_plugin_skills_dir = "skills";

struct PluginManifest {
  std::string name;  // the namespace
  std::string version;
  std::string description;
  bool enabled = true;
  // The skill folders as written, relative to the plugin folder; never empty
  // (default: "skills").
  std::vector<std::string> skills_dirs;
  bool skills_dirs_given = false;  // `skills` was written: a missing folder is then an error
  std::filesystem::path file;      // the manifest read
};

// True when `ns` is a usable namespace: 2-64 of [A-Za-z0-9_-] (one character
// would read as a Windows drive letter, `c:skill`).
bool is_plugin_namespace(std::string_view ns);

// Reads and checks the manifest of the plugin folder `dir`. Errors
// (invalid_argument / parse_error / not_found / io_error) name the file and
// the key: no manifest, not UTF-8 or not YAML/JSON, not a mapping, a missing
// or unusable `name`, a key of the wrong type, a skills folder that is
// absolute or climbs out with `..`. Where the skill folders really lead
// (symlinks) is checked by find_plugins, which resolves them.
Result<PluginManifest> read_plugin_manifest(const std::filesystem::path& dir);

// The same checks on a manifest's text (`file` is only used in messages).
Result<PluginManifest> parse_plugin_manifest(std::string_view text, const std::filesystem::path& file);

}  // namespace skillrt::core
