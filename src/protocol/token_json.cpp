#include "protocol/token_json.hpp"

namespace skillrt::protocol {
namespace {

Json optional_json(const std::optional<std::string>& value) { return value ? Json(*value) : Json(nullptr); }

}  // namespace

Json created_token_json(const core::ApiToken& token) {
  Json out = Json::object();
  out["id"] = token.id;
  out["user_id"] = token.user_id;
  out["org_id"] = token.org_id;
  out["label"] = token.label;
  out["created_at"] = token.created_at;
  return out;
}

Json token_json(const core::ApiToken& token) {
  Json out = created_token_json(token);
  out["last_used_at"] = optional_json(token.last_used_at);
  out["revoked_at"] = optional_json(token.revoked_at);
  return out;
}

}  // namespace skillrt::protocol
