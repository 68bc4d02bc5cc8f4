#include "core/discovery/activation_fields.hpp"

#include <string_view>

#include "core/limits.hpp"
#include "core/util/text.hpp"
#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {
namespace {

// Keeps the items a matcher can use: non-empty, not too long, not too many.
std::vector<std::string> bounded(std::vector<std::string> items) {
  std::vector<std::string> out;
  for (std::string& item : items) {
    if (out.size() == limits::k_max_activation_rules) {
      break;
    }
    const std::string_view trimmed = trim_ascii_space(item);
    if (trimmed.empty() || trimmed.size() > limits::k_max_activation_rule_bytes) {
      continue;
    }
    out.emplace_back(trimmed);
  }
  return out;
}

// Splits on commas and white space that are not inside `{...}`.
std::vector<std::string> split_globs(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '{') {
      ++depth;
    } else if (c == '}' && depth > 0) {
      --depth;
    }
    if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      if (!current.empty()) {
        out.push_back(std::move(current));
        current.clear();
      }
      continue;
    }
    current += c;
  }
  if (!current.empty()) {
    out.push_back(std::move(current));
  }
  return out;
}

}  // namespace

std::vector<std::string> trigger_items(const YamlNode* node) { return bounded(parse_tag_list(node)); }

std::vector<std::string> path_glob_items(const YamlNode* node) {
  if (node == nullptr || !node->truthy() || node->is_mapping()) {
    return {};
  }
  if (node->is_sequence()) {
    std::vector<std::string> items;
    for (const YamlNode& item : node->items()) {
      if (item.is_scalar()) {
        items.push_back(item.to_string());
      }
    }
    return bounded(std::move(items));
  }
  return bounded(split_globs(node->to_string()));
}

}  // namespace skillrt::core
