#include "api/api_call.hpp"

#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "protocol/error_json.hpp"
#include "protocol/manage_json.hpp"

namespace skillrt::api {

unsigned http_status_of(ErrorCode code) {
  switch (code) {
  case ErrorCode::invalid_argument:
  case ErrorCode::parse_error:
    return 400;
  case ErrorCode::not_found:
    return 404;
  case ErrorCode::ambiguous:
    return 409;
  case ErrorCode::refused:
    return 403;
  case ErrorCode::limit_exceeded:
    return 413;
  case ErrorCode::busy:
    return 503;
  case ErrorCode::io_error:
  case ErrorCode::internal:
    return 500;
  }
  return 500;
}

ApiResponse json_answer(unsigned status, const Json& body) {
  return {status, body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json", {}};
}

ApiResponse error_answer(unsigned status, std::string_view message) {
  return {status, api_error_body(message), "application/json", {}};
}

ApiResponse error_answer(const Error& error) {
  ApiResponse answer = json_answer(http_status_of(error.code), protocol::error_result_json(error));
  if (error.code == ErrorCode::busy) {
    answer.headers.emplace_back("Retry-After", "1");  // the connections free up within a request's time
  }
  return answer;
}

ApiResponse manage_answer(const core::ManageResult& result, unsigned success_status) {
  const Json body = protocol::manage_result_json(result);
  if (result.success) {
    return json_answer(success_status, body);
  }
  return json_answer(result.confirmation_required ? 409 : http_status_of(result.code), body);
}

Result<Json> body_object(const ApiRequest& request) {
  if (request.body.empty()) {
    return Json::object();
  }
  if (request.body.size() > limits::k_api_max_body_bytes) {
    return fail(ErrorCode::limit_exceeded, "the request body is larger than " +
                                               std::to_string(limits::k_api_max_body_bytes) + " bytes");
  }
  if (auto strict = core::check_strict_json(request.body, limits::k_max_json_depth); !strict) {
    return fail(ErrorCode::parse_error, "the request body is not valid JSON: " + strict.error().message);
  }
  Json parsed = Json::parse(request.body, nullptr, false);
  if (!parsed.is_object()) {
    return fail(ErrorCode::invalid_argument, "the request body must be a JSON object");
  }
  return parsed;
}

Result<std::optional<std::string>> body_string(const Json& body, const char* key) {
  const auto found = body.find(key);
  if (found == body.end() || found->is_null()) {
    return std::optional<std::string>{};
  }
  if (!found->is_string()) {
    return fail(ErrorCode::invalid_argument, std::string("'") + key + "' must be a string");
  }
  return std::optional<std::string>(found->get<std::string>());
}

Result<bool> body_flag(const Json& body, const char* key) {
  const auto found = body.find(key);
  if (found == body.end() || found->is_null()) {
    return false;
  }
  if (!found->is_boolean()) {
    return fail(ErrorCode::invalid_argument, std::string("'") + key + "' must be true or false");
  }
  return found->get<bool>();
}

std::optional<ApiResponse> require_user(const ApiCall& call, std::string_view what) {
  if (call.ctx.anonymous || !call.ctx.user_id) {
    return error_answer(403, std::string(what) + " needs a user: connect with a token that speaks for one");
  }
  return std::nullopt;
}

}  // namespace skillrt::api
