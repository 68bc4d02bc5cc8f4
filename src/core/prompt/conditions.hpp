// When a skill offers itself in the index depending on the tools at hand
// (spec §2.16 rule 4): frontmatter metadata.hermes.requires_tools,
// requires_toolsets, fallback_for_tools and fallback_for_toolsets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

struct SkillConditions {
  std::vector<std::string> requires_tools;
  std::vector<std::string> requires_toolsets;
  std::vector<std::string> fallback_for_tools;
  std::vector<std::string> fallback_for_toolsets;

  bool empty() const {
    return requires_tools.empty() && requires_toolsets.empty() && fallback_for_tools.empty() &&
           fallback_for_toolsets.empty();
  }
  bool operator==(const SkillConditions&) const = default;
};

// The tools and toolsets of the agent asking; nullopt = not told.
struct ToolInfo {
  std::optional<std::vector<std::string>> tools;
  std::optional<std::vector<std::string>> toolsets;

  // Neither list was given: every skill shows (rule 4).
  bool absent() const { return !tools && !toolsets; }
};

// The four lists from a parsed frontmatter mapping (each a list or a
// comma-separated string, read like tags); missing → empty.
SkillConditions read_conditions(const YamlNode& frontmatter);

// Rule 4: with no tool info nothing is hidden; otherwise hidden when any
// fallback_for_* entry is available or any requires_* entry is missing. A list
// that was not given counts as empty.
bool hidden_by_conditions(const SkillConditions& conditions, const ToolInfo& info);

} // namespace skillrt::core
