#include "hermes_tools.hpp"

#include <algorithm>
#include <sstream>

#include "core/commands/invocation_message.hpp"
#include "core/commands/skill_commands.hpp"
#include "core/discovery/catalog.hpp"
#include "core/proposals/approval_gate.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/prompt/skills_index.hpp"
#include "core/usage/usage_book.hpp"
#include "protocol/review_json.hpp"
#include "protocol/scan_json.hpp"
#include "protocol/skill_tools.hpp"
#include "tool_answers.hpp"

namespace skillrt::python {

using protocol::Json;

std::string json_text(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace);
}

std::string skills_list(const frontend::CallSetup& setup, const std::optional<std::string>& category) {
  // Hermes filters only on a non-empty category; so does `list --category ""`.
  std::optional<std::string> filter;
  if (category && !category->empty()) {
    filter = category;
  }
  std::ostringstream out;
  frontend::write_skills_list_json(out, setup.ctx, setup.config, filter);
  return std::move(out).str();
}

ViewOutput skill_view(frontend::CallSetup setup, const std::string& name, const std::optional<std::string>& file_path,
                      bool preprocess) {
  if (!preprocess) {
    // Hermes' preprocess=False: SKILL.md exactly as on disk.
    setup.config.skills.template_vars = false;
    setup.config.skills.inline_shell = false;
  }
  frontend::SkillViewAnswer answer = frontend::answer_skill_view(setup.ctx, setup.config, name, file_path);
  return ViewOutput{json_text(answer.result), std::move(answer.warnings)};
}

std::string skill_manage(const frontend::CallSetup& setup, const ManageArguments& args) {
  // Through the MCP tool's own argument reader, so a missing or unknown
  // action gets the words the model is told everywhere else.
  Json json_args = Json::object();
  json_args["action"] = args.action;
  json_args["name"] = args.name;
  const std::pair<const char*, const std::optional<std::string>*> optional_fields[] = {
      {"content", &args.content},       {"category", &args.category},     {"file_path", &args.file_path},
      {"file_content", &args.file_content}, {"old_string", &args.old_string}, {"new_string", &args.new_string},
      {"absorbed_into", &args.absorbed_into}};
  for (const auto& [key, value] : optional_fields) {
    if (*value) {
      json_args[key] = **value;
    }
  }
  json_args["replace_all"] = args.replace_all;
  Result<core::ManageRequest> request = protocol::manage_request_from_json(json_args);
  if (!request) {
    Json failure = Json::object();
    failure["success"] = false;
    failure["error"] = request.error().message;
    return json_text(failure);
  }
  // Hermes' skill_manage is the agent's tool: the agent's ledger actor and
  // the approval gate (spec §2.10 rule 2), exactly as the MCP server's tool.
  request->actor = core::LedgerActor::agent;
  const core::GatedWrite write =
      core::gated_write(setup.ctx, setup.config, *request, core::WriteOrigin::agent, setup.ctx.session_id);
  return json_text(protocol::gated_write_json(write));
}

std::string skills_system_prompt(const frontend::CallSetup& setup, const PromptArguments& args) {
  core::PromptOptions options;
  options.tools.tools = args.tools;
  options.tools.toolsets = args.toolsets;
  options.compact_categories = args.compact_categories;
  // The CLI's `prompt` path (with its on-disk snapshot), not the in-process
  // LRU: a hit there never looks at the disk, and Hermes' other processes
  // (or the CLI) may write skills this process never hears of.
  return core::build_skills_system_prompt(setup.ctx, setup.config, options).text;
}

CommandScan scan_skill_commands(const frontend::CallSetup& setup) {
  const core::Catalog catalog = core::build_catalog(setup.ctx, setup.config);
  core::SkillCommands commands = core::scan_skill_commands(catalog);
  CommandScan out;
  out.commands.reserve(commands.commands.size());
  for (core::SkillCommand& command : commands.commands) {
    out.commands.push_back(CommandEntry{std::move(command.command), std::move(command.name),
                                        std::move(command.description), std::move(command.skill_md),
                                        std::move(command.skill_dir)});
  }
  out.warnings = std::move(commands.warnings);
  return out;
}

std::optional<std::string> resolve_skill_command_key(const frontend::CallSetup& setup, const std::string& typed) {
  const core::Catalog catalog = core::build_catalog(setup.ctx, setup.config);
  const core::SkillCommands commands = core::scan_skill_commands(catalog);
  const std::optional<std::size_t> index = core::resolve_skill_command(commands, typed);
  if (!index) {
    return std::nullopt;
  }
  return commands.commands[*index].command;
}

std::optional<std::string> skill_invocation_message(const frontend::CallSetup& setup, const std::string& cmd_key,
                                                    const std::string& user_instruction,
                                                    const std::string& runtime_note) {
  // core::build_invocation parses typed text ("/a /b rest"): an instruction
  // that starts with "/x" would read as a stacked command. Hermes is handed
  // a key and an instruction apart, so the single-skill path is composed
  // here from the same pieces build_invocation uses.
  const core::Catalog catalog = core::build_catalog(setup.ctx, setup.config);
  const core::SkillCommands commands = core::scan_skill_commands(catalog);
  const auto command = std::find_if(commands.commands.begin(), commands.commands.end(),
                                    [&](const core::SkillCommand& c) { return c.command == cmd_key; });
  if (command == commands.commands.end()) {
    return std::nullopt;
  }
  auto skill = core::load_skill_for_command(setup.ctx, setup.config, *command);
  if (!skill) {
    return std::nullopt;
  }
  const std::string config_path =
      setup.config.path.empty() ? setup.ctx.config_path().string() : setup.config.path.string();
  std::string message = core::render_single_invocation(*skill, config_path, user_instruction, runtime_note);
  if (const auto subject = core::command_usage_subject(*command)) {
    (void)core::record_use(setup.ctx, subject->layer, subject->name);  // bookkeeping, never a failure
  }
  return message;
}

Result<core::ScanResult> scan_skill(const std::string& path, const std::string& source) {
  core::ScanOptions options;
  options.source = source;
  return core::scan_skill(path, options);
}

std::string scan_result_json(const core::ScanResult& result) {
  return json_text(protocol::scan_result_json(result, core::decide_install(result, false)));
}

void clear_prompt_caches(const frontend::CallSetup& setup, bool clear_snapshot) {
  if (clear_snapshot) {
    core::invalidate_skill_caches(setup.ctx);
  } else {
    core::clear_prompt_cache();
  }
}

}  // namespace skillrt::python
