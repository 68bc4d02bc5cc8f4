#include "protocol/review_toolbox.hpp"

#include <optional>
#include <string>

#include "core/discovery/catalog.hpp"
#include "core/memory/memory.hpp"
#include "core/review/review_files.hpp"
#include "core/util/utf8.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/memory_json.hpp"
#include "protocol/review_json.hpp"
#include "protocol/skill_tools.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::protocol {

namespace {

constexpr const char* k_review_skill_tools[] = {"skills_list", "skill_view", "skill_manage"};

std::string failure(const std::string& message) {
  Json out = Json::object();
  out["success"] = false;
  out["error"] = message;
  return out.dump();
}

bool succeeded(const Json& answer) {
  const auto success = answer.find("success");
  return success != answer.end() && success->is_boolean() && success->get<bool>();
}

std::optional<std::string> string_member(const Json& args, const char* key) {
  const auto found = args.find(key);
  if (found == args.end() || !found->is_string()) {
    return std::nullopt;
  }
  return found->get<std::string>();
}

std::size_t count_member(const Json& args, const char* key) {
  const auto found = args.find(key);
  if (found == args.end() || !found->is_number_unsigned()) {
    return 0;
  }
  return static_cast<std::size_t>(found->get<std::uint64_t>());
}

core::ChatTool chat_tool(const Json& definition) {
  core::ChatTool tool;
  tool.name = definition.at("name").get<std::string>();
  tool.description = definition.at("description").get<std::string>();
  tool.parameters_json = definition.at("inputSchema").dump();
  return tool;
}

}  // namespace

ReviewTools::ReviewTools(core::ReviewSession& session, bool memory) : m_session(session), m_memory(memory) {}

std::vector<core::ChatTool> ReviewTools::tools() const {
  std::vector<core::ChatTool> out;
  for (const Json& definition : skill_tool_definitions()) {
    const std::string name = definition.at("name").get<std::string>();
    for (const char* allowed : k_review_skill_tools) {
      if (name == allowed) {
        out.push_back(chat_tool(definition));
      }
    }
  }
  if (m_memory) {
    out.push_back(chat_tool(memory_tool_definition()));
  }
  core::ChatTool read_file;
  read_file.name = "read_file";
  read_file.description =
      "Read a text file inside the skills you may change (path relative to the skills folder, e.g. "
      "'my-skill/references/notes.md'), as numbered lines. Read-only.";
  read_file.parameters_json =
      Json{{"type", "object"},
           {"properties",
            Json{{"path", Json{{"type", "string"}, {"description", "The file, relative to the skills folder"}}},
                 {"offset", Json{{"type", "integer"}, {"minimum", 1}, {"description", "First line (1-based)"}}},
                 {"limit",
                  Json{{"type", "integer"}, {"minimum", 1}, {"description", "Most lines to return (default 2000)"}}}}},
           {"required", Json::array({"path"})}}
          .dump();
  out.push_back(std::move(read_file));
  core::ChatTool search;
  search.name = "search_files";
  search.description =
      "Find lines containing a text (case-insensitive) in the files of the skills you may change. Read-only.";
  search.parameters_json =
      Json{{"type", "object"},
           {"properties",
            Json{{"pattern", Json{{"type", "string"}, {"description", "The text to find"}}},
                 {"path", Json{{"type", "string"}, {"description", "Only under this folder, relative to the skills folder"}}},
                 {"limit", Json{{"type", "integer"}, {"minimum", 1}, {"description", "Most matches (default 50)"}}}}},
           {"required", Json::array({"pattern"})}}
          .dump();
  out.push_back(std::move(search));
  return out;
}

