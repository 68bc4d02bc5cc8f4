#include "core/prompt/conditions.hpp"

#include <algorithm>
#include <string_view>

#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {
namespace {

bool contains(const std::optional<std::vector<std::string>>& list, const std::string& item) {
  return list && std::find(list->begin(), list->end(), item) != list->end();
}

bool any_available(const std::vector<std::string>& wanted, const std::optional<std::vector<std::string>>& have) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& item) { return contains(have, item); });
}

bool any_missing(const std::vector<std::string>& wanted, const std::optional<std::vector<std::string>>& have) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& item) { return !contains(have, item); });
}

} // namespace

SkillConditions read_conditions(const YamlNode& frontmatter) {
  SkillConditions conditions;
  const YamlNode* metadata = frontmatter.get("metadata");
  const YamlNode* hermes = metadata != nullptr && metadata->is_mapping() ? metadata->get("hermes") : nullptr;
  if (hermes == nullptr || !hermes->is_mapping()) {
    return conditions;
  }
  const auto list = [&](std::string_view key) {
    const YamlNode* node = hermes->get(key);
    return node != nullptr && node->truthy() ? parse_tag_list(node) : std::vector<std::string>{};
  };
  conditions.requires_tools = list("requires_tools");
  conditions.requires_toolsets = list("requires_toolsets");
  conditions.fallback_for_tools = list("fallback_for_tools");
  conditions.fallback_for_toolsets = list("fallback_for_toolsets");
  return conditions;
}

bool hidden_by_conditions(const SkillConditions& conditions, const ToolInfo& info) {
  if (info.absent()) {
    return false;
  }
  return any_available(conditions.fallback_for_toolsets, info.toolsets) ||
         any_available(conditions.fallback_for_tools, info.tools) ||
         any_missing(conditions.requires_toolsets, info.toolsets) || any_missing(conditions.requires_tools, info.tools);
}

} // namespace skillrt::core
