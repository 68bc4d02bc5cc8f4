// A pending request to set up a skill's secrets out of band (issue 18 item
// 3, MCP's URL-mode elicitation): an MCP client is sent to a page of
// `skillrt serve` where the person types the missing variables, so the
// values never pass through the client or the model (the MCP spec forbids
// asking for secrets with form-mode elicitation).
//
// A request is a file HOME/setup-requests/<id>.json (folder 0700, file 0600)
// naming the user, the skill and the variables it may set, never a value.
// The id is 32 random bytes in hex: it is the only key to the page, it is
// used once, and it expires after limits::k_setup_request_ttl_s.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "core/view/readiness.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct SetupRequest {
  std::string id;
  std::optional<std::string> user_id;  // whose .env the values go to (none: HOME/.env)
  std::string org_id;
  std::string skill;                   // the name the skill was viewed by
  std::vector<EnvRequirement> variables;  // what the page may set (name, prompt, help)
  std::chrono::system_clock::time_point expires_at;
};

// Records a request for ctx's user to set `variables` of `skill`. Expired
// requests are removed first; at most limits::k_max_setup_requests wait at
// once (refused past that).
Result<SetupRequest> create_setup_request(const Context& ctx, const std::string& skill,
                                          std::vector<EnvRequirement> variables);

// The waiting request `id` of ctx's home. not_found for an id that is
// malformed, unknown, used or expired (one message for all: the page must
// not tell them apart).
Result<SetupRequest> find_setup_request(const Context& ctx, std::string_view id);

struct SetupOutcome {
  SetupRequest request;
  std::vector<std::string> stored;  // the names written
  std::filesystem::path file;       // the .env written
};

// Stores `values` for request `id` through the same writer as `skillrt
// setup` (the user's own HOME/users/<uid>/.env, else HOME/.env; atomic,
// 0600), then removes the request: a link works once. Refused, naming only
// variables: a name the request did not ask for, an empty set, a value that
// cannot be stored. Errors never hold a value. `ctx` gives the home and the
// environment; the user is the request's.
Result<SetupOutcome> complete_setup_request(const Context& ctx, std::string_view id,
                                            const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace skillrt::core
