#include "core/commands/invocation_message.hpp"

#include <algorithm>

#include "core/commands/arguments.hpp"
#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/files/read_file.hpp"
#include "core/util/text.hpp"
#include "core/view/linked_files.hpp"
#include "core/view/preprocess.hpp"
#include "core/view/readiness.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

// skills.config.<key>: the key as one mapping key first, then as a dotted path.
const YamlNode* config_value(const YamlNode& document, const std::string& key) {
  const YamlNode* skills = document.get("skills");
  const YamlNode* config = skills != nullptr ? skills->get("config") : nullptr;
  if (config == nullptr) {
    return nullptr;
  }
  if (const YamlNode* direct = config->get(key)) {
    return direct;
  }
  const YamlNode* node = config;
  std::size_t begin = 0;
  while (node != nullptr && begin <= key.size()) {
    std::size_t end = key.find('.', begin);
    if (end == std::string::npos) {
      end = key.size();
    }
    node = node->get(std::string_view(key).substr(begin, end - begin));
    begin = end + 1;
  }
  return node;
}

std::string value_text(const YamlNode& node) {
  return node.is_scalar() ? node.text() : node.to_string();
}

void add_config(const YamlNode& declared, const Config& cfg, LoadedSkill& skill) {
  std::vector<const YamlNode*> items;
  if (declared.is_mapping()) {
    items.push_back(&declared);
  } else if (declared.is_sequence()) {
    for (const YamlNode& item : declared.items()) {
      items.push_back(&item);
    }
  }
  for (const YamlNode* item : items) {
    const YamlNode* key = item->is_mapping() ? item->get("key") : nullptr;
    if (key == nullptr || !key->truthy()) {
      continue;
    }
    skill.declares_config = true;
    const std::string name = key->to_string();
    std::string value;
    if (const YamlNode* set = config_value(cfg.document, name); set != nullptr && set->truthy()) {
      value = value_text(*set);
    } else if (const YamlNode* fallback = item->get("default"); fallback != nullptr && fallback->truthy()) {
      value = value_text(*fallback);
    }
    skill.config.emplace_back(name, value.empty() ? "(not set)" : value);
  }
}

// The parts shared by a single message and a stacked block, after the first line.
void append_skill_parts(std::vector<std::string>& parts, const LoadedSkill& skill, std::string_view config_path,
                        std::string_view content) {
  parts.emplace_back("");
  parts.emplace_back(trim_ascii_space(content));
  if (skill.skill_dir) {
    parts.emplace_back("");
    parts.push_back("[Skill directory: " + *skill.skill_dir + "]");
    parts.emplace_back("Relative paths in this skill are relative to that directory; run its scripts with the "
                       "terminal tool by their absolute paths.");
  }
  if (skill.declares_config) {
    parts.emplace_back("");
    parts.push_back("[Skill config (from " + std::string(config_path) + "):");
    for (const auto& [key, value] : skill.config) {
      parts.push_back("  " + key + " = " + value);
    }
    parts.emplace_back("]");
  }
  if (skill.setup_note) {
    parts.emplace_back("");
    parts.push_back("[Skill setup note: " + *skill.setup_note + "]");
  }
  if (!skill.supporting_files.empty()) {
    parts.emplace_back("");
    parts.emplace_back("[This skill has supporting files (paths relative to the skill directory above):]");
    for (const std::string& file : skill.supporting_files) {
      parts.push_back("- " + file);
    }
    parts.push_back("Read one with skill_view(name=\"" + skill.name +
                    "\", file_path=\"<path>\"), or run a script by its absolute path.");
  }
}

std::string join_lines(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += '\n';
    }
    out += parts[i];
  }
  return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      out.append(separator);
    }
    out += items[i];
  }
  return out;
}

} // namespace

Result<LoadedSkill> load_skill_for_command(const Context& ctx, const Config& cfg, const SkillCommand& command) {
  auto bytes = read_regular_file(command.skill_md, limits::k_max_skill_file_bytes);
  if (!bytes) {
    return tl::unexpected(bytes.error());
  }
  const std::string text(strip_bom(sanitize_utf8(*bytes)));
  const Frontmatter parsed = parse_frontmatter(text);
  LoadedSkill skill;
  skill.name = command.name;
  skill.skill_dir = command.skill_dir;
  const std::filesystem::path dir(command.skill_dir);
  // Without its catalog record the tier is unknown: treat it as the user's
  // own, so no inline shell runs for it in multi-user mode.
  const Tier tier = command.record != nullptr ? command.record->tier : Tier::user;
  skill.content = preprocess_skill_content(text, dir, dir, ctx, cfg.skills, tier);
  const Readiness readiness = evaluate_readiness(parsed.fields, ctx);
  if (readiness.setup_skipped) {
    skill.setup_note = "Required environment setup was skipped; the skill may not work until it is configured.";
  } else if (readiness.setup_needed && readiness.setup_note) {
    skill.setup_note = readiness.setup_note;
  }
  for (const auto& [group, files] : collect_linked_files(dir)) {
    skill.supporting_files.insert(skill.supporting_files.end(), files.begin(), files.end());
  }
  const YamlNode* metadata = parsed.fields.get("metadata");
  const YamlNode* hermes = metadata != nullptr && metadata->is_mapping() ? metadata->get("hermes") : nullptr;
  const YamlNode* declared = hermes != nullptr && hermes->is_mapping() ? hermes->get("config") : nullptr;
  if (declared != nullptr) {
    add_config(*declared, cfg, skill);
  }
  return skill;
}

