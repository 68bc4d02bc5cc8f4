// One REST exchange, as the HTTP transport (src/net) hands it over: requests
// under /api/ reach an ApiHandler after the same Host/Origin and bearer-token
// checks as /mcp. The transport runs the handler on a small worker pool, never
// on an I/O thread, so a slow one (a review's cancellation waits up to 2 s)
// does not stall other connections. No transport types here.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/server.hpp"

namespace skillrt::api {

struct ApiRequest {
  std::string method;  // "GET", "POST", "PUT", "PATCH", "DELETE"
  std::string target;  // path and query, e.g. "/api/v1/turns"
  std::string body;
  mcp::Caller caller;  // who sent it (bearer token → user; anonymous when allowed)
};

struct ApiResponse {
  unsigned status = 200;
  std::string body;  // JSON: {"success": ...} bodies, errors {"success": false, "error": ...}
  std::string content_type = "application/json";
  // Further response headers (Allow on a 405, ...); the transport adds its own
  // (Cache-Control: no-store, the security headers) after these.
  std::vector<std::pair<std::string, std::string>> headers;
};

using ApiHandler = std::function<ApiResponse(const ApiRequest& request)>;

// The JSON error body every /api/ refusal carries.
std::string api_error_body(std::string_view message);

}  // namespace skillrt::api
