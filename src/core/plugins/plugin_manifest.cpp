#include "core/plugins/plugin_manifest.hpp"

#include <system_error>

#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"
#include "core/util/utf8_prefix.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

bool is_namespace_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

Error manifest_error(ErrorCode code, const fs::path& file, const std::string& what) {
  return Error{code, file.string() + ": " + what, {}};
}

// A scalar string value of `key`, or nothing when absent or null; any other
// node is an error (a number for a version is read as the text written).
Result<std::optional<std::string>> text_field(const YamlNode& doc, std::string_view key, const fs::path& file) {
  const YamlNode* node = doc.get(key);
  if (node == nullptr || node->is_null()) {
    return std::optional<std::string>{};
  }
  if (!node->is_scalar()) {
    return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file, "`" + std::string(key) + "` must be a string"));
  }
  return std::optional<std::string>(std::string(trim_ascii_space(node->text())));
}

// A skills folder as written: relative, no `..`, no empty path.
Result<std::string> checked_skills_dir(const YamlNode& item, const fs::path& file) {
  if (!item.is_scalar() || item.is_null()) {
    return tl::unexpected(
        manifest_error(ErrorCode::invalid_argument, file, "`skills` must be a folder or a list of folders"));
  }
  std::string text(trim_ascii_space(item.text()));
  // Claude Code writes "./skills".
  while (text.starts_with("./")) {
    text.erase(0, 2);
  }
  while (text.size() > 1 && text.ends_with('/')) {
    text.pop_back();
  }
  if (text.empty() || text == ".") {
    return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file,
                                         "`skills` names the plugin folder itself; name a folder inside it"));
  }
  const fs::path path(text);
  if (path.is_absolute() || text.find('\\') != std::string::npos) {
    return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file,
                                         "`skills` points outside the plugin folder: '" + text + "' is not relative"));
  }
  for (const fs::path& part : path) {
    if (part == "..") {
      return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file,
                                           "`skills` points outside the plugin folder: '" + text + "' climbs with '..'"));
    }
  }
  return text;
}

}  // namespace

bool is_plugin_namespace(std::string_view ns) {
  // One character would read as a Windows drive ("p:skill"), which skill
  // names refuse before any plugin is asked (spec §2.7 rule 1).
  if (ns.size() < 2 || ns.size() > limits::k_max_name_length) {
    return false;
  }
  for (const char c : ns) {
    if (!is_namespace_char(c)) {
      return false;
    }
  }
  return true;
}

Result<PluginManifest> parse_plugin_manifest(std::string_view text, const fs::path& file) {
  if (std::optional<std::size_t> bad = find_invalid_utf8(text)) {
    return tl::unexpected(
        manifest_error(ErrorCode::parse_error, file, "not valid UTF-8 at byte " + std::to_string(*bad)));
  }
  // JSON is read by the YAML parser too: a JSON object is a YAML flow mapping.
  Result<YamlNode> doc = parse_yaml(text, limits::k_max_plugin_manifest_bytes);
  if (!doc) {
    return tl::unexpected(manifest_error(ErrorCode::parse_error, file, doc.error().message));
  }
  if (!doc->is_mapping()) {
    return tl::unexpected(manifest_error(ErrorCode::parse_error, file, "the manifest is not a mapping"));
  }
  PluginManifest out;
  out.file = file;
  auto name = text_field(*doc, "name", file);
  if (!name) {
    return tl::unexpected(name.error());
  }
  if (!*name || (*name)->empty()) {
    return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file, "`name` (the plugin's namespace) is missing"));
  }
  if (!is_plugin_namespace(**name)) {
    return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file,
                                         "`name` '" + **name + "' is not a usable namespace: it must be 2-" +
                                             std::to_string(limits::k_max_name_length) +
                                             " characters of [a-zA-Z0-9_-]"));
  }
  out.name = std::move(**name);
  auto version = text_field(*doc, "version", file);
  if (!version) {
    return tl::unexpected(version.error());
  }
  out.version = version->value_or("");
  auto description = text_field(*doc, "description", file);
  if (!description) {
    return tl::unexpected(description.error());
  }
  out.description = description->value_or("");
  if (utf8_length(out.description) > limits::k_max_description_length) {
    out.description = utf8_prefix(out.description, limits::k_max_description_length - 3) + "...";
  }
  if (const YamlNode* enabled = doc->get("enabled"); enabled != nullptr && !enabled->is_null()) {
    const std::optional<bool> value = enabled->is_scalar() ? enabled->as_bool() : std::nullopt;
    if (!value) {
      return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file, "`enabled` must be true or false"));
    }
    out.enabled = *value;
  }
  if (const YamlNode* skills = doc->get("skills"); skills != nullptr && !skills->is_null()) {
    out.skills_dirs_given = true;
    if (skills->is_sequence()) {
      if (skills->items().empty()) {
        return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file, "`skills` is an empty list"));
      }
      if (skills->items().size() > limits::k_max_plugin_skill_dirs) {
        return tl::unexpected(manifest_error(ErrorCode::invalid_argument, file,
                                             "`skills` lists more than " +
                                                 std::to_string(limits::k_max_plugin_skill_dirs) + " folders"));
      }
      for (const YamlNode& item : skills->items()) {
        auto dir = checked_skills_dir(item, file);
        if (!dir) {
          return tl::unexpected(dir.error());
        }
        out.skills_dirs.push_back(std::move(*dir));
      }
    } else {
      auto dir = checked_skills_dir(*skills, file);
      if (!dir) {
        return tl::unexpected(dir.error());
      }
      out.skills_dirs.push_back(std::move(*dir));
    }
  } else {
    out.skills_dirs.emplace_back(k_default_plugin_skills_dir);
  }
  return out;
}

Result<PluginManifest> read_plugin_manifest(const fs::path& dir) {
  for (const std::string_view candidate : {k_plugin_manifest_file, k_claude_plugin_manifest_file}) {
    const fs::path file = dir / fs::path(candidate);
    Result<std::string> text = read_regular_file(file, limits::k_max_plugin_manifest_bytes);
    if (!text) {
      if (text.error().code == ErrorCode::not_found) {
        continue;
      }
      return tl::unexpected(manifest_error(text.error().code, file, text.error().message));
    }
    return parse_plugin_manifest(*text, file);
  }
  return tl::unexpected(Error{ErrorCode::not_found,
                              dir.string() + ": not a plugin: it has neither " + std::string(k_plugin_manifest_file) +
                                  " nor " + std::string(k_claude_plugin_manifest_file),
                              {}});
}

}  // namespace skillrt::core
