#include "core/view/readiness.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>
#include <system_error>

#include "core/view/dotenv.hpp"
#include "core/view/dotenv_write.hpp"
#include "core/view/name_check.hpp"

namespace skillrt::core {
namespace {

bool is_env_name(const std::string& name) {
  if (name.empty()) {
    return false;
  }
  const auto word = [](char c, bool first) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    return first ? alpha : alpha || (c >= '0' && c <= '9');
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!word(name[i], i == 0)) {
      return false;
    }
  }
  return true;
}

std::string strip(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(first, last - first + 1);
}

bool truthy(const YamlNode* node) {
  return node != nullptr && node->truthy();
}

// Python's `_clean_str`: a non-blank *string* value stripped, else nothing.
// Typed scalars (numbers, booleans) are not strings in Hermes and do not count.
std::optional<std::string> clean_str(const YamlNode* node) {
  if (node == nullptr || !node->is_scalar() || node->scalar_type() != YamlNode::ScalarType::string) {
    return std::nullopt;
  }
  std::string text = strip(node->text());
  if (text.empty()) {
    return std::nullopt;
  }
  return text;
}

// One not-yet-normalised declaration, from any of the three sources.
struct RawEntry {
  std::string name;
  const YamlNode* prompt = nullptr;
  const YamlNode* help = nullptr; // entry help, provider_url or url (first truthy)
  std::optional<std::string> url; // collect_secrets provider_url / url, already a string
  const YamlNode* required_for = nullptr;
  const YamlNode* optional = nullptr;
};

// A single mapping or a list; anything else is nothing.
std::vector<const YamlNode*> as_mapping_list(const YamlNode* node, bool allow_strings) {
  std::vector<const YamlNode*> out;
  if (node == nullptr) {
    return out;
  }
  if (node->is_mapping()) {
    out.push_back(node);
  } else if (node->is_sequence()) {
    for (const YamlNode& item : node->items()) {
      if (item.is_mapping() || (allow_strings && item.is_scalar() && !item.is_null() &&
                                item.scalar_type() == YamlNode::ScalarType::string)) {
        out.push_back(&item);
      }
    }
  }
  return out;
}

const YamlNode* first_truthy(std::initializer_list<const YamlNode*> nodes) {
  for (const YamlNode* node : nodes) {
    if (truthy(node)) {
      return node;
    }
  }
  return nullptr;
}

std::vector<RawEntry> raw_entries(const YamlNode& fm) {
  std::vector<RawEntry> entries;
  for (const YamlNode* item : as_mapping_list(fm.get("required_environment_variables"), true)) {
    RawEntry entry;
    if (item->is_scalar()) {
      entry.name = item->text();
    } else {
      const YamlNode* name = first_truthy({item->get("name"), item->get("env_var")});
      entry.name = name != nullptr ? name->to_string() : std::string();
      entry.prompt = item->get("prompt");
      entry.help = first_truthy({item->get("help"), item->get("provider_url"), item->get("url")});
      entry.required_for = item->get("required_for");
      entry.optional = item->get("optional");
    }
    entries.push_back(std::move(entry));
  }
  const YamlNode* setup = fm.get("setup");
  if (setup != nullptr && setup->is_mapping()) {
    for (const YamlNode* item : as_mapping_list(setup->get("collect_secrets"), false)) {
      RawEntry entry;
      const YamlNode* name = item->get("env_var");
      entry.name = truthy(name) ? name->to_string() : std::string();
      entry.prompt = item->get("prompt");
      const YamlNode* url = first_truthy({item->get("provider_url"), item->get("url")});
      if (url != nullptr) {
        std::string text = strip(url->to_string());
        if (!text.empty()) {
          entry.url = std::move(text);
        }
      }
      entries.push_back(std::move(entry));
    }
  }
  const YamlNode* prereqs = fm.get("prerequisites");
  const YamlNode* legacy = prereqs != nullptr && prereqs->is_mapping() ? prereqs->get("env_vars") : nullptr;
  if (legacy != nullptr && legacy->is_scalar() && !legacy->is_null()) {
    RawEntry entry;
    entry.name = legacy->to_string();
    entries.push_back(std::move(entry));
  } else if (legacy != nullptr && legacy->is_sequence()) {
    for (const YamlNode& item : legacy->items()) {
      RawEntry entry;
      entry.name = item.to_string();
      if (!strip(entry.name).empty()) {
        entries.push_back(std::move(entry));
      }
    }
  }
  return entries;
}

// True when the first real component of `rel` (after "" and "." ones) is
// `users`: HOME/users holds every user's private home, so a credential path
// into it would let one user's skill probe another user's files.
bool starts_in_users_dir(std::string_view rel) {
  std::size_t begin = 0;
  while (begin <= rel.size()) {
    std::size_t end = rel.find_first_of("/\\", begin);
    if (end == std::string_view::npos) {
      end = rel.size();
    }
    const std::string_view part = rel.substr(begin, end - begin);
    if (!part.empty() && part != ".") {
      return part == "users";
    }
    begin = end + 1;
  }
  return false;
}

} // namespace

