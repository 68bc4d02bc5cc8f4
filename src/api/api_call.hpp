// What every REST route handler gets and gives: the request with its caller's
// context, decoded path parameters and query; answers as JSON with a status.
// Every failure body is {"success": false, "error": ...}; a core Error also
// carries `code` (protocol/error_json.hpp) and maps to the fitting status.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "api/http_exchange.hpp"
#include "api/query.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"
#include "skillrt/try.hpp"

namespace skillrt::api {

using protocol::Json;

struct ApiCall {
  const ApiRequest& request;
  core::Context ctx;                          // the server's base with the caller's identity
  std::map<std::string, std::string> params;  // {name} segments of the route, decoded
  Query query;

  const std::string& param(const std::string& name) const { return params.at(name); }
};

// 400 invalid_argument and parse_error, 404 not_found, 409 ambiguous,
// 403 refused, 413 limit_exceeded, 500 io_error and internal.
unsigned http_status_of(ErrorCode code);

ApiResponse json_answer(unsigned status, const Json& body);
ApiResponse error_answer(unsigned status, std::string_view message);
// {success: false, error, code} with http_status_of(error.code).
ApiResponse error_answer(const Error& error);
// skill_manage's answer: `success_status` when it succeeded; else 409 when
// the guard asks for confirmation (send again with "confirm": true), or the
// status of its error code.
ApiResponse manage_answer(const core::ManageResult& result, unsigned success_status);

// The request body as a JSON object (strict: no duplicate names, bounded
// depth, UTF-8); an empty body is an empty object.
Result<Json> body_object(const ApiRequest& request);

// An optional string / boolean member of a body object: nullopt / false when
// absent or null; an error naming the member when it has another type.
Result<std::optional<std::string>> body_string(const Json& body, const char* key);
Result<bool> body_flag(const Json& body, const char* key);

// Refuses anonymous callers of a route that needs a user (403).
std::optional<ApiResponse> require_user(const ApiCall& call, std::string_view what);

}  // namespace skillrt::api
