#include "api/http_exchange.hpp"

#include "core/util/strict_json.hpp"

namespace skillrt::api {

std::string api_error_body(std::string_view message) {
  return R"({"success":false,"error":)" + core::json_quoted(message) + "}";
}

}  // namespace skillrt::api
