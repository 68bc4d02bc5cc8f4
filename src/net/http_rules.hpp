// The per-request rules of the Streamable HTTP transport that need no socket:
// Host/Origin checks against DNS rebinding, Accept and Content-Type matching,
// bearer extraction, session ids and the JSON-RPC error bodies the transport
// itself answers with. Kept free of Boost so they compile fast and are tested
// on their own (tests/unit/net/http_rules_test.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::net {

// True for the names of the loopback interface we bind to: 127.0.0.0/8,
// "::1", "[::1]", "localhost".
bool is_loopback_host(std::string_view host);

// The host part of a Host header value ("localhost:8787" → "localhost",
// "[::1]:80" → "[::1]"), lower-cased. Empty when the value is malformed.
std::string host_of_authority(std::string_view authority);

// True when `name` (a host without port, lower-case) may appear in Host and
// Origin: a loopback name (never one an attacker's DNS controls) or one of
// `allowed_hosts` (compared case-insensitively).
bool host_name_allowed(std::string_view name, const std::vector<std::string>& allowed_hosts);

// The DNS-rebinding check: the Host header must name an allowed host, and
// the Origin header, when present, must be http(s)://<host>[:port] where
// host is allowed or the Host header's own (same origin). A non-loopback
// listener without allowed_hosts accepts any Host (the operator chose to
// expose it; tokens guard it) but still refuses cross-site Origins.
bool request_origin_allowed(std::string_view host_header, std::optional<std::string_view> origin_header,
                            bool loopback_listener, const std::vector<std::string>& allowed_hosts);

// A header value without the optional whitespace (spaces and tabs) around it
// (RFC 9110 §5.6.3).
std::string_view trim_http_whitespace(std::string_view text);

// True when an Accept header value admits `mime` ("type/subtype"): listed
// explicitly, through "type/*" or "*/*", with q > 0. A missing or empty
// header admits everything.
bool accept_allows(std::string_view accept, std::string_view mime);

// True when a Content-Type value names application/json (parameters such as
// charset allowed).
bool is_json_content_type(std::string_view content_type);

// True when a comma-separated header value (Connection, Upgrade) lists
// `token`, compared case-insensitively ("keep-alive, Upgrade" lists "upgrade").
bool header_lists_token(std::string_view value, std::string_view token);

// The token of "Bearer <token>" (scheme case-insensitive); nullopt for any
// other scheme or an empty token.
std::optional<std::string> bearer_token(std::string_view authorization);

// 32 lower-case hex digits from the kernel's CSPRNG (getrandom); nullopt only
// when the kernel refuses, which the caller reports as 500.
std::optional<std::string> new_session_id();

// True when `body` is one JSON-RPC request object whose method is
// "initialize" (what may arrive without Mcp-Session-Id).
bool is_initialize_request(std::string_view body);

// A JSON-RPC error response with id null, the body of the transport's own
// 4xx/5xx answers.
std::string jsonrpc_error_body(int code, std::string_view message);

// One Server-Sent Events frame carrying a JSON-RPC message: "id: ID" when
// `id` is not empty, "event: message", one "data:" line per line of
// `message`, then the blank line.
std::string sse_event(std::string_view message, std::string_view id = {});

// True when `version` is one the MCP layer speaks (MCP-Protocol-Version header).
bool protocol_version_supported(std::string_view version);

}  // namespace skillrt::net
