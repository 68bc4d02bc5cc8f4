// Skills as slash commands (spec §2.15 rules 2 and 4): which skills get a
// `/command`, under which slug, and how a typed command finds its key.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/view/view_usage.hpp"

namespace skillrt::core {

struct SkillCommand {
  std::string command;                 // "/<slug>"
  std::string name;                    // the skill's name
  std::string description;             // listing description, else "Invoke the <name> skill"
  std::string skill_md;                // absolute path of its SKILL.md
  std::string skill_dir;               // its directory
  const SkillRecord* record = nullptr; // into the catalog passed in
};

// The usage record an invocation of `command` counts a use against: skills
// of the local and user roots only (view_usage.hpp).
std::optional<UsageSubject> command_usage_subject(const SkillCommand& command);

struct SkillCommands {
  std::vector<SkillCommand> commands; // sorted by command
  std::vector<std::string> warnings;  // skills left without a command, and why
};

// The commands of `catalog`'s offered skills (first of each name, tier order),
// skipping paths under .git/.github/.hub/.archive/.locks and skills with an
// empty slug; a slug equal to a built-in command, or already claimed by an
// earlier skill, is not registered (with a warning).
SkillCommands scan_skill_commands(const Catalog& catalog);

// resolve_skill_command_key: `typed` with or without its '/'. When its Telegram
// form is non-empty, the smallest registered key with the same Telegram form;
// else the exact key; else the key with '_' → '-'; else nullopt. Returns an
// index into commands.commands.
std::optional<std::size_t> resolve_skill_command(const SkillCommands& commands, std::string_view typed);

} // namespace skillrt::core
