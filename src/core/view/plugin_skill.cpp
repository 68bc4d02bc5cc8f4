#include "core/view/plugin_skill.hpp"

#include <algorithm>
#include <vector>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

bool of_plugin(const Catalog& catalog, const SkillRecord& record, const Plugin& plugin) {
  if (!is_plugin_tier(record.tier) || record.root_index >= catalog.roots.roots.size()) {
    return false;
  }
  const std::size_t index = catalog.roots.roots[record.root_index].plugin;
  return index < catalog.roots.plugins.plugins.size() && &catalog.roots.plugins.plugins[index] == &plugin;
}

// The plugin's offered skills, by name.
std::vector<std::string> listed_names(const Catalog& catalog, const Plugin& plugin) {
  std::vector<std::string> names;
  for (const std::size_t index : catalog.listed) {
    const SkillRecord& record = catalog.records[index];
    if (of_plugin(catalog, record, plugin)) {
      names.emplace_back(record.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

ViewResult<ResolvedSkill> resolve_plugin_skill(const Catalog& catalog, const Plugin& plugin,
                                               const std::string& qualified, std::string_view bare) {
  if (!plugin.enabled) {
    return tl::unexpected(view_failure(ErrorCode::refused, "Plugin '" + plugin.name() +
                                                               "' is disabled. Re-enable with: skillrt plugin enable " +
                                                               plugin.name()));
  }
  // Every record of that name in this plugin, in discovery order.
  std::vector<std::size_t> found;
  if (catalog.name_index) {
    const auto& table = catalog.name_index->by_name;
    const std::string_view key(qualified);
    auto at = std::lower_bound(table.begin(), table.end(), key,
                               [](const auto& entry, std::string_view k) { return entry.first < k; });
    for (; at != table.end() && at->first == key; ++at) {
      found.push_back(at->second);
    }
  } else {
    for (std::size_t index = 0; index < catalog.records.size(); ++index) {
      if (catalog.records[index].name == qualified) {
        found.push_back(index);
      }
    }
  }
  std::erase_if(found, [&](std::size_t index) { return !of_plugin(catalog, catalog.records[index], plugin); });
  const auto offered = std::find_if(found.begin(), found.end(), [&](std::size_t index) {
    return catalog.records[index].hidden == Hidden::none;
  });
  if (offered != found.end()) {
    const SkillRecord& record = catalog.records[*offered];
    const Root& root = catalog.roots.roots[record.root_index];
    return ResolvedSkill{record.skill_md.path(), record.dir.path(), &record, root.tier, root.path};
  }
  if (!found.empty()) {
    const SkillRecord& record = catalog.records[found.front()];
    if (record.hidden == Hidden::disabled) {
      return tl::unexpected(view_failure(ErrorCode::refused, "Skill '" + qualified + "' is disabled."));
    }
    ViewFailure failure = view_failure(ErrorCode::refused,
                                       "Skill '" + qualified + "' is not supported on this " +
                                           (record.hidden == Hidden::environment ? "host." : "platform."));
    failure.readiness_status = ReadinessStatus::unsupported;
    return tl::unexpected(std::move(failure));
  }
  std::vector<std::string> names = listed_names(catalog, plugin);
  const std::size_t count = names.size();
  ViewFailure failure = view_failure(ErrorCode::not_found,
                                     "Skill '" + std::string(bare) + "' not found in plugin '" + plugin.name() + "'.");
  if (names.size() > limits::k_not_found_suggestions) {
    names.resize(limits::k_not_found_suggestions);
  }
  failure.available_skills = std::move(names);
  failure.hint = count == 0 ? "Plugin '" + plugin.name() + "' has no skills."
                            : "Plugin '" + plugin.name() + "' has " + std::to_string(count) +
                                  (count == 1 ? " skill" : " skills") + "; use one of available_skills.";
  return tl::unexpected(std::move(failure));
}

std::string plugin_bundle_banner(const Catalog& catalog, const Plugin& plugin, std::string_view qualified) {
  std::vector<std::string> siblings = listed_names(catalog, plugin);
  std::erase(siblings, std::string(qualified));
  std::string out = "[Bundle context: This skill is part of the '" + plugin.name() + "' plugin.";
  if (!siblings.empty()) {
    out += " Other skills in it: ";
    const std::size_t shown = std::min(siblings.size(), limits::k_not_found_suggestions);
    for (std::size_t i = 0; i < shown; ++i) {
      out += (i == 0 ? "" : ", ") + siblings[i];
    }
    if (shown < siblings.size()) {
      out += " and " + std::to_string(siblings.size() - shown) + " more";
    }
    out += ".";
  }
  out += "]";
  return out;
}

}  // namespace skillrt::core
