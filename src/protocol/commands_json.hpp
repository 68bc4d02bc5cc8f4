// JSON and text of the slash-command map and of an invocation message.
#pragma once

#include <ostream>
#include <string>

#include "core/commands/invocation_message.hpp"
#include "core/commands/skill_commands.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success, commands:[{command, name, description, skill_md, skill_dir}], warnings:[...]}
Json commands_json(const core::SkillCommands& commands);

// Writes exactly commands_json(commands).dump(2) followed by a newline,
// without building the JSON tree (a 10k-skill map is ~6 MB of JSON).
void write_commands_json(std::ostream& out, const core::SkillCommands& commands);

// A table: command, description (cut to fit 100 columns), one per line.
std::string commands_text(const core::SkillCommands& commands);

// {success, message, skills, missing}, or {success:false, error} on failure.
Json invocation_json(const Result<core::Invocation>& invocation);

} // namespace skillrt::protocol
