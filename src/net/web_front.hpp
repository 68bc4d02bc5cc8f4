// The web UI's door on the HTTP server: its files (`/`, `/ui/<file>`), the
// sign-in resource `/api/v1/session` that trades an API token for a session
// cookie, and the cookie check that /api/ and /api/v1/events apply when a
// request has no Authorization header. Answers are api::ApiResponse values
// (status, type, body, headers); mcp_http_server.cpp puts them on the wire.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "api/http_exchange.hpp"
#include "net/mcp_http_server.hpp"
#include "net/web_sessions.hpp"

namespace skillrt::net {

// GET of a UI file: 200 with the page's security headers (CSP without
// inline script or style, nosniff, no referrer, no framing) and an ETag,
// 304 when If-None-Match already names it, 404 for a name that is not there.
api::ApiResponse web_asset_answer(std::string_view path, std::optional<std::string_view> if_none_match,
                                  const std::optional<std::filesystem::path>& web_root);

struct SessionExchange {
  std::string_view method;                       // GET, POST or DELETE
  std::string_view body;                         // POST: {"token": "..."}
  std::optional<std::string_view> cookie;        // the Cookie header
  std::optional<std::string_view> csrf;          // the X-CSRF-Token header
  bool secure = false;                           // the page came over https: the cookie gets Secure
};

// /api/v1/session: POST signs in (200 with the user and the CSRF token, and
// Set-Cookie; 401 for a token that is not valid), GET says who is signed in
// (401 when nobody), DELETE signs out (the CSRF token required).
api::ApiResponse session_answer(WebSessions& sessions, const Authenticator& authenticate,
                                const SessionExchange& exchange);

enum class CookieCheck : unsigned char {
  absent,    // no session cookie, or one naming no live session: not signed in
  accepted,  // a live session whose token still authenticates
  no_csrf,   // a write without the session's X-CSRF-Token, or without an Origin header
};

struct CookieCaller {
  CookieCheck check = CookieCheck::absent;
  std::optional<mcp::Caller> caller;
  std::string bearer;      // the session's token (an event socket re-checks it)
  std::string session_id;  // the cookie's value (an event socket re-checks it)
};

// The caller a request's session cookie names. A write (any method but GET)
// must also carry the session's CSRF token and an Origin header (which the
// transport has already checked to be this site).
CookieCaller authenticate_cookie(WebSessions& sessions, const Authenticator& authenticate,
                                 std::optional<std::string_view> cookie_header, bool write,
                                 std::optional<std::string_view> csrf_header, bool has_origin);

}  // namespace skillrt::net
