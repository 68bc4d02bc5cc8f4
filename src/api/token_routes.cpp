// /api/v1/tokens: API tokens, for the owner organisation only (org "0", the
// one that writes the shared layer): list (?user=U), create ({user_id,
// org_id, label}: the bearer is in the answer once and never again), revoke.
// Everyone else gets 403: a token must not mint or see others' tokens.
#include "api/routes.hpp"
#include "core/tenancy/user_id.hpp"
#include "protocol/token_json.hpp"

namespace skillrt::api {
namespace {

std::optional<ApiResponse> require_owner(const ApiCall& call) {
  if (call.ctx.anonymous || !call.ctx.user_id || call.ctx.org_id != core::k_owner_org_id) {
    return error_answer(403, "API tokens are managed by the owner organisation (org " +
                                 std::string(core::k_owner_org_id) + ") only");
  }
  return std::nullopt;
}

ApiResponse list(const RestApiServices& services, ApiCall& call) {
  if (auto refused = require_owner(call)) {
    return *refused;
  }
  auto tokens = services.open_tokens();
  if (!tokens) {
    return error_answer(tokens.error());
  }
  const std::optional<std::string> user = call.query.get("user");
  auto rows = (*tokens)->list_tokens(user ? std::optional<std::string_view>(*user) : std::nullopt);
  if (!rows) {
    return error_answer(rows.error());
  }
  Json items = Json::array();
  for (const core::ApiToken& token : *rows) {
    items.push_back(protocol::token_json(token));
  }
  Json out = Json::object();
  out["success"] = true;
  out["count"] = rows->size();
  out["tokens"] = std::move(items);
  return json_answer(200, out);
}

ApiResponse create(const RestApiServices& services, ApiCall& call) {
  if (auto refused = require_owner(call)) {
    return *refused;
  }
  auto body = body_object(call.request);
  auto user = body ? body_string(*body, "user_id") : Result<std::optional<std::string>>(tl::unexpected(body.error()));
  auto org = user ? body_string(*body, "org_id") : user;
  auto label = org ? body_string(*body, "label") : org;
  if (!label) {
    return error_answer(label.error());
  }
  if (!*user || !*org) {
    return error_answer(400, "a token needs 'user_id' and 'org_id' (whom it speaks for)");
  }
  auto tokens = services.open_tokens();
  if (!tokens) {
    return error_answer(tokens.error());
  }
  auto issued = (*tokens)->create_token(**user, **org, label->value_or(""));
  if (!issued) {
    return error_answer(issued.error());
  }
  Json out = Json::object();
  out["success"] = true;
  out["token"] = protocol::created_token_json(issued->token);
  out["bearer"] = issued->bearer;
  return json_answer(201, out);
}

ApiResponse revoke(const RestApiServices& services, ApiCall& call) {
  if (auto refused = require_owner(call)) {
    return *refused;
  }
  auto tokens = services.open_tokens();
  if (!tokens) {
    return error_answer(tokens.error());
  }
  auto revoked = (*tokens)->revoke_token(call.param("id"));
  if (!revoked) {
    return error_answer(revoked.error());
  }
  Json out = Json::object();
  out["success"] = true;
  out["token"] = protocol::token_json(*revoked);
  return json_answer(200, out);
}

}  // namespace

void add_token_routes(Router& router, const RestApiServices& services) {
  if (!services.open_tokens) {
    return;
  }
  router.add("GET", "/api/v1/tokens", [&services](ApiCall& call) { return list(services, call); });
  router.add("POST", "/api/v1/tokens", [&services](ApiCall& call) { return create(services, call); });
  router.add("DELETE", "/api/v1/tokens/{id}", [&services](ApiCall& call) { return revoke(services, call); });
}

}  // namespace skillrt::api