std::string ReviewTools::call(const core::ChatToolCall& call, core::ReviewAction& action) {
  action.tool = call.name;
  const Json args = call.arguments.empty() ? Json::object() : Json::parse(call.arguments, nullptr, false);
  bool known = call.name == "read_file" || call.name == "search_files" || (m_memory && call.name == "memory");
  for (const char* allowed : k_review_skill_tools) {
    known = known || call.name == allowed;
  }
  if (!known) {
    std::string allowed = "skills_list, skill_view, skill_manage";
    allowed += m_memory ? ", memory" : "";
    allowed += ", read_file, search_files";
    action.summary = "refused tool '" + core::sanitize_utf8(call.name) + "'";
    return failure("Tool '" + core::sanitize_utf8(call.name) + "' is not available to the background review. You can only call: " +
                   allowed + ".");
  }
  if (args.is_discarded() || !args.is_object()) {
    action.summary = "malformed arguments for " + call.name;
    return failure("The arguments of " + call.name + " must be a JSON object; got: " +
                   core::sanitize_utf8(call.arguments.substr(0, 200)));
  }
  const core::Context& ctx = m_session.context();
  const core::Config& cfg = m_session.config();

  if (call.name == "skills_list") {
    const core::Catalog catalog = core::build_catalog(ctx, cfg);
    action.success = true;
    action.summary = "listed skills";
    return list_json(catalog, string_member(args, "category")).dump();
  }
  if (call.name == "skill_view") {
    const auto name = string_member(args, "name");
    if (!name) {
      action.summary = "skill_view without a name";
      return failure("Argument 'name' is required.");
    }
    const auto file_path = string_member(args, "file_path");
    std::vector<std::string> warnings;
    Json answer = skill_view_json(ctx, cfg, *name, file_path, warnings);
    action.success = succeeded(answer);
    action.summary = "viewed '" + core::sanitize_utf8(*name) + "'" + (file_path ? " " + core::sanitize_utf8(*file_path) : "");
    if (action.success) {
      m_session.note_view(*name, file_path);
    }
    return answer.dump();
  }
  if (call.name == "skill_manage") {
    Result<core::ManageRequest> request = manage_request_from_json(args);
    if (!request) {
      action.summary = "skill_manage with bad arguments";
      return failure(request.error().message);
    }
    const std::string what =
        std::string(core::manage_action_name(request->action)) + " '" + core::sanitize_utf8(request->name) + "'";
    core::ReviewWriteOutcome outcome = m_session.write(*request);
    Json answer = gated_write_json(outcome);
    action.success = outcome.result.success;
    action.wrote = outcome.applied;
    action.summary = outcome.result.success ? what : what + " refused: " + outcome.result.error;
    if (outcome.proposal) {
      action.proposal_id = outcome.proposal->id;
      action.proposal_state = core::proposal_state_name(outcome.proposal->state);
      action.summary = what + (outcome.proposal->state == core::ProposalState::pending ? " staged" : " quarantined");
    }
    return answer.dump();
  }
  if (call.name == "memory") {
    Result<core::MemoryRequest> request = memory_request_from_json(args);
    if (!request) {
      action.summary = "memory with bad arguments";
      return failure(request.error().message);
    }
    Result<core::MemoryResult> result = core::run_memory(ctx, *request);
    if (!result) {
      action.summary = "memory refused: " + result.error().message;
      return failure(result.error().message);
    }
    action.success = true;
    action.wrote = request->action != core::MemoryAction::list;
    action.summary = action.wrote ? "memory updated" : "memory listed";
    return memory_result_json(*result).dump();
  }
  if (call.name == "read_file") {
    const auto path = string_member(args, "path");
    if (!path) {
      action.summary = "read_file without a path";
      return failure("Argument 'path' is required.");
    }
    Result<core::FileRead> read =
        core::review_read_file(m_session.readable_roots(), *path, count_member(args, "offset"), count_member(args, "limit"));
    if (!read) {
      action.summary = "read_file refused: " + read.error().message;
      return failure(read.error().message);
    }
    m_session.note_file_read(read->path);
    action.success = true;
    action.summary = "read " + core::sanitize_utf8(*path);
    Json out = Json::object();
    out["success"] = true;
    out["path"] = *path;
    out["content"] = read->content;
    out["total_lines"] = read->total_lines;
    out["truncated"] = read->truncated;
    return out.dump();
  }
  // search_files
  const auto pattern = string_member(args, "pattern");
  if (!pattern) {
    action.summary = "search_files without a pattern";
    return failure("Argument 'pattern' is required.");
  }
  Result<core::FileSearch> found = core::review_search_files(m_session.readable_roots(), *pattern,
                                                             string_member(args, "path").value_or(""),
                                                             count_member(args, "limit"));
  if (!found) {
    action.summary = "search_files refused: " + found.error().message;
    return failure(found.error().message);
  }
  action.success = true;
  action.summary = "searched for '" + core::sanitize_utf8(*pattern) + "'";
  Json matches = Json::array();
  for (const core::FileMatch& match : found->matches) {
    matches.push_back(Json{{"path", match.path}, {"line", match.line}, {"text", match.text}});
  }
  Json out = Json::object();
  out["success"] = true;
  out["matches"] = std::move(matches);
  out["truncated"] = found->truncated;
  return out.dump();
}

}  // namespace skillrt::protocol
