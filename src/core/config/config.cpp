#include "core/config/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "core/config/list_literal.hpp"
#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/util/text.hpp"
#include "core/yaml/yaml_emit.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

// PyYAML lets a repeated key win; refusing the whole config instead would
// silently re-enable every disabled skill.
constexpr YamlParseOptions k_config_parse{.allow_duplicate_keys = true};

bool is_string_scalar(const YamlNode* node) {
  return node != nullptr && node->is_scalar() && node->scalar_type() == YamlNode::ScalarType::string;
}

// Hermes' directory-list keys: a string is one entry, a list gives its items
// stringified; anything else gives nothing. Entries are stripped, empties and
// nulls dropped.
std::vector<std::string> dir_list(const YamlNode* node) {
  std::vector<std::string> out;
  if (node == nullptr) {
    return out;
  }
  auto take = [&](const YamlNode& item) {
    if (item.is_null()) {
      return;
    }
    std::string text(trim_ascii_space(item.to_string()));
    if (!text.empty()) {
      out.push_back(std::move(text));
    }
  };
  if (is_string_scalar(node)) {
    take(*node);
  } else if (node->is_sequence()) {
    for (const YamlNode& item : node->items()) {
      take(item);
    }
  }
  return out;
}

// Hermes' flag reading for `skills.guard_agent_created`: a boolean or number as
// Python's bool() reads it; a string enables only as true/1/yes/on (any case).
bool flag_value(const YamlNode* node) {
  if (node == nullptr || !node->is_scalar()) {
    return false;
  }
  if (node->scalar_type() == YamlNode::ScalarType::string) {
    std::string text = node->text();
    text.erase(0, text.find_first_not_of(" \t\r\n"));
    text.erase(text.find_last_not_of(" \t\r\n") + 1);
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text == "true" || text == "1" || text == "yes" || text == "on";
  }
  return node->truthy();
}

// `skills.inline_shell_timeout`: an int (or something int() accepts) with a
// floor of one second; junk falls back to the default.
int timeout_value(const YamlNode* node) {
  int value = limits::k_inline_shell_default_timeout_s;
  if (node == nullptr || node->is_null() || !node->is_scalar()) {
    return value;
  }
  std::string text(trim_ascii_space(node->text()));
  switch (node->scalar_type()) {
    case YamlNode::ScalarType::boolean:
      value = node->as_bool().value_or(false) ? 1 : 0;
      break;
    case YamlNode::ScalarType::floating: {
      double d = std::strtod(text.c_str(), nullptr);
      if (std::isfinite(d)) {
        value = d >= static_cast<double>(INT_MAX) ? INT_MAX : d <= 0 ? 0 : static_cast<int>(d);
      }
      break;
    }
    case YamlNode::ScalarType::integer:
    case YamlNode::ScalarType::string: {
      std::string_view digits = text;
      if (!digits.empty() && digits.front() == '+') {
        digits.remove_prefix(1);
      }
      long long parsed = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), parsed);
      if (ptr == digits.data() + digits.size() && !digits.empty()) {
        if (ec == std::errc::result_out_of_range || parsed > INT_MAX) {
          value = digits.front() == '-' ? 0 : INT_MAX;
        } else if (ec == std::errc()) {
          value = parsed < 0 ? 0 : static_cast<int>(parsed);
        }
      } else if (node->scalar_type() == YamlNode::ScalarType::integer) {
        // 0x / 0o forms.
        std::string_view body = std::string_view(text).substr(2);
        int base = text[1] == 'x' ? 16 : 8;
        unsigned long long u = 0;
        auto res = std::from_chars(body.data(), body.data() + body.size(), u, base);
        value = (res.ec != std::errc() || u > INT_MAX) ? INT_MAX : static_cast<int>(u);
      }
      break;
    }
    case YamlNode::ScalarType::null:
      break;
  }
  return std::max(value, 1);
}