std::vector<EnvRequirement> required_environment_variables(const YamlNode& frontmatter) {
  const YamlNode* setup = frontmatter.get("setup");
  const std::optional<std::string> setup_help =
      setup != nullptr && setup->is_mapping() ? clean_str(setup->get("help")) : std::nullopt;
  std::vector<EnvRequirement> out;
  for (const RawEntry& raw : raw_entries(frontmatter)) {
    const std::string name = strip(raw.name);
    const bool seen = std::any_of(out.begin(), out.end(), [&](const EnvRequirement& e) { return e.name == name; });
    if (seen || !is_env_name(name)) {
      continue;
    }
    EnvRequirement entry;
    entry.name = name;
    entry.prompt = truthy(raw.prompt) ? strip(raw.prompt->to_string()) : "Enter value for " + name;
    if (raw.help != nullptr) {
      entry.help = clean_str(raw.help);
    } else if (raw.url) {
      entry.help = raw.url;
    } else {
      entry.help = setup_help;
    }
    entry.required_for = clean_str(raw.required_for);
    entry.optional = truthy(raw.optional);
    out.push_back(std::move(entry));
  }
  return out;
}

Readiness evaluate_readiness(const YamlNode& frontmatter, const Context& ctx) {
  Readiness readiness;
  readiness.required_environment_variables = required_environment_variables(frontmatter);
  // The user's own .env first, then HOME/.env: the first file naming a key decides.
  std::map<std::string, std::string> dotenv;
  for (const std::filesystem::path& file : dotenv_files(ctx)) {
    for (auto& [key, value] : load_dotenv(file)) {
      dotenv.try_emplace(key, std::move(value));
    }
  }
  const auto present = [&](const std::string& name) {
    if (const auto it = dotenv.find(name); it != dotenv.end()) {
      return !it->second.empty();
    }
    const std::optional<std::string> value = ctx.env ? ctx.env(name) : std::nullopt;
    return value.has_value() && !value->empty();
  };
  for (const EnvRequirement& entry : readiness.required_environment_variables) {
    if (!entry.optional && !present(entry.name)) {
      readiness.missing_required_environment_variables.push_back(entry.name);
    }
  }
  const YamlNode* files = frontmatter.get("required_credential_files");
  if (files != nullptr && files->is_sequence()) {
    for (const YamlNode& item : files->items()) {
      const YamlNode* path_node = item.is_mapping() ? item.get("path") : &item;
      if (path_node == nullptr || !path_node->is_scalar() || path_node->is_null()) {
        continue;
      }
      const std::string rel = strip(path_node->to_string());
      if (rel.empty()) {
        continue;
      }
      // Only files inside the home can be registered for a sandbox; anything
      // that would leave it, or reach into the per-user homes, counts as
      // missing rather than being probed.
      bool exists = false;
      if (!is_absolute_or_drive(rel) && !has_traversal_component(rel) && !starts_in_users_dir(rel)) {
        std::error_code ec;
        exists = std::filesystem::exists(ctx.home / rel, ec) && !ec;
        readiness.credential_files_checked.push_back(rel);
      }
      if (!exists) {
        readiness.missing_credential_files.push_back(rel);
      }
    }
  }
  readiness.setup_needed =
      !readiness.missing_required_environment_variables.empty() || !readiness.missing_credential_files.empty();
  readiness.readiness_status = readiness.setup_needed ? ReadinessStatus::setup_needed : ReadinessStatus::available;
  for (const EnvRequirement& entry : readiness.required_environment_variables) {
    if (entry.help) {
      readiness.setup_help = entry.help;
      break;
    }
  }
  if (readiness.setup_needed) {
    std::string missing;
    for (const std::string& name : readiness.missing_required_environment_variables) {
      missing += (missing.empty() ? "" : ", ") + std::string("env $") + name;
    }
    for (const std::string& file : readiness.missing_credential_files) {
      missing += (missing.empty() ? "" : ", ") + std::string("file ") + file;
    }
    std::string note = "Setup needed before using this skill: missing " + missing + ".";
    if (readiness.setup_help) {
      note += " " + *readiness.setup_help;
    }
    readiness.setup_note = std::move(note);
  }
  return readiness;
}

const char* readiness_status_name(ReadinessStatus status) {
  switch (status) {
  case ReadinessStatus::available:
    return "available";
  case ReadinessStatus::setup_needed:
    return "setup_needed";
  case ReadinessStatus::unsupported:
    return "unsupported";
  }
  return "available";
}

} // namespace skillrt::core
