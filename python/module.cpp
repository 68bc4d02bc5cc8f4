// `import skillrt`: Hermes' skill tools as Python functions with Hermes'
// signatures and results, over the C++ core. The composition root of the
// package, as apps/skillrt is the CLI's: it reads the module configuration
// (skillrt.configure, else the environment, as the CLI's global flags do),
// checks every argument's type with the GIL held, then releases the GIL for
// the whole core call, so many Python threads run at once.
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "call_context.hpp"
#include "core/tenancy/user_id.hpp"
#include "guard_binding.hpp"
#include "hermes_tools.hpp"
#include "package_settings.hpp"
#include "python_args.hpp"

namespace py = pybind11;

namespace skillrt::python {
namespace {

// The context of one call: the module configuration, the environment as it
// is now (os.environ changes are seen, as Hermes re-reads HERMES_HOME per
// call), and Hermes' task_id as the session id of ${HERMES_SESSION_ID}.
frontend::CallSetup call_setup(const std::optional<std::string>& task_id) {
  PackageSettings settings = current_settings();
  if (task_id && !task_id->empty()) {
    settings.context.session = *task_id;
  }
  return frontend::make_call_setup(settings.context, core::process_env());
}

// A C++ exception out of the core is a bug, not bad input: a JSON tool
// answers it the way the CLI's main() does ({"success": false, "error":
// "internal error: ..."}), never by unwinding into Python.
template <typename Call>
std::string json_answer(Call&& call) {
  try {
    return call();
  } catch (const std::exception& e) {
    protocol::Json out = protocol::Json::object();
    out["success"] = false;
    out["error"] = std::string("internal error: ") + e.what();
    return json_text(out);
  }
}

void log_warnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) {
    return;
  }
  py::object logger = py::module_::import("logging").attr("getLogger")("skillrt");
  for (const std::string& warning : warnings) {
    logger.attr("warning")("%s", warning);
  }
}

py::object none_or(const std::string& value) {
  return value.empty() ? py::object(py::none()) : py::object(py::str(value));
}

void configure(py::object home, py::object user, py::object org, py::object os, py::object platform,
               py::object session, py::object config, py::object db) {
  PackageSettings settings;
  const auto text_or_empty = [](py::handle value, const char* name) {
    return optional_text_arg(value, "configure", name).value_or("");
  };
  settings.context.home = home.is_none() ? "" : path_arg(home, "configure", "home");
  settings.context.config = config.is_none() ? "" : path_arg(config, "configure", "config");
  settings.context.user = text_or_empty(user, "user");
  settings.context.org = text_or_empty(org, "org");
  settings.context.os = text_or_empty(os, "os");
  settings.context.platform = text_or_empty(platform, "platform");
  settings.context.session = text_or_empty(session, "session");
  settings.db = text_or_empty(db, "db");
  // The CLI refuses these at parse time (a usage error); here a ValueError
  // before anything is kept, so a bad id never reaches a later call.
  if (!settings.context.user.empty()) {
    if (auto ok = core::check_user_id(settings.context.user); !ok) {
      throw py::value_error("configure(): user: " + ok.error().message);
    }
  }
  if (!settings.context.org.empty()) {
    if (auto ok = core::check_org_id(settings.context.org); !ok) {
      throw py::value_error("configure(): org: " + ok.error().message);
    }
  }
  const std::string& host_os = settings.context.os;
  if (!host_os.empty() && host_os != "linux" && host_os != "darwin" && host_os != "win32") {
    throw py::value_error("configure(): os must be linux, darwin or win32, not '" + host_os + "'");
  }
  replace_settings(std::move(settings));
}

py::dict configuration() {
  const PackageSettings settings = current_settings();
  py::dict out;
  out["home"] = none_or(settings.context.home);
  out["user"] = none_or(settings.context.user);
  out["org"] = none_or(settings.context.org);
  out["os"] = none_or(settings.context.os);
  out["platform"] = none_or(settings.context.platform);
  out["session"] = none_or(settings.context.session);
  out["config"] = none_or(settings.context.config);
  out["db"] = none_or(settings.db);
  // What a call would use now (environment included).
  const frontend::CallSetup setup = call_setup(std::nullopt);
  out["resolved_home"] = setup.ctx.home.string();
  out["resolved_config"] = setup.config.path.string();
  return out;
}

std::string skills_list_py(py::object category, py::object task_id) {
  const auto category_text = optional_text_arg(category, "skills_list", "category");
  (void)optional_text_arg(task_id, "skills_list", "task_id");  // Hermes' handler parity; unused there too
  py::gil_scoped_release unlocked;
  return json_answer([&] { return skills_list(call_setup(std::nullopt), category_text); });
}

