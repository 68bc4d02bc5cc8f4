// The REST side of `skillrt serve`: requests under /api/ are handed, after the
// same Host/Origin and bearer-token checks as /mcp, to one handler the
// composition root supplies (apps/skillrt). The handler runs on a small
// worker pool, never on an I/O thread, so a slow one (a review's
// cancellation waits up to 2 s) does not stall other connections. This header
// includes no Boost.
#pragma once

#include <functional>
#include <string>

#include "mcp/server.hpp"

namespace skillrt::net {

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
};

using ApiHandler = std::function<ApiResponse(const ApiRequest& request)>;

// The JSON error body every /api/ refusal carries.
std::string api_error_body(std::string_view message);

}  // namespace skillrt::net
