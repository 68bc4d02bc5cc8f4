// The plugins of a context as JSON and text (see plugin_json.hpp).
#include "protocol/plugin_json.hpp"

#include <algorithm>
#include <vector>

#include "core/util/utf8.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::protocol {
namespace {

std::string text(const std::string& s) { return core::sanitize_utf8(s); }
std::string text(const std::filesystem::path& p) { return core::sanitize_utf8(p.string()); }

// The listed skills of each plugin (by index into the plugin set), by name.
std::vector<std::vector<std::string>> skills_by_plugin(const core::Catalog& catalog) {
  std::vector<std::vector<std::string>> out(catalog.roots.plugins.plugins.size());
  for (const std::size_t index : catalog.listed) {
    const core::SkillRecord& record = catalog.records[index];
    if (!core::is_plugin_tier(record.tier) || record.root_index >= catalog.roots.roots.size()) {
      continue;
    }
    const std::size_t plugin = catalog.roots.roots[record.root_index].plugin;
    if (plugin < out.size()) {
      out[plugin].emplace_back(record.name);
    }
  }
  for (auto& names : out) {
    std::sort(names.begin(), names.end());
  }
  return out;
}

}  // namespace

Json plugin_list_json(const core::Catalog& catalog) {
  const core::PluginSet& set = catalog.roots.plugins;
  const std::vector<std::vector<std::string>> skills = skills_by_plugin(catalog);
  Json plugins = Json::array();
  for (std::size_t i = 0; i < set.plugins.size(); ++i) {
    const core::Plugin& plugin = set.plugins[i];
    Json item = Json::object();
    item["name"] = text(plugin.name());
    item["version"] = text(plugin.manifest.version);
    item["description"] = text(plugin.manifest.description);
    item["enabled"] = plugin.enabled;
    item["switched_by"] = text(plugin.switched_by);
    item["layer"] = core::layer_name(plugin.layer);
    item["path"] = text(plugin.dir);
    item["manifest"] = text(plugin.manifest.file);
    Json dirs = Json::array();
    for (const auto& dir : plugin.skill_dirs) {
      dirs.push_back(text(dir));
    }
    item["skills_dirs"] = std::move(dirs);
    Json names = Json::array();
    for (const std::string& name : skills[i]) {
      names.push_back(text(name));
    }
    item["skills"] = std::move(names);
    item["skill_count"] = skills[i].size();
    plugins.push_back(std::move(item));
  }
  Json problems = Json::array();
  for (const core::PluginProblem& problem : set.problems) {
    problems.push_back(Json{{"path", text(problem.path)}, {"message", text(problem.message)}});
  }
  Json folders = Json::array();
  for (const auto& folder : catalog.roots.plugin_folders) {
    folders.push_back(text(folder));
  }
  Json out = Json::object();
  out["success"] = true;
  out["plugins"] = std::move(plugins);
  out["problems"] = std::move(problems);
  out["folders"] = std::move(folders);
  return out;
}

std::string plugin_list_text(const core::Catalog& catalog, bool color) {
  const core::PluginSet& set = catalog.roots.plugins;
  const std::vector<std::vector<std::string>> skills = skills_by_plugin(catalog);
  std::string out;
  if (set.plugins.empty()) {
    out += "No plugins";
    if (!catalog.roots.plugin_folders.empty()) {
      out += " in";
      for (const auto& folder : catalog.roots.plugin_folders) {
        out += " " + folder.string();
      }
    }
    out += ". Install one with `skillrt plugin install SOURCE`, or put a folder with a plugin.yaml and a "
           "skills/ tree in HOME/plugins (docs/plugins.md).\n";
  } else {
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < set.plugins.size(); ++i) {
      const core::Plugin& plugin = set.plugins[i];
      std::string state = plugin.enabled ? "enabled" : "disabled";
      if (plugin.switched_by != "manifest") {
        state += " (" + plugin.switched_by + ")";
      }
      rows.push_back({plugin.name(), plugin.manifest.version.empty() ? "-" : plugin.manifest.version, state,
                      plugin.enabled ? std::to_string(skills[i].size()) : "-", core::layer_name(plugin.layer),
                      plugin.dir.string()});
    }
    out += render_table({{"NAME", 32}, {"VERSION", 12}, {"STATE", 28}, {"SKILLS", 6}, {"LAYER", 6}, {"PATH", 0}},
                        rows, color);
  }
  for (const core::PluginProblem& problem : set.problems) {
    out += "problem: " + problem.path.string() + ": " + problem.message + "\n";
  }
  return out;
}

}  // namespace skillrt::protocol
