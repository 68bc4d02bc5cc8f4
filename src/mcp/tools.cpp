// The five tools: Hermes' skills_list, skill_view and skill_manage, plus
// skills_search and skills_match (their schemas: protocol/skill_tools). skill_manage passes
// the approval gate (core/proposals/approval_gate) as an agent's write. Each answers Hermes' JSON object (src/protocol) twice: as
// text for models and as structuredContent for programs. A failed operation
// and an argument of the wrong type are isError results (the model can read
// and fix them); only an unknown tool or a malformed call is a protocol error.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/activation/match_skills.hpp"
#include "core/limits.hpp"
#include "core/manage/manage_request.hpp"
#include "core/proposals/approval_gate.hpp"
#include "core/search/search_skills.hpp"
#include "core/view/skill_view.hpp"
#include "mcp/server_state.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/review_json.hpp"
#include "protocol/skill_tools.hpp"
#include "protocol/match_json.hpp"
#include "protocol/search_json.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::mcp {
namespace {

// The MCP shape of the shared skill tool definitions (protocol/skill_tools):
// each with its annotations.
Json build_definitions() {
  Json tools = Json::array();
  for (Json definition : protocol::skill_tool_definitions()) {
    const bool read_only = definition["read_only"].get<bool>();
    definition.erase("read_only");
    Json annotations = Json::object();
    annotations["title"] = definition["title"];
    annotations["readOnlyHint"] = read_only;
    if (!read_only) {
      annotations["destructiveHint"] = true;
    }
    annotations["openWorldHint"] = false;
    definition["annotations"] = std::move(annotations);
    tools.push_back(std::move(definition));
  }
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

using protocol::string_argument;

MethodOutput run_skills_list(Session::Impl& session, const Json& args) {
  std::string error;
  const auto category = string_argument(args, "category", error);
  if (!error.empty()) {
    return argument_error(error);
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  return tool_result(protocol::list_json(snapshot->catalog, category));
}

// A view that says setup is needed may instead send the person to the setup
// page (setup_elicitation.cpp); the quick text test keeps every other view
// from being parsed again.
std::optional<MethodOutput> maybe_offer_setup(Session::Impl& session, const Json& params, const std::string& name,
                                              const std::string& payload) {
  if (payload.find(R"("setup_needed":true)") == std::string::npos) {
    return std::nullopt;
  }
  return offer_setup(session, params, name, payload);
}

MethodOutput run_skill_view(Session::Impl& session, const Json& args, const Json& params) {
  std::string error;
  const auto name = string_argument(args, "name", error);
  const auto file_path = string_argument(args, "file_path", error);
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
      if (hit->usage) {
        session.server->usage.note(session.ctx, hit->usage->layer, hit->usage->name, core::UsageEvent::view);
      }
      if (auto offered = maybe_offer_setup(session, params, *name, hit->payload_text)) {
        return std::move(*offered);
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
    std::optional<MethodOutput> offered = whole_skill ? maybe_offer_setup(session, params, *name, payload) : std::nullopt;
    MethodOutput result = offered ? std::move(*offered) : tool_result_text(payload, true);
    if (const auto subject = core::usage_subject(*doc)) {
      session.server->usage.note(session.ctx, subject->layer, subject->name, core::UsageEvent::view);
    }
    if (whole_skill) {
      snapshot->views.store(*name, *doc, session.ctx, config, std::move(payload), warnings);
    }
    return result;
  }
  return tool_result(protocol::skill_file_json(std::get<core::SkillFile>(*answer)));
}

MethodOutput run_skill_manage(Session::Impl& session, const Json& args) {
  Result<core::ManageRequest> request = protocol::manage_request_from_json(args);
  if (!request) {
    return argument_error(request.error().message);
  }
  request->actor = core::LedgerActor::agent;
  // The approval gate: skills.write_approval (all or a list) and folders with
  // `approval: all` stage the write as a proposal; a guard "ask" is staged
  // for a person instead of ending here. A successful live write publishes
  // its change event on our bus; every entitled session's subscription drops
  // the snapshots and notifies its client.
  const core::GatedWrite write = core::gated_write(session.ctx, session.server->options.config, *request,
                                                   core::WriteOrigin::agent, session.ctx.session_id);
  return tool_result(protocol::gated_write_json(write));
}

MethodOutput run_skills_search(Session::Impl& session, const Json& args) {
  std::string error;
  const auto query = string_argument(args, "query", error);
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
  const Result<core::SkillSearch> search = session.server->search_skills(session.ctx, *query, limit);
  return tool_result(protocol::search_json(*query, search));
}

MethodOutput run_skills_match(Session::Impl& session, const Json& args) {
  std::string error;
  core::MatchRequest request;
  const auto message = string_argument(args, "message", error);
  if (const auto given = args.find("paths"); given != args.end() && !given->is_null()) {
    if (!given->is_array() || !std::all_of(given->begin(), given->end(), [](const Json& p) { return p.is_string(); })) {
      error = error.empty() ? "Argument 'paths' must be an array of strings." : error;
    } else {
      // More than the maximum is refused by check_match_request, without a copy of them all.
      for (const Json& path : *given) {
        if (request.paths.size() > limits::k_max_match_paths) {
          break;
        }
        request.paths.push_back(path.get<std::string>());
      }
    }
  }
  if (const auto given = args.find("limit"); given != args.end() && !given->is_null()) {
    if (!given->is_number_integer()) {
      error = error.empty() ? "Argument 'limit' must be an integer." : error;
    } else if (given->is_number_unsigned()) {
      request.limit = static_cast<std::size_t>(
          std::min<std::uint64_t>(given->get<std::uint64_t>(), limits::k_match_max_limit + 1));
    } else {
      const std::int64_t value = given->get<std::int64_t>();
      request.limit = value < 1 ? 0 : static_cast<std::size_t>(value);
    }
  }
  if (!error.empty()) {
    return argument_error(error);
  }
  if (!message) {
    return argument_error("Argument 'message' is required.");
  }
  request.message = *message;
  const Result<core::SkillMatch> match = session.server->match_skills(session.ctx, request);
  // An agent is told what fires; a trigger that cannot be used is the
  // author's business (skillrt match and the REST API show those).
  return tool_result(protocol::match_json(request.message, match, false));
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
    return run_skill_view(session, *args, params);
  }
  if (tool_name == "skill_manage") {
    return run_skill_manage(session, *args);
  }
  if (tool_name == "skills_search") {
    return run_skills_search(session, *args);
  }
  if (tool_name == "skills_match") {
    return run_skills_match(session, *args);
  }
  return tl::unexpected(invalid_params("Invalid params: unknown tool \"" + tool_name + "\""));
}

}  // namespace skillrt::mcp
