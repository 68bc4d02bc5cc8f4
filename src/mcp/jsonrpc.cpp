#include "mcp/jsonrpc.hpp"

#include <string>
#include <utility>

#include "core/limits.hpp"

namespace skillrt::mcp {
namespace {

RpcInvalid invalid(Json id, int code, std::string message) {
  return RpcInvalid{std::move(id), RpcError{code, std::move(message), std::nullopt}};
}

// MCP narrows JSON-RPC ids to strings and integers.
bool valid_id(const Json& id) { return id.is_string() || id.is_number_integer(); }

// True when arrays/objects nest deeper than `limit` anywhere in `text`
// (brackets inside strings do not count). A linear scan, so it is safe on
// any input; malformed text is left for the parser to reject.
bool nests_deeper_than(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) {
        return true;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace

ParsedMessage parse_message(std::string_view text) {
  if (nests_deeper_than(text, limits::k_max_json_depth)) {
    return invalid(nullptr, rpc_code::invalid_request,
                   "Invalid request: JSON nested deeper than " + std::to_string(limits::k_max_json_depth) +
                       " levels");
  }
  // The non-throwing parse: `allow_exceptions = false` yields a discarded value.
  Json message = Json::parse(text, nullptr, false);
  if (message.is_discarded()) {
    return invalid(nullptr, rpc_code::parse_error, "Parse error: the message is not valid JSON");
  }
  if (message.is_array()) {
    return invalid(nullptr, rpc_code::invalid_request, "Invalid request: batches are not supported");
  }
  if (!message.is_object()) {
    return invalid(nullptr, rpc_code::invalid_request, "Invalid request: a message must be a JSON object");
  }
  const auto id_it = message.find("id");
  const bool has_id = id_it != message.end();
  // Echo the id only when it is one we could have received legitimately.
  Json echo_id = has_id && valid_id(*id_it) ? *id_it : Json(nullptr);
  const auto version = message.find("jsonrpc");
  if (version == message.end() || !version->is_string() || version->get_ref<const std::string&>() != "2.0") {
    return invalid(std::move(echo_id), rpc_code::invalid_request, "Invalid request: \"jsonrpc\" must be \"2.0\"");
  }
  const auto method = message.find("method");
  if (method == message.end()) {
    if (has_id && (message.contains("result") || message.contains("error"))) {
      return RpcReply{};
    }
    return invalid(std::move(echo_id), rpc_code::invalid_request, "Invalid request: \"method\" is missing");
  }
  if (!method->is_string()) {
    return invalid(std::move(echo_id), rpc_code::invalid_request, "Invalid request: \"method\" must be a string");
  }
  if (has_id && !valid_id(*id_it)) {
    return invalid(nullptr, rpc_code::invalid_request,
                   id_it->is_null() ? "Invalid request: \"id\" must not be null"
                                    : "Invalid request: \"id\" must be a string or an integer");
  }
  RpcCall call;
  call.is_notification = !has_id;
  call.id = std::move(echo_id);
  call.method = method->get<std::string>();
  if (const auto params = message.find("params"); params != message.end()) {
    call.params_are_object = params->is_object();
    call.params = std::move(*params);
  } else {
    call.params = Json::object();
  }
  return call;
}

std::string dump_json(const Json& value) {
  return value.dump(-1, ' ', false, nlohmann::detail::error_handler_t::replace);
}

std::string result_response(const Json& id, Json result) {
  Json out = Json::object();
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["result"] = std::move(result);
  return dump_json(out);
}

std::string result_response_text(const Json& id, std::string_view result_text) {
  std::string out = R"({"jsonrpc":"2.0","id":)";
  out += dump_json(id);
  out += R"(,"result":)";
  out += result_text;
  out += '}';
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  out.reserve(out.size() + text.size() + text.size() / 8 + 2);
  out += '"';
  std::size_t run = 0;  // start of the pending run of bytes copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte != '"' && byte != '\\') {
      continue;
    }
    out.append(text, run, i - run);
    run = i + 1;
    switch (byte) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out += k_hex[byte >> 4];
        out += k_hex[byte & 0xF];
    }
  }
  out.append(text, run, text.size() - run);
  out += '"';
}

std::string error_response(const Json& id, const RpcError& error) {
  Json body = Json::object();
  body["code"] = error.code;
  body["message"] = error.message;
  if (error.data) {
    body["data"] = *error.data;
  }
  Json out = Json::object();
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["error"] = std::move(body);
  return dump_json(out);
}

std::string notification_message(std::string_view method, std::optional<Json> params) {
  Json out = Json::object();
  out["jsonrpc"] = "2.0";
  out["method"] = std::string(method);
  if (params) {
    out["params"] = std::move(*params);
  }
  return dump_json(out);
}

}  // namespace skillrt::mcp
