// The frontmatter fields that activate a skill from a user's turn, read the
// same way for file skills (the listing reader) and database skills
// (core/activation): `triggers` (phrases and /patterns/) and Claude Code's
// `paths` (globs of the files a turn touches).
#pragma once

#include <string>
#include <vector>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

// `triggers` as a list, or a comma-separated string (as `tags` is read).
// Items longer than limits::k_max_activation_rule_bytes are dropped; at most
// limits::k_max_activation_rules are kept.
std::vector<std::string> trigger_items(const YamlNode* node);

// `paths` as a list, or a string of globs separated by commas or white space
// outside braces (so `src/**/*.{ts,tsx}` stays one glob). Same bounds.
std::vector<std::string> path_glob_items(const YamlNode* node);

}  // namespace skillrt::core