std::string skill_view_py(py::object name, py::object file_path, py::object task_id, py::object preprocess) {
  const std::string name_text = text_arg(name, "skill_view", "name");
  const auto file_text = optional_text_arg(file_path, "skill_view", "file_path");
  const auto task = optional_text_arg(task_id, "skill_view", "task_id");
  const bool preprocessed = flag_arg(preprocess, "skill_view", "preprocess");
  ViewOutput output;
  {
    py::gil_scoped_release unlocked;
    output.json = json_answer([&] {
      ViewOutput answer = skill_view(call_setup(task), name_text, file_text, preprocessed);
      output.warnings = std::move(answer.warnings);
      return std::move(answer.json);
    });
  }
  log_warnings(output.warnings);
  return std::move(output.json);
}

std::string skill_manage_py(py::object action, py::object name, py::object content, py::object category,
                            py::object file_path, py::object file_content, py::object old_string,
                            py::object new_string, py::object replace_all, py::object absorbed_into,
                            py::object task_id) {
  constexpr const char* fn = "skill_manage";
  ManageArguments args;
  args.action = text_arg(action, fn, "action");
  args.name = text_arg(name, fn, "name");
  args.content = optional_text_arg(content, fn, "content");
  args.category = optional_text_arg(category, fn, "category");
  args.file_path = optional_text_arg(file_path, fn, "file_path");
  args.file_content = optional_text_arg(file_content, fn, "file_content");
  args.old_string = optional_text_arg(old_string, fn, "old_string");
  args.new_string = optional_text_arg(new_string, fn, "new_string");
  args.replace_all = flag_arg(replace_all, fn, "replace_all");
  args.absorbed_into = optional_text_arg(absorbed_into, fn, "absorbed_into");
  const auto task = optional_text_arg(task_id, fn, "task_id");
  py::gil_scoped_release unlocked;
  return json_answer([&] { return skill_manage(call_setup(task), args); });
}

std::string build_skills_system_prompt_py(py::object available_tools, py::object available_toolsets,
                                          py::object compact_categories, py::object skills_dir_override) {
  constexpr const char* fn = "build_skills_system_prompt";
  PromptArguments args;
  args.tools = optional_text_list_arg(available_tools, fn, "available_tools");
  args.toolsets = optional_text_list_arg(available_toolsets, fn, "available_toolsets");
  args.compact_categories = optional_text_list_arg(compact_categories, fn, "compact_categories").value_or(
      std::vector<std::string>{});
  if (!skills_dir_override.is_none()) {
    // The skills folder is HOME/skills here; another home is configure(home=...).
    (void)path_arg(skills_dir_override, fn, "skills_dir_override");
    throw py::value_error(
        "build_skills_system_prompt(): skills_dir_override is not supported; use skillrt.configure(home=...)");
  }
  py::gil_scoped_release unlocked;
  return skills_system_prompt(call_setup(std::nullopt), args);
}

py::dict scan_skill_commands_py() {
  CommandScan scan;
  {
    py::gil_scoped_release unlocked;
    scan = scan_skill_commands(call_setup(std::nullopt));
  }
  py::dict out;  // insertion order = key order, as the CLI lists them
  for (const CommandEntry& entry : scan.commands) {
    py::dict value;
    value["name"] = entry.name;
    value["description"] = entry.description;
    value["skill_md_path"] = entry.skill_md_path;
    value["skill_dir"] = entry.skill_dir;
    out[py::str(entry.key)] = std::move(value);
  }
  log_warnings(scan.warnings);
  return out;
}

py::object resolve_skill_command_key_py(py::object command) {
  const std::string typed = text_arg(command, "resolve_skill_command_key", "command");
  if (typed.empty()) {
    return py::none();
  }
  std::optional<std::string> key;
  {
    py::gil_scoped_release unlocked;
    key = resolve_skill_command_key(call_setup(std::nullopt), typed);
  }
  return key ? py::object(py::str(*key)) : py::object(py::none());
}

py::object build_skill_invocation_message_py(py::object cmd_key, py::object user_instruction, py::object task_id,
                                             py::object runtime_note) {
  constexpr const char* fn = "build_skill_invocation_message";
  const std::string key = text_arg(cmd_key, fn, "cmd_key");
  const std::string instruction = optional_text_arg(user_instruction, fn, "user_instruction").value_or("");
  const auto task = optional_text_arg(task_id, fn, "task_id");
  const std::string note = optional_text_arg(runtime_note, fn, "runtime_note").value_or("");
  std::optional<std::string> message;
  {
    py::gil_scoped_release unlocked;
    message = skill_invocation_message(call_setup(task), key, instruction, note);
  }
  return message ? py::object(py::str(*message)) : py::object(py::none());
}