std::string render_single_invocation(const LoadedSkill& skill, std::string_view config_path,
                                     std::string_view instruction, std::string_view runtime_note) {
  const ArgumentSubstitution body = substitute_arguments(skill.content, instruction);
  std::vector<std::string> parts;
  parts.push_back("[IMPORTANT: The user has invoked the \"" + skill.name +
                  "\" skill, indicating they want you to follow its instructions. The full skill content is loaded "
                  "below.]");
  append_skill_parts(parts, skill, config_path, body.text);
  const std::string_view wanted = trim_ascii_space(instruction);
  if (!wanted.empty() && !body.used_arguments) {
    parts.emplace_back("");
    parts.push_back("The user has provided the following instruction alongside the skill invocation: " +
                    std::string(wanted));
  }
  if (!trim_ascii_space(runtime_note).empty()) {
    parts.emplace_back("");
    parts.push_back("[Runtime note: " + std::string(trim_ascii_space(runtime_note)) + "]");
  }
  return join_lines(parts);
}

std::string render_stacked_invocation(const std::vector<LoadedSkill>& skills, const std::vector<std::string>& typed,
                                      const std::vector<std::string>& missing, std::string_view config_path,
                                      std::string_view instruction, std::string_view runtime_note) {
  std::vector<std::string> names;
  for (const LoadedSkill& skill : skills) {
    names.push_back(skill.name);
  }
  std::vector<std::string> head;
  head.push_back("[IMPORTANT: The user has invoked the \"" + joined(typed, " ") + "\" stacked skill bundle, loading " +
                 std::to_string(skills.size()) +
                 " skills together. Treat every skill below as active guidance for this turn.]");
  head.emplace_back("");
  head.push_back("Skills loaded: " + joined(names, ", "));
  if (!missing.empty()) {
    head.push_back("Skills missing (skipped): " + joined(missing, ", "));
  }
  const std::string_view wanted = trim_ascii_space(instruction);
  if (!wanted.empty()) {
    head.emplace_back("");
    head.push_back("User instruction: " + std::string(wanted));
  }
  std::vector<std::string> blocks{join_lines(head)};
  for (const LoadedSkill& skill : skills) {
    std::vector<std::string> parts;
    parts.push_back("[Loaded as part of the stacked skill invocation \"" + skill.name + "\".]");
    append_skill_parts(parts, skill, config_path, substitute_arguments(skill.content, instruction).text);
    blocks.push_back(join_lines(parts));
  }
  if (!trim_ascii_space(runtime_note).empty()) {
    blocks.push_back("[Runtime note: " + std::string(trim_ascii_space(runtime_note)) + "]");
  }
  return joined(blocks, "\n\n");
}

std::pair<std::vector<std::string>, std::string> split_invocation(std::string_view input) {
  std::vector<std::string> tokens;
  std::size_t pos = 0;
  while (tokens.size() < k_max_stacked_skills) {
    std::size_t start = pos;
    while (start < input.size() && is_ascii_space(input[start])) {
      ++start;
    }
    if (start >= input.size() || input[start] != '/') {
      break;
    }
    std::size_t end = start;
    while (end < input.size() && !is_ascii_space(input[end])) {
      ++end;
    }
    const std::string_view token = input.substr(start, end - start);
    // "/" alone or a path like /etc/hosts starts the instruction.
    if (token.size() < 2 || token.find('/', 1) != std::string_view::npos) {
      break;
    }
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) {
      tokens.emplace_back(token);
    }
    pos = end;
  }
  return {tokens, std::string(trim_ascii_space(input.substr(pos)))};
}

Result<Invocation> build_invocation(const Context& ctx, const Config& cfg, std::string_view input,
                                    std::string_view runtime_note) {
  auto [tokens, instruction] = split_invocation(input);
  if (tokens.empty()) {
    return fail(ErrorCode::invalid_argument, "Expected a skill command such as /name at the start of the input.");
  }
  const Catalog catalog = build_catalog(ctx, cfg);
  const SkillCommands commands = scan_skill_commands(catalog);
  std::vector<LoadedSkill> loaded;
  std::vector<std::size_t> loaded_keys;
  Invocation out;
  std::optional<Error> load_error;
  for (const std::string& token : tokens) {
    const std::optional<std::size_t> key = resolve_skill_command(commands, token);
    if (!key) {
      out.missing.push_back(token);
      continue;
    }
    if (std::find(loaded_keys.begin(), loaded_keys.end(), *key) != loaded_keys.end()) {
      continue; // two spellings of one command load it once
    }
    auto skill = load_skill_for_command(ctx, cfg, commands.commands[*key]);
    if (!skill) {
      load_error = skill.error();
      out.missing.push_back(token);
      continue;
    }
    loaded_keys.push_back(*key);
    out.skills.push_back(skill->name);
    if (auto subject = command_usage_subject(commands.commands[*key])) {
      out.used.push_back(std::move(*subject));
    }
    loaded.push_back(std::move(*skill));
  }
  if (loaded.empty()) {
    if (load_error && tokens.size() == 1) {
      return tl::unexpected(*load_error);
    }
    return fail(ErrorCode::not_found, "No skill command matches " + joined(out.missing, ", ") +
                                          ". Run `skillrt commands` to see the available commands.");
  }
  const std::string config_path = cfg.path.empty() ? ctx.config_path().string() : cfg.path.string();
  if (tokens.size() == 1) {
    out.message = render_single_invocation(loaded.front(), config_path, instruction, runtime_note);
  } else {
    out.message = render_stacked_invocation(loaded, tokens, out.missing, config_path, instruction, runtime_note);
  }
  return out;
}

} // namespace skillrt::core
