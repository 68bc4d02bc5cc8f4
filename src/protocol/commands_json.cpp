#include "protocol/commands_json.hpp"

#include <algorithm>

#include "core/discovery/skill_reader.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::protocol {

Json commands_json(const core::SkillCommands& commands) {
  Json out = Json::object();
  out["success"] = true;
  Json list = Json::array();
  for (const core::SkillCommand& command : commands.commands) {
    list.push_back(Json{{"command", command.command},
                        {"name", command.name},
                        {"description", command.description},
                        {"skill_md", command.skill_md},
                        {"skill_dir", command.skill_dir}});
  }
  out["commands"] = std::move(list);
  out["warnings"] = commands.warnings;
  return out;
}

void write_commands_json(std::ostream& out, const core::SkillCommands& commands) {
  std::string buffer;
  buffer.reserve(1 << 16);
  const auto flush = [&](bool force) {
    if (force || buffer.size() >= (1 << 16)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  };
  buffer += "{\n  \"success\": true,\n  \"commands\": ";
  if (commands.commands.empty()) {
    buffer += "[]";
  } else {
    buffer += "[";
    bool first = true;
    for (const core::SkillCommand& command : commands.commands) {
      buffer += first ? "\n    {\n" : ",\n    {\n";
      first = false;
      const std::pair<const char*, const std::string*> fields[] = {{"command", &command.command},
                                                                   {"name", &command.name},
                                                                   {"description", &command.description},
                                                                   {"skill_md", &command.skill_md},
                                                                   {"skill_dir", &command.skill_dir}};
      bool first_field = true;
      for (const auto& [key, value] : fields) {
        buffer += first_field ? "      \"" : ",\n      \"";
        first_field = false;
        buffer += key;
        buffer += "\": ";
        append_json_string(buffer, *value);
      }
      buffer += "\n    }";
      flush(false);
    }
    buffer += "\n  ]";
  }
  buffer += ",\n  \"warnings\": ";
  if (commands.warnings.empty()) {
    buffer += "[]";
  } else {
    buffer += "[";
    for (std::size_t i = 0; i < commands.warnings.size(); ++i) {
      buffer += i == 0 ? "\n    " : ",\n    ";
      append_json_string(buffer, commands.warnings[i]);
    }
    buffer += "\n  ]";
  }
  buffer += "\n}\n";
  flush(true);
  out.flush();
}

std::string commands_text(const core::SkillCommands& commands) {
  constexpr std::size_t k_max_command_column = 32;
  constexpr std::size_t k_line_width = 100;
  std::size_t width = 0;
  for (const core::SkillCommand& command : commands.commands) {
    width = std::max(width, core::utf8_length(command.command));
  }
  width = std::min(width, k_max_command_column);
  std::string out;
  for (const core::SkillCommand& command : commands.commands) {
    const std::size_t length = core::utf8_length(command.command);
    out += command.command;
    out.append(length < width ? width - length : 0, ' ');
    out += "  ";
    const std::size_t room = k_line_width > width + 2 ? k_line_width - width - 2 : 20;
    std::string description = command.description;
    std::replace(description.begin(), description.end(), '\n', ' ');
    if (core::utf8_length(description) > room) {
      description = core::utf8_prefix(description, room - 3) + "...";
    }
    out += description;
    out += '\n';
  }
  if (commands.commands.empty()) {
    out = "No skill commands.\n";
  }
  return out;
}

Json invocation_json(const Result<core::Invocation>& invocation) {
  Json out = Json::object();
  if (!invocation) {
    out["success"] = false;
    out["error"] = invocation.error().message;
    return out;
  }
  out["success"] = true;
  out["message"] = invocation->message;
  out["skills"] = invocation->skills;
  out["missing"] = invocation->missing;
  return out;
}

} // namespace skillrt::protocol