void clear_skills_system_prompt_cache_py(py::object clear_snapshot) {
  const bool snapshot = flag_arg(clear_snapshot, "clear_skills_system_prompt_cache", "clear_snapshot");
  py::gil_scoped_release unlocked;
  clear_prompt_caches(call_setup(std::nullopt), snapshot);
}

}  // namespace
}  // namespace skillrt::python

PYBIND11_MODULE(skillrt, package) {
  using namespace skillrt::python;
  package.doc() =
      "skillrt: Hermes Agent's skill tools over the skillrt C++ core (docs/python.md). "
      "Results equal `skillrt --json` on the same home.";
  package.attr("__version__") = "0.1.0";
  const py::none none;

  package.def("configure", &configure, py::arg("home") = none, py::arg("user") = none, py::arg("org") = none,
             py::arg("os") = none, py::arg("platform") = none, py::arg("session") = none, py::arg("config") = none,
             py::arg("db") = none,
             "Set the CLI's global flags for every later call (--home --user --org --os --platform --session "
             "--config --db). None leaves a flag unset, so the environment applies ($HERMES_HOME, "
             "$HERMES_PLATFORM, $TERMINAL_CWD, ...). Each call replaces the whole configuration.");
  package.def("configuration", &configuration,
             "The configuration set by configure(), and the home and config file a call would use now.");
  package.def("skills_list", &skills_list_py, py::arg("category") = none, py::arg("task_id") = none,
             "Hermes' skills_list: a JSON string, `skillrt --json list [--category C]`.");
  package.def("skill_view", &skill_view_py, py::arg("name"), py::arg("file_path") = none, py::arg("task_id") = none,
             py::arg("preprocess") = true,
             "Hermes' skill_view: a JSON string, `skillrt --json view NAME [--file PATH]`. task_id is the "
             "session id for ${HERMES_SESSION_ID}; preprocess=False serves SKILL.md as on disk.");
  package.def("skill_manage", &skill_manage_py, py::arg("action"), py::arg("name"), py::arg("content") = none,
             py::arg("category") = none, py::arg("file_path") = none, py::arg("file_content") = none,
             py::arg("old_string") = none, py::arg("new_string") = none, py::arg("replace_all") = false,
             py::arg("absorbed_into") = none, py::arg("task_id") = none,
             "Hermes' skill_manage (create, edit, patch, delete, write_file, remove_file): a JSON string. "
             "Writes as the agent (ledger actor agent, the approval gate applies), like the MCP tool.");
  package.def("build_skills_system_prompt", &build_skills_system_prompt_py, py::arg("available_tools") = none,
             py::arg("available_toolsets") = none, py::arg("compact_categories") = none,
             py::arg("skills_dir_override") = none,
             "Hermes' build_skills_system_prompt: the skills index block (str, \"\" when there is nothing), "
             "the `prompt` of `skillrt --json prompt`.");
  package.def("clear_skills_system_prompt_cache", &clear_skills_system_prompt_cache_py,
             py::arg("clear_snapshot") = false,
             "Hermes' clear_skills_system_prompt_cache: this process's index cache, and with clear_snapshot "
             "the home's prompt snapshot.");
  package.def("scan_skill_commands", &scan_skill_commands_py,
             "Hermes' scan_skill_commands: {\"/slug\": {name, description, skill_md_path, skill_dir}}, "
             "the `commands` of `skillrt --json commands`.");
  package.def("get_skill_commands", &scan_skill_commands_py,
             "Hermes' get_skill_commands: the same map (always scanned fresh; the scan is stat-cached).");
  package.def("resolve_skill_command_key", &resolve_skill_command_key_py, py::arg("command"),
             "Hermes' resolve_skill_command_key: the registered \"/slug\" a typed command resolves to, or None.");
  package.def("build_skill_invocation_message", &build_skill_invocation_message_py, py::arg("cmd_key"),
             py::arg("user_instruction") = "", py::arg("task_id") = none, py::arg("runtime_note") = "",
             "Hermes' build_skill_invocation_message: the message for \"/KEY\" (exact key) or None, the "
             "`message` of `skillrt --json invoke \"/KEY INSTRUCTION\"`.");
  bind_guard(package);
}
