// JSON of API tokens (`skillrt --json token …`, /api/v1/tokens). The secret
// never appears here: it is `bearer`, beside the token, once at creation.
#pragma once

#include "core/store/token_store.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {id, user_id, org_id, label, created_at}: what `token create` reports.
Json created_token_json(const core::ApiToken& token);
// created_token_json plus {last_used_at, revoked_at} (null when never).
Json token_json(const core::ApiToken& token);

}  // namespace skillrt::protocol
