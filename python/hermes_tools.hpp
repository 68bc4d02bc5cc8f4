// Hermes' skill tools over the core, one function each and no Python in
// them: what the binding runs with the GIL released. Every answer is what the
// matching CLI command prints with --json (or the part of it Hermes' function
// returns), computed through the same apps/common and protocol code.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "call_context.hpp"
#include "core/guard/guard.hpp"
#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"

namespace skillrt::python {

// The CLI's JSON text: indent 2, invalid UTF-8 replaced (output.cpp's print_json, without the newline).
std::string json_text(const protocol::Json& value);

// skills_list(category): `skillrt --json list [--category C]`.
std::string skills_list(const frontend::CallSetup& setup, const std::optional<std::string>& category);

struct ViewOutput {
  std::string json;
  std::vector<std::string> warnings;  // security notes, for the caller's log
};

// skill_view(name, file_path, preprocess): `skillrt --json view NAME [--file PATH]`.
// preprocess=false serves SKILL.md without template variables or inline shell.
ViewOutput skill_view(frontend::CallSetup setup, const std::string& name, const std::optional<std::string>& file_path,
                      bool preprocess);

// skill_manage's arguments as Hermes takes them; nullopt = not given.
struct ManageArguments {
  std::string action;
  std::string name;
  std::optional<std::string> content;
  std::optional<std::string> category;
  std::optional<std::string> file_path;
  std::optional<std::string> file_content;
  std::optional<std::string> old_string;
  std::optional<std::string> new_string;
  bool replace_all = false;
  std::optional<std::string> absorbed_into;
};

// skill_manage as the agent calls it (the MCP tool's path: Hermes' argument
// checks, the approval gate, ledger actor "agent"). With the gate off its
// answer is what the CLI's create/edit/patch/delete/write-file/remove-file prints.
std::string skill_manage(const frontend::CallSetup& setup, const ManageArguments& args);

struct PromptArguments {
  std::optional<std::vector<std::string>> tools;     // nullopt: unknown (every skill shows)
  std::optional<std::vector<std::string>> toolsets;
  std::vector<std::string> compact_categories;
};

// build_skills_system_prompt: the `prompt` field of `skillrt --json prompt [--tools ..] [--toolsets ..] [--compact ..]`.
std::string skills_system_prompt(const frontend::CallSetup& setup, const PromptArguments& args);

// One slash command, Hermes' map value.
struct CommandEntry {
  std::string key;  // "/slug"
  std::string name;
  std::string description;
  std::string skill_md_path;
  std::string skill_dir;
};

struct CommandScan {
  std::vector<CommandEntry> commands;  // sorted by key
  std::vector<std::string> warnings;   // skills left without a command, and why
};

// scan_skill_commands: `skillrt --json commands`, as Hermes' map.
CommandScan scan_skill_commands(const frontend::CallSetup& setup);

// resolve_skill_command_key: the registered key `typed` resolves to, if any.
std::optional<std::string> resolve_skill_command_key(const frontend::CallSetup& setup, const std::string& typed);

// build_skill_invocation_message: the `message` of `skillrt --json invoke "/KEY INSTRUCTION"`
// for the exact key `cmd_key` (Hermes looks the key up as given); nullopt
// when no command has that key or its skill fails to load. Counts a use.
std::optional<std::string> skill_invocation_message(const frontend::CallSetup& setup, const std::string& cmd_key,
                                                    const std::string& user_instruction,
                                                    const std::string& runtime_note);

// scan_skill(path, source): the guard's result, or why the path could not be scanned.
Result<core::ScanResult> scan_skill(const std::string& path, const std::string& source);

// The JSON `skillrt --json scan PATH --source S` prints for `result` (decision without --force).
std::string scan_result_json(const core::ScanResult& result);

// clear_skills_system_prompt_cache: this process's index LRU, and with
// `clear_snapshot` HOME's on-disk snapshot too (what skill_manage does after a write).
void clear_prompt_caches(const frontend::CallSetup& setup, bool clear_snapshot);

}  // namespace skillrt::python