SkillsConfig read_skills(const YamlNode* skills) {
  SkillsConfig cfg;
  if (skills == nullptr || !skills->is_mapping()) {
    return cfg;
  }
  cfg.external_dirs = dir_list(skills->get("external_dirs"));
  cfg.trusted_project_dirs = dir_list(skills->get("trusted_project_dirs"));
  cfg.disabled = parse_config_string_list(skills->get("disabled"));
  if (const YamlNode* per_platform = skills->get("platform_disabled");
      per_platform != nullptr && per_platform->is_mapping()) {
    for (const auto& [platform, names] : per_platform->entries()) {
      if (!names.is_null()) {
        cfg.platform_disabled[platform] = parse_config_string_list(&names);
      }
    }
  }
  if (const YamlNode* discovery = skills->get("project_discovery")) {
    cfg.project_discovery = discovery->as_bool() != std::optional<bool>(false);
  }
  if (const YamlNode* template_vars = skills->get("template_vars")) {
    cfg.template_vars = template_vars->truthy();
  }
  if (const YamlNode* inline_shell = skills->get("inline_shell")) {
    cfg.inline_shell = inline_shell->truthy();
  }
  cfg.inline_shell_timeout_s = timeout_value(skills->get("inline_shell_timeout"));
  cfg.guard_agent_created = flag_value(skills->get("guard_agent_created"));
  cfg.trusted_keys = parse_config_string_list(skills->get("trusted_keys"));
  cfg.require_signature = parse_config_string_list(skills->get("require_signature"));
  cfg.plugin_dirs = dir_list(skills->get("plugin_dirs"));
  return cfg;
}

// Copies `mapping` with `key` set to `value` (replaced in place, or appended).
YamlNode with_entry(const YamlNode& mapping, const std::string& key, YamlNode value) {
  YamlNode out = YamlNode::make_mapping(mapping.pos());
  bool placed = false;
  for (const auto& [k, v] : mapping.entries()) {
    if (k == key) {
      out.add(k, std::move(value));
      placed = true;
    } else {
      out.add(k, v);
    }
  }
  if (!placed) {
    out.add(key, std::move(value));
  }
  return out;
}

}  // namespace

std::vector<std::string> parse_config_string_list(const YamlNode* node) {
  std::vector<std::string> raw;
  if (node == nullptr || node->is_null()) {
    return raw;
  }
  if (is_string_scalar(node)) {
    std::string_view stripped = trim_ascii_space(node->text());
    std::optional<std::vector<std::string>> parsed;
    if (stripped.starts_with('[')) {
      parsed = parse_list_literal(stripped);
    }
    if (parsed) {
      raw = std::move(*parsed);
    } else {
      raw.push_back(node->text());
    }
  } else if (node->is_sequence()) {
    for (const YamlNode& item : node->items()) {
      raw.push_back(item.to_string());
    }
  }
  std::vector<std::string> out;
  for (const std::string& name : raw) {
    std::string_view stripped = trim_ascii_space(name);
    if (!stripped.empty()) {
      out.emplace_back(stripped);
    }
  }
  return out;
}

std::vector<std::string> disabled_names(const SkillsConfig& cfg, const std::string& platform) {
  std::vector<std::string> out;
  auto add_all = [&](const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      if (std::find(out.begin(), out.end(), name) == out.end()) {
        out.push_back(name);
      }
    }
  };
  add_all(cfg.disabled);
  if (!platform.empty()) {
    if (auto it = cfg.platform_disabled.find(platform); it != cfg.platform_disabled.end()) {
      add_all(it->second);
    }
  }
  return out;
}

Config load_config(const fs::path& path) {
  Config config;
  config.path = path;
  Result<std::string> text = read_regular_file(path, limits::k_max_config_bytes);
  if (!text) {
    if (text.error().code != ErrorCode::not_found) {
      config.exists = true;
      config.problems.push_back(text.error());
    }
    return config;
  }
  config.exists = true;
  Result<YamlNode> doc = parse_yaml(*text, limits::k_max_config_bytes, k_config_parse);
  if (!doc) {
    Error error = doc.error();
    error.message = path.string() + ": " + error.message;
    config.problems.push_back(std::move(error));
    return config;
  }
  if (doc->is_mapping()) {
    config.document = std::move(*doc);
  } else if (!doc->is_null()) {
    config.problems.push_back(
        Error{ErrorCode::parse_error, path.string() + ": the top level is not a mapping; ignored", doc->pos()});
  }
  const YamlNode* skills = config.document.get("skills");
  if (skills != nullptr && !skills->is_null() && !skills->is_mapping()) {
    config.problems.push_back(
        Error{ErrorCode::parse_error, path.string() + ": `skills` is not a mapping; ignored", skills->pos()});
  }
  config.skills = read_skills(skills);
  config.plugins = read_plugins_config(config.document);
  config.learning = read_learning_config(config.document, config.problems);
  config.folders = read_folder_policies(config.document, config.problems);
  if (const YamlNode* database = config.document.get("database"); database != nullptr && database->is_mapping()) {
    if (const YamlNode* url = database->get("url"); url != nullptr && url->is_scalar() && !url->is_null()) {
      config.database.url = std::string(trim_ascii_space(url->text()));
    }
  }
  return config;
}

