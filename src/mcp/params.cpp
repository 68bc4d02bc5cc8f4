// Reading method params: typed lookups whose errors name the field, and the
// opaque pagination cursor of the list methods.
#include <charconv>

#include "mcp/server_state.hpp"

namespace skillrt::mcp {

RpcError invalid_params(std::string message) {
  return RpcError{rpc_code::invalid_params, std::move(message), std::nullopt};
}

tl::expected<std::optional<std::string>, RpcError> string_param(const Json& params, const char* key, bool required) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) {
    if (required) {
      return tl::unexpected(invalid_params(std::string("Invalid params: \"") + key + "\" is required"));
    }
    return std::optional<std::string>();
  }
  if (!found->is_string()) {
    return tl::unexpected(invalid_params(std::string("Invalid params: \"") + key + "\" must be a string"));
  }
  return std::optional<std::string>(found->get<std::string>());
}

// The cursor is the decimal offset of the next item; clients treat it as
// opaque, and a snapshot that changed in between only shifts the page.
tl::expected<std::size_t, RpcError> cursor_offset(const Json& params) {
  auto cursor = string_param(params, "cursor", false);
  if (!cursor) {
    return tl::unexpected(cursor.error());
  }
  if (!*cursor || (*cursor)->empty()) {
    return std::size_t{0};
  }
  const std::string& text = **cursor;
  std::size_t offset = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), offset);
  if (error != std::errc() || end != text.data() + text.size()) {
    return tl::unexpected(invalid_params("Invalid params: \"cursor\" is not a cursor this server issued"));
  }
  return offset;
}

std::string make_cursor(std::size_t offset) { return std::to_string(offset); }

}  // namespace skillrt::mcp
