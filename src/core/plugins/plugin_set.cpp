#include "core/plugins/plugin_set.hpp"

#include <algorithm>
#include <system_error>

#include "core/files/path_within.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/tenancy/user_id.hpp"
#include "core/yaml/yaml_node.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> canonical_dir(const fs::path& path) {
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  if (ec || !fs::is_directory(real, ec) || ec) {
    return std::nullopt;
  }
  return real;
}

bool listed_in(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The plugin folders directly inside `folder`, sorted by name; dot folders
// (the hub's `.hub`) and plain files are not plugins.
std::vector<fs::path> plugin_candidates(const fs::path& folder, std::vector<PluginProblem>& problems) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    problems.push_back({folder, "cannot list the plugins folder: " + ec.message()});
    return out;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) {
      problems.push_back({folder, "cannot list the plugins folder: " + ec.message()});
      break;
    }
    const fs::path path = it->path();
    const std::string name = path.filename().string();
    if (name.empty() || name.front() == '.') {
      continue;
    }
    std::error_code type_ec;
    if (!fs::is_directory(path, type_ec)) {  // follows a link: a linked plugin folder is checked below
      continue;
    }
    out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  if (out.size() > limits::k_max_plugins_per_dir) {
    problems.push_back({folder, "more than " + std::to_string(limits::k_max_plugins_per_dir) +
                                    " plugin folders; only the first " +
                                    std::to_string(limits::k_max_plugins_per_dir) + " by name are read"});
    out.resize(limits::k_max_plugins_per_dir);
  }
  return out;
}

// True when `ns` is a top-level folder of one of the category roots.
std::optional<fs::path> category_folder(const std::vector<fs::path>& roots, const std::string& ns) {
  for (const fs::path& root : roots) {
    std::error_code ec;
    const fs::path candidate = root / ns;
    if (fs::is_directory(candidate, ec)) {
      return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace

const Plugin* PluginSet::find(std::string_view ns) const {
  const auto found =
      std::find_if(plugins.begin(), plugins.end(), [&](const Plugin& plugin) { return plugin.name() == ns; });
  return found == plugins.end() ? nullptr : &*found;
}

fs::path shared_plugins_dir(const Context& ctx) { return ctx.home / "plugins"; }

Result<fs::path> user_plugins_dir(const Context& ctx) {
  if (!ctx.user_id) {
    return fail(ErrorCode::invalid_argument, "no user in the context");
  }
  SKILLRT_TRY(check_user_id(*ctx.user_id));
  return ctx.home / "users" / *ctx.user_id / "plugins";
}

Result<fs::path> user_plugins_switch_file(const Context& ctx) {
  if (!ctx.user_id) {
    return fail(ErrorCode::invalid_argument, "no user in the context");
  }
  SKILLRT_TRY(check_user_id(*ctx.user_id));
  return ctx.home / "users" / *ctx.user_id / "plugins.yaml";
}

Result<PluginsConfig> read_plugin_switches(const fs::path& file) {
  Result<std::string> text = read_regular_file(file, limits::k_max_config_bytes);
  if (!text) {
    if (text.error().code == ErrorCode::not_found) {
      return PluginsConfig{};
    }
    return tl::unexpected(text.error());
  }
  Result<YamlNode> doc = parse_yaml(*text, limits::k_max_config_bytes);
  if (!doc) {
    return fail(ErrorCode::parse_error, file.string() + ": " + doc.error().message);
  }
  return read_plugins_config(*doc);
}

Result<bool> write_plugin_switch(const fs::path& file, const std::string& ns, bool enabled) {
  if (!is_plugin_namespace(ns)) {
    return fail(ErrorCode::invalid_argument,
                "'" + ns + "' is not a plugin namespace: it must be 2-64 characters of [a-zA-Z0-9_-]");
  }
  return edit_config_lists(file, {ConfigListEdit{"plugins", enabled ? "disabled" : "enabled", ns, false},
                                  ConfigListEdit{"plugins", enabled ? "enabled" : "disabled", ns, true}});
}

PluginSet find_plugins(const std::vector<PluginsFolder>& folders, const std::vector<fs::path>& category_roots,
                       const std::optional<fs::path>& per_user_dirs) {
  PluginSet set;
  for (const PluginsFolder& folder : folders) {
    for (const fs::path& candidate : plugin_candidates(folder.path, set.problems)) {
      const std::optional<fs::path> dir = canonical_dir(candidate);
      if (!dir) {
        set.problems.push_back({candidate, "cannot resolve the plugin folder"});
        continue;
      }
      // A shared plugin never reaches into a user's home; a linked plugin
      // folder is taken only while it stays inside the folder it is listed in.
      if (folder.layer == Layer::shared && per_user_dirs && is_within(*dir, *per_user_dirs)) {
        set.problems.push_back({candidate, "leads into the per-user homes (HOME/users); not loaded"});
        continue;
      }
      if (!is_within(*dir, folder.path)) {
        set.problems.push_back({candidate, "a link to " + dir->string() + ", outside " + folder.path.string() +
                                               "; not loaded"});
        continue;
      }
      auto manifest = read_plugin_manifest(*dir);
      if (!manifest) {
        set.problems.push_back({candidate, manifest.error().message});
        continue;
      }
      Plugin plugin;
      plugin.dir = *dir;
      plugin.layer = folder.layer;
      plugin.manifest = std::move(*manifest);
      const std::string& ns = plugin.name();
      if (const Plugin* earlier = set.find(ns)) {
        set.problems.push_back({candidate, "namespace '" + ns + "' is already taken by the plugin in " +
                                               earlier->dir.string() + "; not loaded"});
        continue;
      }
      if (const std::optional<fs::path> clash = category_folder(category_roots, ns)) {
        set.problems.push_back({candidate, "namespace '" + ns + "' is also the category folder " + clash->string() +
                                               ", so '" + ns + ":<skill>' would stop reaching it; rename the "
                                               "plugin or the folder. Not loaded"});
        continue;
      }
      bool usable = true;
      for (const std::string& relative : plugin.manifest.skills_dirs) {
        const fs::path wanted = plugin.dir / relative;
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(wanted, ec))) {
          if (plugin.manifest.skills_dirs_given) {
            set.problems.push_back({candidate, plugin.manifest.file.string() + ": `skills` names '" + relative +
                                                   "', which does not exist; not loaded"});
            usable = false;
          }
          continue;
        }
        const std::optional<fs::path> real = canonical_dir(wanted);
        if (!real) {
          set.problems.push_back({candidate, plugin.manifest.file.string() + ": `skills` names '" + relative +
                                                 "', which is not a folder; not loaded"});
          usable = false;
          continue;
        }
        if (!is_within(*real, plugin.dir)) {
          set.problems.push_back({candidate, plugin.manifest.file.string() + ": `skills` points outside the plugin "
                                                 "folder: '" + relative + "' leads to " + real->string() +
                                                 "; not loaded"});
          usable = false;
          continue;
        }
        if (std::find(plugin.skill_dirs.begin(), plugin.skill_dirs.end(), *real) == plugin.skill_dirs.end()) {
          plugin.skill_dirs.push_back(*real);
        }
      }
      if (!usable) {
        continue;
      }
      plugin.enabled = plugin.manifest.enabled;
      if (listed_in(folder.switches.disabled, ns)) {
        plugin.enabled = false;
        plugin.switched_by = folder.switches_file;
      } else if (listed_in(folder.switches.enabled, ns)) {
        plugin.enabled = true;
        plugin.switched_by = folder.switches_file;
      }
      set.plugins.push_back(std::move(plugin));
    }
  }
  return set;
}

}  // namespace skillrt::core