PluginsConfig read_plugins_config(const YamlNode& document) {
  PluginsConfig out;
  const YamlNode* plugins = document.is_mapping() ? document.get("plugins") : nullptr;
  if (plugins != nullptr && plugins->is_mapping()) {
    out.enabled = parse_config_string_list(plugins->get("enabled"));
    out.disabled = parse_config_string_list(plugins->get("disabled"));
  }
  return out;
}

Result<bool> edit_config_lists(const fs::path& path, const std::vector<ConfigListEdit>& edits) {
  YamlNode root = YamlNode::make_mapping({});
  Result<std::string> text = read_regular_file(path, limits::k_max_config_bytes);
  if (text) {
    Result<YamlNode> doc = parse_yaml(*text, limits::k_max_config_bytes, k_config_parse);
    if (!doc) {
      // Never overwrite a config we could not read: the user would lose it.
      Error error = doc.error();
      error.message = path.string() + ": " + error.message + " (not modified)";
      return tl::unexpected(std::move(error));
    }
    if (doc->is_mapping()) {
      root = std::move(*doc);
    } else if (!doc->is_null()) {
      return fail(ErrorCode::parse_error, path.string() + ": the top level is not a mapping (not modified)",
                  doc->pos());
    }
  } else if (text.error().code != ErrorCode::not_found) {
    return tl::unexpected(text.error());
  }

  bool changed = false;
  for (const ConfigListEdit& edit : edits) {
    if (trim_ascii_space(edit.value).empty()) {
      return fail(ErrorCode::invalid_argument, "an empty value for `" + edit.section + "." + edit.key + "`");
    }
    YamlNode section = YamlNode::make_mapping({});
    if (const YamlNode* existing = root.get(edit.section); existing != nullptr && !existing->is_null()) {
      if (!existing->is_mapping()) {
        return fail(ErrorCode::parse_error,
                    path.string() + ": `" + edit.section + "` is not a mapping (not modified)", existing->pos());
      }
      section = *existing;
    }
    std::vector<YamlNode> entries;
    if (const YamlNode* current = section.get(edit.key); current != nullptr) {
      if (current->is_sequence()) {
        entries = current->items();
      } else if (is_string_scalar(current) && !trim_ascii_space(current->text()).empty()) {
        entries.push_back(*current);
      } else if (!current->is_null()) {
        return fail(ErrorCode::parse_error,
                    path.string() + ": `" + edit.section + "." + edit.key +
                        "` is neither a list nor a string (not modified)",
                    current->pos());
      }
    }
    const auto same = [&](const YamlNode& item) {
      return item.is_scalar() && trim_ascii_space(item.text()) == trim_ascii_space(edit.value);
    };
    const bool present = std::any_of(entries.begin(), entries.end(), same);
    if (edit.present == present) {
      continue;  // already as asked
    }
    if (edit.present) {
      entries.push_back(YamlNode::make_scalar(edit.value, false, {}));
    } else {
      entries.erase(std::remove_if(entries.begin(), entries.end(), same), entries.end());
    }
    YamlNode list = YamlNode::make_sequence({});
    for (YamlNode& entry : entries) {
      list.push(std::move(entry));
    }
    root = with_entry(root, edit.section, with_entry(section, edit.key, std::move(list)));
    changed = true;
  }
  if (!changed) {
    return false;  // leave the file untouched
  }
  std::string out = emit_yaml(root);
  if (out.empty()) {
    return fail(ErrorCode::internal, "cannot render " + path.string() + " as YAML");
  }
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot create " + path.parent_path().string() + ": " + ec.message());
    }
  }
  SKILLRT_TRY(write_file_atomic(path, out));
  return true;
}

Result<bool> set_project_trust(const fs::path& config_path, const std::string& dir, bool trusted) {
  if (trim_ascii_space(dir).empty()) {
    return fail(ErrorCode::invalid_argument, "the project directory is empty");
  }
  return edit_config_lists(config_path, {ConfigListEdit{"skills", "trusted_project_dirs", dir, trusted}});
}

}  // namespace skillrt::core
