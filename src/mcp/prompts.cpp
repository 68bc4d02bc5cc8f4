// Prompts: one per slash command of the caller's offered skills (issue 2's
// command map). prompts/get renders the same invocation message `skillrt
// invoke "/cmd instruction"` prints, as one user message.
#include <string>

#include "core/commands/invocation_message.hpp"
#include "mcp/server_state.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::mcp {
namespace {

// Prompts per page of prompts/list.
constexpr std::size_t k_prompts_page = 1000;

std::string prompt_name(const core::SkillCommand& command) {
  return command.command.size() > 1 && command.command.front() == '/' ? command.command.substr(1) : command.command;
}

Json instruction_argument() {
  Json argument = Json::object();
  argument["name"] = "instruction";
  argument["description"] = "What to do with the skill (appended to its instructions)";
  argument["required"] = false;
  return Json::array({std::move(argument)});
}

}  // namespace

MethodResult list_prompts(Session::Impl& session, const Json& params) {
  auto offset = cursor_offset(params);
  if (!offset) {
    return tl::unexpected(offset.error());
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  const auto& commands = snapshot->commands.commands;
  Json prompts = Json::array();
  const std::size_t end = std::min(commands.size(), *offset + k_prompts_page);
  for (std::size_t i = *offset; i < end; ++i) {
    const core::SkillCommand& command = commands[i];
    Json prompt = Json::object();
    prompt["name"] = protocol::json_text(prompt_name(command));
    prompt["title"] = protocol::json_text(command.name);
    prompt["description"] = protocol::json_text(command.description);
    prompt["arguments"] = instruction_argument();
    prompts.push_back(std::move(prompt));
  }
  Json result = Json::object();
  result["prompts"] = std::move(prompts);
  if (end < commands.size()) {
    result["nextCursor"] = make_cursor(end);
  }
  return result;
}

MethodResult get_prompt(Session::Impl& session, const Json& params) {
  auto name = string_param(params, "name", true);
  if (!name) {
    return tl::unexpected(name.error());
  }
  std::string instruction;
  if (const auto args = params.find("arguments"); args != params.end() && !args->is_null()) {
    if (!args->is_object()) {
      return tl::unexpected(invalid_params("Invalid params: \"arguments\" must be an object"));
    }
    auto given = string_param(*args, "instruction", false);
    if (!given) {
      return tl::unexpected(invalid_params("Invalid params: \"arguments.instruction\" must be a string"));
    }
    instruction = given->value_or("");
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  const auto key = core::resolve_skill_command(snapshot->commands, **name);
  if (!key) {
    return tl::unexpected(invalid_params("Invalid params: unknown prompt \"" + **name + "\""));
  }
  const core::SkillCommand& command = snapshot->commands.commands[*key];
  const core::Config& config = session.server->options.config;
  auto loaded = core::load_skill_for_command(session.ctx, config, command);
  if (!loaded) {
    return tl::unexpected(RpcError{rpc_code::internal_error,
                                   "Cannot load skill '" + command.name + "': " + loaded.error().message,
                                   std::nullopt});
  }
  const std::string config_path =
      config.path.empty() ? session.ctx.config_path().string() : config.path.string();
  const std::string message = core::render_single_invocation(*loaded, config_path, instruction, "");
  if (const auto subject = core::command_usage_subject(command)) {
    session.server->usage.note(session.ctx, subject->layer, subject->name, core::UsageEvent::use);
  }
  Json content = Json::object();
  content["type"] = "text";
  content["text"] = protocol::json_text(message);
  Json user_message = Json::object();
  user_message["role"] = "user";
  user_message["content"] = std::move(content);
  Json result = Json::object();
  result["description"] = protocol::json_text(command.description);
  result["messages"] = Json::array({std::move(user_message)});
  return result;
}

}  // namespace skillrt::mcp
