// Asking for a skill's missing secrets over MCP (issue 18 item 3). The MCP
// specification forbids form-mode elicitation for passwords, API keys and
// tokens (2025-11-25 and 2026-07-28: "Servers MUST NOT use form mode
// elicitation to request sensitive information"; 2025-06-18 forbids
// elicitation for it altogether), so the person is sent to `skillrt serve`'s
// setup page with a URL-mode elicitation: the values go from their browser
// to the user's own .env and never through the client or the model.
//
// - 2026-07-28: the view answers `input_required` with one embedded
//   elicitation/create (mode url) and the request id as requestState; the
//   client's retry (inputResponses present) gets the view as it now is.
// - 2025-11-25: the session is sent an elicitation/create request (mode url)
//   and the view answers at once, its setup_note saying where to go; the
//   page's completion sends notifications/elicitation/complete.
// - Older revisions, clients without `elicitation.url`, or no setup page:
//   the view's own setup note (`skillrt setup NAME`).
#include <string>
#include <vector>

#include "core/view/setup_request.hpp"
#include "mcp/server_state.hpp"

namespace skillrt::mcp {
namespace {

constexpr std::string_view k_first_url_revision = "2025-11-25";

bool supports_url_elicitation(const Json& capabilities) {
  if (!capabilities.is_object()) {
    return false;
  }
  const auto elicitation = capabilities.find("elicitation");
  if (elicitation == capabilities.end() || !elicitation->is_object()) {
    return false;
  }
  const auto url = elicitation->find("url");
  return url != elicitation->end() && url->is_object();
}

// The variables still missing, with their prompts and help, from the view's JSON.
std::vector<core::EnvRequirement> missing_variables(const Json& view) {
  std::vector<core::EnvRequirement> out;
  const auto missing = view.find("missing_required_environment_variables");
  const auto declared = view.find("required_environment_variables");
  if (missing == view.end() || !missing->is_array() || declared == view.end() || !declared->is_array()) {
    return out;
  }
  for (const Json& name : *missing) {
    if (!name.is_string()) {
      continue;
    }
    core::EnvRequirement variable;
    variable.name = name.get<std::string>();
    variable.prompt = "Enter value for " + variable.name;
    for (const Json& entry : *declared) {
      if (entry.is_object() && entry.value("name", std::string()) == variable.name) {
        variable.prompt = entry.value("prompt", variable.prompt);
        if (const auto help = entry.find("help"); help != entry.end() && help->is_string()) {
          variable.help = help->get<std::string>();
        }
      }
    }
    out.push_back(std::move(variable));
  }
  return out;
}

std::string message_for(const std::string& skill, const std::vector<core::EnvRequirement>& variables) {
  std::string names;
  for (const core::EnvRequirement& variable : variables) {
    names += (names.empty() ? "" : ", ") + variable.name;
  }
  return "The skill '" + skill + "' needs " + (variables.size() == 1 ? "a secret" : "secrets") + " (" + names +
         "). Open this skillrt page to enter " + (variables.size() == 1 ? "it" : "them") +
         ": the values go straight to your private .env file, never through this client.";
}

Json url_elicitation(const core::SetupRequest& request, const std::string& page, const std::string& message) {
  Json params = Json::object();
  params["mode"] = "url";
  params["elicitationId"] = request.id;
  // The id rides in the fragment: a browser never sends it in a request line
  // or a Referer header.
  params["url"] = page + "#" + request.id;
  params["message"] = message;
  return params;
}

// The view answered while the person uses the page (2025-11-25): its note
// says where to go, and the elicitation it belongs to.
MethodOutput offered_view(Json view, const std::string& skill, const std::string& id) {
  view["setup_note"] = "A setup page for " + skill +
                       " was offered through your MCP client; after the values are saved there, load the skill "
                       "again. (Or run `skillrt setup " + skill + "` in a terminal.)";
  view["setup_elicitation"] = Json{{"elicitationId", id}, {"mode", "url"}};
  const std::string text = dump_json(view);
  Json content = Json::array();
  content.push_back(Json{{"type", "text"}, {"text", text}});
  Json out = Json::object();
  out["content"] = std::move(content);
  out["structuredContent"] = std::move(view);
  out["isError"] = false;
  return MethodOutput(std::move(out));
}

}  // namespace

std::optional<MethodOutput> offer_setup(Session::Impl& session, const Json& call_params, const std::string& skill,
                                        const std::string& payload) {
  const std::string page = session.server->current_setup_url();
  if (page.empty()) {
    return std::nullopt;
  }
  bool modern = false;
  std::string version;
  Json capabilities;
  {
    std::lock_guard lock(session.mutex);
    modern = session.modern;
    version = session.protocol_version;
    capabilities = session.client_capabilities;
  }
  if (!supports_url_elicitation(capabilities) || (!modern && version < k_first_url_revision)) {
    return std::nullopt;
  }
  // The retry of an input_required answer: the view as it is now (available
  // once the page was used; else setup_needed again, never a second round).
  if (modern && call_params.contains("inputResponses")) {
    return std::nullopt;
  }
  Json view = Json::parse(payload, nullptr, false);
  if (!view.is_object() || view.value("setup_needed", false) != true) {
    return std::nullopt;
  }
  const std::vector<core::EnvRequirement> variables = missing_variables(view);
  if (variables.empty()) {
    return std::nullopt;  // only credential files are missing: no page sets those
  }
  if (!modern) {
    // Still waiting from an earlier view in this session: say so again, ask once.
    std::string earlier;
    {
      std::lock_guard lock(session.mutex);
      if (const auto found = session.offered_setups.find(skill); found != session.offered_setups.end()) {
        earlier = found->second;
      }
    }
    if (!earlier.empty() && core::find_setup_request(session.ctx, earlier)) {
      return offered_view(std::move(view), skill, earlier);
    }
  }
  auto request = core::create_setup_request(session.ctx, skill, variables);
  if (!request) {
    session.log(k_log_level_warning, "warning", "no setup page for '" + skill + "': " + request.error().message);
    return std::nullopt;
  }
  const std::string message = message_for(skill, variables);
  if (modern) {
    Json embedded = Json::object();
    embedded["method"] = "elicitation/create";
    embedded["params"] = url_elicitation(*request, page, message);
    Json result = Json::object();
    result["resultType"] = "input_required";
    result["inputRequests"] = Json{{"setup", std::move(embedded)}};
    result["requestState"] = request->id;
    return MethodOutput(std::move(result));
  }
  Json call = Json::object();
  call["jsonrpc"] = "2.0";
  call["id"] = "skillrt-setup-" + request->id.substr(0, 16);
  call["method"] = "elicitation/create";
  call["params"] = url_elicitation(*request, page, message);
  {
    std::lock_guard lock(session.mutex);
    session.offered_setups[skill] = request->id;
  }
  session.send(dump_json(call));
  return offered_view(std::move(view), skill, request->id);
}

}  // namespace skillrt::mcp
