// The MCP 2026-07-28 revision's rules that differ from the 2025 ones, as
// pure functions: the per-request `_meta` envelope (the version and the
// client's capabilities travel with every request, there is no initialize),
// the SEP-2243 standard headers that must agree with the body on HTTP, the
// fields every result carries (resultType, cache hints, serverInfo) and the
// errors the revision names (-32022 unsupported version, -32020 header
// mismatch). Session (session.cpp) applies them; nothing here does I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/jsonrpc.hpp"
#include "mcp/server.hpp"

namespace skillrt::mcp::rev2026 {

inline constexpr std::string_view k_version = "2026-07-28";

// The reserved `_meta` keys of the revision.
inline constexpr const char* k_protocol_version_key = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* k_client_capabilities_key = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* k_client_info_key = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* k_log_level_key = "io.modelcontextprotocol/logLevel";
inline constexpr const char* k_server_info_key = "io.modelcontextprotocol/serverInfo";
inline constexpr const char* k_subscription_id_key = "io.modelcontextprotocol/subscriptionId";

// The revision's own error codes.
inline constexpr int k_header_mismatch = -32020;
inline constexpr int k_missing_client_capability = -32021;
inline constexpr int k_unsupported_version = -32022;

// True for a revision of this era that we speak (only 2026-07-28 today).
bool is_modern_version(std::string_view version);

// Whether a request belongs to this era: its params carry the envelope's
// version key, or it names a method only this era has (server/discover,
// subscriptions/listen), which then must carry a valid envelope.
bool claims_modern(const RpcCall& call);

// What a valid envelope says.
struct Envelope {
  std::string protocol_version;
  Json client_capabilities;  // an object
  int log_level = -1;        // -1: no log messages for this request
};

// A refusal, with the HTTP status the revision gives it.
struct Refusal {
  RpcError error;
  int http_status = 400;
};

// Reads and checks the envelope of `call` (params._meta): -32602 naming the
// missing or malformed key; -32022 (with the versions we support and the
// one asked for) when the version is not one we speak.
tl::expected<Envelope, Refusal> read_envelope(const RpcCall& call);

// The first check of an HTTP request: an MCP-Protocol-Version header that
// names another version than the envelope is -32020, before the envelope
// itself is judged (a v999 in both is -32022, from read_envelope).
std::optional<Refusal> check_version_header(const RpcCall& call, const StatelessRequest& request);

// SEP-2243: on HTTP a request must carry MCP-Protocol-Version equal to the
// envelope's version, Mcp-Method equal to the body's method, and for
// tools/call, prompts/get and resources/read an Mcp-Name equal to
// params.name / params.uri (values trimmed of surrounding whitespace; a
// `=?base64?…?=` value is decoded first). -32020 otherwise. Notifications
// need none of them.
std::optional<Refusal> check_standard_headers(const RpcCall& call, const Envelope& envelope,
                                              const StatelessRequest& request);

// The -32022 error for `requested`.
RpcError unsupported_version(std::string_view requested);

// Adds what every result of the revision carries to `result` (an object):
// resultType "complete", the serverInfo in _meta, and for the cacheable
// methods ttlMs and cacheScope.
void stamp_result(std::string_view method, Json& result, bool caller_specific);
// The same for a result already serialized (an object's text).
void stamp_result_text(std::string_view method, std::string& result, bool caller_specific);

// The revision renames resource-not-found (-32002) to invalid params.
RpcError as_modern_error(RpcError error);

// HTTP status of a refusal produced by dispatch (not by a handler): an
// unknown method is 404, every handler error stays 200.
int http_status_for_dispatch_error(const RpcError& error);

// server/discover's result.
Json discover_result(const Json& capabilities, const std::string& instructions);

// The notification filter of subscriptions/listen, as the client sent it.
struct ListenFilter {
  bool tools = false;
  bool prompts = false;
  bool resources = false;
  std::vector<std::string> resource_uris;
  Json as_sent;  // echoed in notifications/subscriptions/acknowledged
};
tl::expected<ListenFilter, RpcError> read_listen_filter(const Json& params);

// Adds _meta.subscriptionId = `id` to a notification's params.
Json tag_notification_params(std::optional<Json> params, const Json& id);

}  // namespace skillrt::mcp::rev2026
