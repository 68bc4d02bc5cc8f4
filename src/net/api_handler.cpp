#include "net/api_handler.hpp"

#include "core/util/strict_json.hpp"

namespace skillrt::net {

std::string api_error_body(std::string_view message) {
  return R"({"success":false,"error":)" + core::json_quoted(message) + "}";
}

}  // namespace skillrt::net
