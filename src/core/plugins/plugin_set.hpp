// The plugins of a context (issue 18, spec §2.3 rule 1): every folder with a
// manifest (plugin_manifest.hpp) under the user's HOME/users/<uid>/plugins,
// HOME/plugins and skills.plugin_dirs, in that order, with whether each is
// enabled and why, and the reasons any folder was not taken as a plugin.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "skillrt/result.hpp"
#include "core/plugins/plugin_manifest.hpp"
#include "core/tenancy/layer.hpp"

namespace skillrt::core {

struct Plugin {
  PluginManifest manifest;                    // manifest.name is the namespace
  std::filesystem::path dir;                  // the plugin folder, canonical
  std::vector<std::filesystem::path> skill_dirs;  // canonical, inside `dir`, existing
  Layer layer = Layer::shared;                // user: HOME/users/<uid>/plugins; shared: the rest
  bool enabled = true;
  // What decided `enabled`: "manifest", or the file whose `plugins.enabled` /
  // `plugins.disabled` switched it (config.yaml, or the user's plugins.yaml).
  std::string switched_by = "manifest";

  const std::string& name() const { return manifest.name; }
};

// A folder that is not a plugin, or a plugin left out, and why.
struct PluginProblem {
  std::filesystem::path path;
  std::string message;
};

struct PluginSet {
  std::vector<Plugin> plugins;  // precedence order; one per namespace
  std::vector<PluginProblem> problems;

  // The plugin of namespace `ns` (enabled or not), or null.
  const Plugin* find(std::string_view ns) const;
};

// HOME/plugins: the shared layer's own plugins folder (installs go there).
std::filesystem::path shared_plugins_dir(const Context& ctx);
// HOME/users/<uid>/plugins and HOME/users/<uid>/plugins.yaml (the user's
// switches, `plugins.enabled` / `plugins.disabled` as in config.yaml).
// Fail when ctx has no user or the id is unusable.
Result<std::filesystem::path> user_plugins_dir(const Context& ctx);
Result<std::filesystem::path> user_plugins_switch_file(const Context& ctx);

// One folder searched for plugins, with the switches that apply to its plugins.
struct PluginsFolder {
  std::filesystem::path path;  // canonical, existing
  Layer layer = Layer::shared;
  PluginsConfig switches;
  std::string switches_file;   // named in Plugin::switched_by
};

// Finds the plugins in `folders` (precedence order). `category_roots` are
// the skill roots whose top-level folders are categories: a plugin whose
// namespace equals one of them would hide `category:skill` (spec §2.7 rule 2
// falls through to `category/skill` only when no plugin has the namespace),
// so it is left out with a problem naming both. A second plugin of one
// namespace is left out too, as is a plugin folder or skills folder that
// leads outside its folder through a symlink, or into `per_user_dirs` from
// a shared folder. Never throws; I/O trouble becomes problems.
PluginSet find_plugins(const std::vector<PluginsFolder>& folders,
                       const std::vector<std::filesystem::path>& category_roots,
                       const std::optional<std::filesystem::path>& per_user_dirs);

// Reads a user's plugins.yaml: a missing file is no switches.
Result<PluginsConfig> read_plugin_switches(const std::filesystem::path& file);

// Switches plugin `ns` on or off in `file` (config.yaml for the shared layer,
// the user's plugins.yaml for theirs): adds it to `plugins.enabled` or
// `plugins.disabled` and removes it from the other, in one atomic write.
// Returns false when the file already said so.
Result<bool> write_plugin_switch(const std::filesystem::path& file, const std::string& ns, bool enabled);

}  // namespace skillrt::core
