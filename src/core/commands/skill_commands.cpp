#include "core/commands/skill_commands.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "core/commands/builtin_commands.hpp"
#include "core/commands/slug.hpp"
#include "core/prompt/record_text.hpp"

namespace skillrt::core {
namespace {

// Path components that disqualify a SKILL.md from the slash-command scan.
constexpr std::array<std::string_view, 5> k_skipped_parts{".git", ".github", ".hub", ".archive", ".locks"};

bool has_skipped_part(std::string_view path) {
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string_view::npos) {
      end = path.size();
    }
    const std::string_view part = path.substr(begin, end - begin);
    if (std::find(k_skipped_parts.begin(), k_skipped_parts.end(), part) != k_skipped_parts.end()) {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

} // namespace

SkillCommands scan_skill_commands(const Catalog& catalog) {
  SkillCommands out;
  std::map<std::string, SkillCommand> by_key;
  for (std::size_t index : catalog.listed) {
    const SkillRecord& record = catalog.records[index];
    const std::string skill_md = field_string(record.skill_md);
    // Only components below the root count: a home under /srv/.hub is fine.
    const std::string root = catalog.roots.roots[record.root_index].path.string();
    const std::string_view relative =
        skill_md.size() > root.size() ? std::string_view(skill_md).substr(root.size()) : std::string_view(skill_md);
    if (has_skipped_part(relative)) {
      continue;
    }
    const std::string name = field_string(record.name);
    // A plugin's skill keeps its namespace: /devtools:review, as Claude Code
    // names plugin commands, so it never takes a flat skill's command.
    const std::size_t colon = is_plugin_tier(record.tier) ? name.find(':') : std::string::npos;
    const std::string bare_slug = slugify_skill_name(colon == std::string::npos ? name : name.substr(colon + 1));
    const std::string slug = colon == std::string::npos || bare_slug.empty()
                                 ? bare_slug
                                 : slugify_skill_name(name.substr(0, colon)) + ":" + bare_slug;
    if (slug.empty()) {
      out.warnings.push_back("skill '" + name + "' has no command: its name has no letters or digits");
      continue;
    }
    std::string key = "/" + slug;
    if (is_builtin_command(slug)) {
      out.warnings.push_back("skill '" + name + "' is not registered as " + key +
                             ": that is a built-in command (load it with /skill " + name + ")");
      continue;
    }
    if (auto claimed = by_key.find(key); claimed != by_key.end()) {
      out.warnings.push_back("skill '" + name + "' is not registered as " + key + ": already used by skill '" +
                             claimed->second.name + "'");
      continue;
    }
    SkillCommand command;
    command.command = key;
    command.name = name;
    std::string description = catalog.description(record);
    command.description = description.empty() ? "Invoke the " + name + " skill" : std::move(description);
    command.skill_md = skill_md;
    command.skill_dir = field_string(record.dir);
    command.record = &record;
    by_key.emplace(std::move(key), std::move(command));
  }
  out.commands.reserve(by_key.size());
  for (auto& [key, command] : by_key) {
    out.commands.push_back(std::move(command));
  }
  return out;
}

std::optional<std::size_t> resolve_skill_command(const SkillCommands& commands, std::string_view typed) {
  if (!typed.empty() && typed.front() == '/') {
    typed.remove_prefix(1);
  }
  if (typed.empty()) {
    return std::nullopt;
  }
  const auto find_key = [&](std::string_view key) -> std::optional<std::size_t> {
    auto found = std::lower_bound(commands.commands.begin(), commands.commands.end(), key,
                                  [](const SkillCommand& command, std::string_view k) { return command.command < k; });
    if (found != commands.commands.end() && found->command == key) {
      return static_cast<std::size_t>(found - commands.commands.begin());
    }
    return std::nullopt;
  };
  const std::string telegram = telegram_command_form(typed);
  if (!telegram.empty()) {
    // Commands are sorted, so the first match is the lexicographically smallest.
    for (std::size_t i = 0; i < commands.commands.size(); ++i) {
      if (telegram_command_form(std::string_view(commands.commands[i].command).substr(1)) == telegram) {
        return i;
      }
    }
  }
  if (auto exact = find_key("/" + std::string(typed))) {
    return exact;
  }
  std::string dashed(typed);
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  return find_key("/" + dashed);
}

std::optional<UsageSubject> command_usage_subject(const SkillCommand& command) {
  if (command.record == nullptr || (command.record->tier != Tier::local && command.record->tier != Tier::user)) {
    return std::nullopt;
  }
  return UsageSubject{tier_layer(command.record->tier), std::filesystem::path(command.skill_dir).filename().string()};
}

} // namespace skillrt::core
