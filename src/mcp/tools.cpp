// The four tools: Hermes' skills_list, skill_view and skill_manage, plus
// skills_search. Each answers Hermes' JSON object (src/protocol) twice: as
// text for models and as structuredContent for programs. A failed operation
// and an argument of the wrong type are isError results (the model can read
// and fix them); only an unknown tool or a malformed call is a protocol error.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/manage/manage_request.hpp"
#include "core/search/search_skills.hpp"
#include "core/view/skill_view.hpp"
#include "mcp/server_state.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/manage_json.hpp"
#include "protocol/search_json.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::mcp {
namespace {

Json string_property(const char* description) { return Json{{"type", "string"}, {"description", description}}; }

Json tool(const char* name, const char* title, const char* description, Json properties,
          std::vector<std::string> required, bool read_only) {
  Json schema = Json::object();
  schema["type"] = "object";
  schema["properties"] = std::move(properties);
  if (!required.empty()) {
    schema["required"] = required;
  }
  Json out = Json::object();
  out["name"] = name;
  out["title"] = title;
  out["description"] = description;
  out["inputSchema"] = std::move(schema);
  Json annotations = Json::object();
  annotations["title"] = title;
  annotations["readOnlyHint"] = read_only;
  if (!read_only) {
    annotations["destructiveHint"] = true;
  }
  annotations["openWorldHint"] = false;
  out["annotations"] = std::move(annotations);
  return out;
}

Json build_definitions() {
  Json tools = Json::array();
  tools.push_back(tool("skills_list", "List skills",
                       "List the skills available to you: name, description, category, path and source of each, "
                       "sorted by category then name. Call skill_view with a name to load one.",
                       Json{{"category", string_property("Only skills of this category (exact match)")}}, {}, true));
  tools.push_back(tool(
      "skill_view", "View a skill",
      "Load a skill's full instructions (SKILL.md, preprocessed) with its tags, linked files and readiness, or "
      "one of its linked files when file_path is given.",
      Json{{"name", string_property("Skill name, category/name, or a path relative to the skills directory")},
           {"file_path", string_property("A file inside the skill, e.g. references/api.md")}},
      {"name"}, true));
  Json action = Json{{"type", "string"},
                     {"enum", {"create", "patch", "edit", "delete", "write_file", "remove_file"}},
                     {"description", "What to do"}};
  tools.push_back(tool(
      "skill_manage", "Manage skills",
      "Create, edit, patch or delete a skill, or write or remove one of its supporting files. create and edit "
      "take the whole SKILL.md (frontmatter with name and description, then a body); patch replaces old_string "
      "with new_string (fuzzy matching) in SKILL.md or in file_path.",
      Json{{"action", std::move(action)},
           {"name", string_property("The skill's name (lowercase letters, digits, '.', '_', '-'; at most 64)")},
           {"content", string_property("create/edit: the whole SKILL.md")},
           {"category", string_property("create: a category folder for the new skill")},
           {"file_path", string_property("write_file/remove_file/patch: a path such as references/notes.md")},
           {"file_content", string_property("write_file: the file's content")},
           {"old_string", string_property("patch: the text to find")},
           {"new_string", string_property("patch: the replacement (empty deletes the match)")},
           {"replace_all", Json{{"type", "boolean"}, {"description", "patch: replace every match"}}},
           {"absorbed_into", string_property("delete: the skill that took over this one's content")}},
      {"action", "name"}, false));
  tools.push_back(tool(
      "skills_search", "Search skills",
      "Find the skills most relevant to a task: full-text ranking over names, descriptions, tags and bodies of "
      "your database skills, your own skills and the shared skills.",
      Json{{"query", string_property("What the skill should be about")},
           {"limit", Json{{"type", "integer"},
                          {"minimum", 1},
                          {"maximum", limits::k_search_max_limit},
                          {"description", "Most results to return (default 5)"}}}},
      {"query"}, true));
  return tools;
}

// {"content":[{"type":"text","text":PAYLOAD AS TEXT}],"structuredContent":PAYLOAD,"isError":…}
// written straight as text from the payload's serialization `structured`:
// it is spliced in once as it is and escaped once for the text content,
// instead of building the result as a tree and escaping the skill body three
// times on the way out.
MethodOutput tool_result_text(const std::string& structured, bool ok) {
  std::string out;
  out.reserve(2 * structured.size() + structured.size() / 8 + 96);
  out += R"({"content":[{"type":"text","text":)";
  append_json_string(out, structured);
  out += R"(}],"structuredContent":)";
  out += structured;
  out += ok ? R"(,"isError":false})" : R"(,"isError":true})";
  return MethodOutput::serialized_text(std::move(out));
}

MethodOutput tool_result(const Json& payload) {
  const auto success = payload.find("success");
  const bool ok = success != payload.end() && success->is_boolean() && success->get<bool>();
  return tool_result_text(dump_json(payload), ok);
}

MethodOutput argument_error(const std::string& message) {
  Json payload = Json::object();
  payload["success"] = false;
  payload["error"] = message;
  return tool_result(payload);
}

// An optional string argument; `error` is set when it has another type.
std::optional<std::string> string_arg(const Json& args, const char* key, std::string& error) {
  const auto found = args.find(key);
  if (found == args.end() || found->is_null()) {
    return std::nullopt;
  }
  if (!found->is_string()) {
    if (error.empty()) {
      error = std::string("Argument '") + key + "' must be a string.";
    }
    return std::nullopt;
  }
  return found->get<std::string>();
}

MethodOutput run_skills_list(Session::Impl& session, const Json& args) {
  std::string error;
  const auto category = string_arg(args, "category", error);
  if (!error.empty()) {
    return argument_error(error);
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  return tool_result(protocol::list_json(snapshot->catalog, category));
}

MethodOutput run_skill_view(Session::Impl& session, const Json& args) {
  std::string error;
  const auto name = string_arg(args, "name", error);
  const auto file_path = string_arg(args, "file_path", error);
  if (!error.empty()) {
    return argument_error(error);
  }
  if (!name) {
    return argument_error("Argument 'name' is required.");
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  const bool whole_skill = !file_path || file_path->empty();
  if (whole_skill) {
    if (auto hit = snapshot->views.find(*name)) {
      for (const std::string& warning : hit->warnings) {
        session.log(k_log_level_warning, "warning", warning);
      }
      return tool_result_text(hit->payload_text, true);
    }
  }
  const core::Config& config = session.server->options.config;
  std::vector<std::string> warnings;
  const auto answer = core::view_skill_in(session.ctx, config, snapshot->catalog, *name, file_path, warnings);
  for (const std::string& warning : warnings) {
    session.log(k_log_level_warning, "warning", warning);
  }
  if (!answer) {
    return tool_result(protocol::view_failure_json(answer.error()));
  }
  if (const auto* doc = std::get_if<core::SkillDocument>(&*answer)) {
    std::string payload = dump_json(protocol::skill_document_json(*doc));
    MethodOutput result = tool_result_text(payload, true);
    if (whole_skill) {
      snapshot->views.store(*name, *doc, session.ctx, config, std::move(payload), warnings);
    }
    return result;
  }
  return tool_result(protocol::skill_file_json(std::get<core::SkillFile>(*answer)));
}

std::optional<core::ManageAction> parse_action(const std::string& action) {
  using core::ManageAction;
  for (ManageAction candidate : {ManageAction::create, ManageAction::edit, ManageAction::patch,
                                 ManageAction::remove_skill, ManageAction::write_file, ManageAction::remove_file}) {
    if (action == core::manage_action_name(candidate)) {
      return candidate;
    }
  }
  return std::nullopt;
}

MethodOutput run_skill_manage(Session::Impl& session, const Json& args) {
  std::string error;
  const auto action_name = string_arg(args, "action", error);
  const auto name = string_arg(args, "name", error);
  core::ManageRequest request;
  request.content = string_arg(args, "content", error);
  request.category = string_arg(args, "category", error);
  request.file_path = string_arg(args, "file_path", error);
  request.file_content = string_arg(args, "file_content", error);
  request.old_string = string_arg(args, "old_string", error);
  request.new_string = string_arg(args, "new_string", error);
  request.absorbed_into = string_arg(args, "absorbed_into", error);
  if (const auto replace_all = args.find("replace_all"); replace_all != args.end() && !replace_all->is_null()) {
    if (!replace_all->is_boolean()) {
      error = error.empty() ? "Argument 'replace_all' must be a boolean." : error;
    } else {
      request.replace_all = replace_all->get<bool>();
    }
  }
  if (!error.empty()) {
    return argument_error(error);
  }
  if (!action_name) {
    return argument_error("Argument 'action' is required.");
  }
  const auto action = parse_action(*action_name);
  if (!action) {
    return argument_error("Unknown action '" + *action_name +
                          "'. Use: create, edit, patch, delete, write_file, remove_file");
  }
  request.action = *action;
  request.name = name.value_or("");
  // A successful write publishes its change event on our bus; every entitled
  // session's subscription drops the snapshots and notifies its client.
  return tool_result(protocol::skill_manage_json(session.ctx, session.server->options.config, request));
}

MethodOutput run_skills_search(Session::Impl& session, const Json& args) {
  std::string error;
  const auto query = string_arg(args, "query", error);
  std::size_t limit = limits::k_search_default_limit;
  if (const auto given = args.find("limit"); given != args.end() && !given->is_null()) {
    if (!given->is_number_integer()) {
      error = error.empty() ? "Argument 'limit' must be an integer." : error;
    } else if (given->is_number_unsigned()) {
      // Anything past the maximum is refused by check_search_request below.
      limit = static_cast<std::size_t>(std::min<std::uint64_t>(given->get<std::uint64_t>(),
                                                               limits::k_search_max_limit + 1));
    } else {
      const std::int64_t value = given->get<std::int64_t>();
      limit = value < 1 ? 0 : static_cast<std::size_t>(value);
    }
  }
  if (!error.empty()) {
    return argument_error(error);
  }
  if (!query) {
    return argument_error("Argument 'query' is required.");
  }
  Result<core::SkillSearch> search = [&]() -> Result<core::SkillSearch> {
    if (auto checked = core::check_search_request(*query, limit); !checked) {
      return tl::unexpected(checked.error());
    }
    const auto snapshot = session.server->snapshot(session.ctx);
    return session.server->with_store([&](core::SkillStore& store) {
      return core::search_skills_in(session.ctx, snapshot->catalog, store, *query, limit);
    });
  }();
  return tool_result(protocol::search_json(*query, search));
}

}  // namespace

Json tool_definitions() {
  static const Json k_tools = build_definitions();
  return k_tools;
}

MethodResult call_tool(Session::Impl& session, const Json& params) {
  auto name = string_param(params, "name", true);
  if (!name) {
    return tl::unexpected(name.error());
  }
  static const Json k_no_arguments = Json::object();
  const Json* args = &k_no_arguments;
  if (const auto given = params.find("arguments"); given != params.end() && !given->is_null()) {
    if (!given->is_object()) {
      return tl::unexpected(invalid_params("Invalid params: \"arguments\" must be an object"));
    }
    args = &*given;
  }
  const std::string& tool_name = **name;
  if (tool_name == "skills_list") {
    return run_skills_list(session, *args);
  }
  if (tool_name == "skill_view") {
    return run_skill_view(session, *args);
  }
  if (tool_name == "skill_manage") {
    return run_skill_manage(session, *args);
  }
  if (tool_name == "skills_search") {
    return run_skills_search(session, *args);
  }
  return tl::unexpected(invalid_params("Invalid params: unknown tool \"" + tool_name + "\""));
}

}  // namespace skillrt::mcp
