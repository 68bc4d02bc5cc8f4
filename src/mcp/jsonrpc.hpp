// JSON-RPC 2.0 framing: one message text in, a classified message (or the
// error answer it deserves) out, and the builders of every answer we send.
// Pure functions with no I/O, so the fuzzer can drive them directly.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/yaml_json.hpp"

namespace skillrt::mcp {

using protocol::Json;

// The JSON-RPC 2.0 error codes we answer with (plus MCP's resource-not-found).
namespace rpc_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;
}  // namespace rpc_code

// A protocol fault, sent back as a JSON-RPC error object.
struct RpcError {
  int code = rpc_code::internal_error;
  std::string message;
  std::optional<Json> data;
};

// A well-formed request (has an id) or notification (has none).
struct RpcCall {
  Json id;  // string or integer for a request; null for a notification
  bool is_notification = false;
  std::string method;
  Json params;  // an object (empty when the message had no params), or the offending value
  bool params_are_object = true;
};

// The client answered one of our requests (we send none, so it is ignored).
struct RpcReply {};

// The message was not valid: answer `error` with `id` (null when unknown).
struct RpcInvalid {
  Json id;
  RpcError error;
};

using ParsedMessage = std::variant<RpcCall, RpcReply, RpcInvalid>;

// Parses and classifies one message text. Malformed JSON → parse error (id
// null); a batch (array) or a non-object → invalid request (id null); a wrong
// `jsonrpc`, a non-string method, a null or non-string/non-integer id →
// invalid request. Never throws.
ParsedMessage parse_message(std::string_view text);

// {"jsonrpc":"2.0","id":ID,"result":RESULT} as text.
std::string result_response(const Json& id, Json result);
// The same, with RESULT already serialized (valid JSON text, spliced in as it is).
std::string result_response_text(const Json& id, std::string_view result_text);
// {"jsonrpc":"2.0","id":ID,"error":{code,message[,data]}} as text.
std::string error_response(const Json& id, const RpcError& error);
// {"jsonrpc":"2.0","method":METHOD[,"params":PARAMS]} as text.
std::string notification_message(std::string_view method, std::optional<Json> params);

// Dumps JSON for the wire: compact, invalid UTF-8 replaced (never throws).
std::string dump_json(const Json& value);

// Appends `text` (valid UTF-8, as dump_json produces) as a JSON string literal
// with its quotes: `"`, `\\` and control characters escaped, all else copied.
void append_json_string(std::string& out, std::string_view text);

}  // namespace skillrt::mcp
