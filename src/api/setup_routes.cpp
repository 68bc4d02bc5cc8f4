// The setup page's two calls (issue 18 item 3; core/view/setup_request.hpp):
//   GET  /api/v1/setup/{id}  what the request asks for: the skill and each
//                            variable's name, prompt and help link;
//   POST /api/v1/setup/{id}  {"values": {"NAME": "value", ...}} stores them
//                            in the user's own .env and ends the request.
// The id is the key: these calls need no token (the person who opens the
// link from their MCP client need not be signed in here), and a request is
// used once and expires. No answer, log line or event ever holds a value.
#include <algorithm>
#include <ctime>

#include "api/routes.hpp"
#include "core/view/setup_request.hpp"

namespace skillrt::api {
namespace {

std::string iso_ms(std::chrono::system_clock::time_point at) {
  const auto seconds = std::chrono::system_clock::to_time_t(at);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

ApiResponse describe(ApiCall& call) {
  auto request = core::find_setup_request(call.ctx, call.param("id"));
  if (!request) {
    return error_answer(request.error());
  }
  Json variables = Json::array();
  for (const core::EnvRequirement& variable : request->variables) {
    Json item = Json::object();
    item["name"] = variable.name;
    item["prompt"] = variable.prompt;
    item["help"] = variable.help ? Json(*variable.help) : Json(nullptr);
    variables.push_back(std::move(item));
  }
  Json out = Json::object();
  out["success"] = true;
  out["skill"] = request->skill;
  out["variables"] = std::move(variables);
  out["expires_at"] = iso_ms(request->expires_at);
  return json_answer(200, out);
}

ApiResponse submit(const RestApiServices& services, ApiCall& call) {
  auto body = body_object(call.request);
  if (!body) {
    return error_answer(body.error());
  }
  const auto values = body->find("values");
  if (values == body->end() || !values->is_object()) {
    return error_answer(400, "the body must be {\"values\": {\"NAME\": \"value\", ...}}");
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (auto it = values->begin(); it != values->end(); ++it) {
    if (!it.value().is_string()) {
      return error_answer(400, "the value of " + it.key() + " must be a string");
    }
    const std::string& value = it.value().get_ref<const std::string&>();
    if (!value.empty()) {  // a field left empty is not set
      pairs.emplace_back(it.key(), value);
    }
  }
  auto outcome = core::complete_setup_request(call.ctx, call.param("id"), pairs);
  if (!outcome) {
    return error_answer(outcome.error());
  }
  services.skills->setup_completed(outcome->request.user_id, outcome->request.id);
  Json stored = Json::array();
  for (const std::string& name : outcome->stored) {
    stored.push_back(name);
  }
  Json out = Json::object();
  out["success"] = true;
  out["skill"] = outcome->request.skill;
  out["stored"] = std::move(stored);
  std::string still_missing;
  for (const core::EnvRequirement& variable : outcome->request.variables) {
    if (std::find(outcome->stored.begin(), outcome->stored.end(), variable.name) == outcome->stored.end()) {
      still_missing += (still_missing.empty() ? "" : ", ") + variable.name;
    }
  }
  out["message"] = still_missing.empty()
                       ? "Saved. Go back to your agent: the skill '" + outcome->request.skill + "' can be used now."
                       : "Saved. " + still_missing + " is still missing: your agent will ask for it when it loads '" +
                             outcome->request.skill + "' again.";
  return json_answer(200, out);
}

}  // namespace

void add_setup_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/setup/{id}", [](ApiCall& call) { return describe(call); });
  router.add("POST", "/api/v1/setup/{id}", [&services](ApiCall& call) { return submit(services, call); });
}

}  // namespace skillrt::api
