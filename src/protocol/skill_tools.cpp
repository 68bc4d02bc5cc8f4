#include "protocol/skill_tools.hpp"

#include <optional>
#include <vector>

#include "core/limits.hpp"

namespace skillrt::protocol {

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
  out["read_only"] = read_only;
  return out;
}

}  // namespace

std::optional<std::string> string_argument(const Json& args, const char* key, std::string& error) {
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

Json skill_tool_definitions() {
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
  tools.push_back(tool(
      "skills_match", "Skills for this message",
      "The skills whose triggers fire on the user's message (and whose path globs cover the files the turn "
      "touches), each with the reason: call it with the user's words to find which skill to load. Returns "
      "nothing for a message no skill asks for.",
      Json{{"message", string_property("The user's message")},
           {"paths", Json{{"type", "array"},
                          {"items", Json{{"type", "string"}}},
                          {"maxItems", limits::k_max_match_paths},
                          {"description", "Files the turn reads or edits, for skills with `paths` globs"}}},
           {"limit", Json{{"type", "integer"},
                          {"minimum", 1},
                          {"maximum", limits::k_match_max_limit},
                          {"description", "Most skills to return (default 5)"}}}},
      {"message"}, true));
  return tools;
}

Json memory_tool_definition() {
  Json action = Json{{"type", "string"},
                     {"enum", {"add", "replace", "remove", "list"}},
                     {"description", "What to do"}};
  Json target = Json{{"type", "string"},
                     {"enum", {"memory", "user"}},
                     {"description", "memory: the agent's own notes; user: what is known about the user"}};
  return tool("memory", "Memory",
              "Keep durable notes across conversations: add an entry, replace or remove one (old_text names it), "
              "or list both stores.",
              Json{{"action", std::move(action)},
                   {"target", std::move(target)},
                   {"content", string_property("add/replace: the entry's text")},
                   {"old_text", string_property("replace/remove: a unique part of the entry to change")}},
              {"action"}, false);
}

Result<core::ManageRequest> manage_request_from_json(const Json& args) {
  if (!args.is_object()) {
    return fail(ErrorCode::invalid_argument, "The arguments must be a JSON object.");
  }
  std::string error;
  const auto action_name = string_argument(args, "action", error);
  const auto name = string_argument(args, "name", error);
  core::ManageRequest request;
  request.content = string_argument(args, "content", error);
  request.category = string_argument(args, "category", error);
  request.file_path = string_argument(args, "file_path", error);
  request.file_content = string_argument(args, "file_content", error);
  request.old_string = string_argument(args, "old_string", error);
  request.new_string = string_argument(args, "new_string", error);
  request.absorbed_into = string_argument(args, "absorbed_into", error);
  if (const auto replace_all = args.find("replace_all"); replace_all != args.end() && !replace_all->is_null()) {
    if (!replace_all->is_boolean()) {
      error = error.empty() ? "Argument 'replace_all' must be a boolean." : error;
    } else {
      request.replace_all = replace_all->get<bool>();
    }
  }
  if (!error.empty()) {
    return fail(ErrorCode::invalid_argument, error);
  }
  if (!action_name) {
    return fail(ErrorCode::invalid_argument, "Argument 'action' is required.");
  }
  std::optional<core::ManageAction> action;
  for (core::ManageAction candidate :
       {core::ManageAction::create, core::ManageAction::edit, core::ManageAction::patch,
        core::ManageAction::remove_skill, core::ManageAction::write_file, core::ManageAction::remove_file}) {
    if (*action_name == core::manage_action_name(candidate)) {
      action = candidate;
    }
  }
  if (!action) {
    return fail(ErrorCode::invalid_argument,
                "Unknown action '" + *action_name + "'. Use: create, edit, patch, delete, write_file, remove_file");
  }
  request.action = *action;
  request.name = name.value_or("");
  return request;
}

}  // namespace skillrt::protocol
