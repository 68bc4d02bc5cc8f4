// The rules of the OpenAI-compatible proxy (openai_proxy.hpp) that need no
// socket: the upstream URL, where a request goes, which headers cross in
// each direction, and the upstream's keep-alive hint. Kept free of Boost so
// they are tested on their own (tests/unit/net/proxy_rules_test.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::net {

struct UpstreamUrl {
  std::string host;       // a name or an address; an IPv6 address without brackets
  std::uint16_t port = 80;
  std::string base_path;  // "" or e.g. "/v1", without a trailing slash
  std::string authority;  // the Host header: "127.0.0.1:9000", "[::1]:9000", "example.org" (port 80)
};

// "http://HOST[:PORT][/PATH]". Errors (invalid_argument, saying why): another
// scheme (https included: the relay speaks plain HTTP only), user info, a
// query or fragment, an empty host, a bad port.
Result<UpstreamUrl> parse_upstream_url(std::string_view url);

// The upstream request-target for a caller's target under /v1/
// ("/v1/chat/completions?x" → base_path + "/chat/completions?x").
std::string upstream_target(const UpstreamUrl& upstream, std::string_view client_target);

// Whether a caller's request header is passed upstream. Not: hop-by-hop
// headers, Host, the framing (recomputed), the caller's credentials
// (Authorization, Cookie, Api-Key), what would pick another account at the
// upstream (OpenAI-Organization, OpenAI-Project), Expect (answered here),
// Accept-Encoding (the observer reads the body, so it must come uncompressed)
// and our own X-Skillrt-* headers.
bool forwarded_request_header(std::string_view name);

// Whether an upstream response header is passed back to the caller. Not:
// hop-by-hop headers, the framing (set by the relay), and what is about the
// upstream's host or our credentials rather than the answer (Set-Cookie,
// WWW-Authenticate, Alt-Svc).
bool relayed_response_header(std::string_view name);

// How long an idle connection to the upstream may be reused, from its
// Keep-Alive header ("timeout=5, max=100"): a second less than the server's
// own timeout (at least half a second), so we never write into a connection
// it is closing; `fallback` when the header gives none.
std::chrono::milliseconds keep_alive_reuse_window(std::optional<std::string_view> keep_alive,
                                                  std::chrono::milliseconds fallback);

// True when a Content-Type value is text/event-stream (parameters allowed).
bool is_event_stream(std::string_view content_type);

// Appends one HTTP/1.1 chunk carrying `payload` (hex size, CRLF, payload,
// CRLF) to `out`; nothing for an empty payload (an empty chunk ends a body).
void append_http_chunk(std::string& out, std::string_view payload);

}  // namespace skillrt::net
