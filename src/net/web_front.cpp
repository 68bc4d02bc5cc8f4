#include "net/web_front.hpp"

#include "api/api_call.hpp"
#include "net/session_registry.hpp"
#include "web/web_assets.hpp"

namespace skillrt::net {
namespace {

constexpr std::size_t k_max_token_bytes = 4096;

void add_page_headers(api::ApiResponse& answer) {
  answer.headers.emplace_back("Content-Security-Policy", std::string(web::k_web_csp));
  answer.headers.emplace_back("X-Content-Type-Options", "nosniff");
  answer.headers.emplace_back("Referrer-Policy", "no-referrer");
  answer.headers.emplace_back("X-Frame-Options", "DENY");
  answer.headers.emplace_back("Cross-Origin-Opener-Policy", "same-origin");
  answer.headers.emplace_back("Cross-Origin-Resource-Policy", "same-origin");
}

using api::error_answer;
using api::json_answer;
using api::Json;

std::string session_cookie(std::string_view value, bool secure, long max_age_s) {
  std::string cookie = std::string(k_session_cookie) + "=" + std::string(value) +
                       "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(max_age_s);
  if (secure) {
    cookie += "; Secure";
  }
  return cookie;
}

Json signed_in_body(const mcp::Caller& caller, std::string_view csrf) {
  Json body = Json::object();
  body["success"] = true;
  body["user_id"] = caller.user_id ? Json(*caller.user_id) : Json(nullptr);
  body["org_id"] = caller.org_id;
  body["csrf_token"] = csrf;
  return body;
}

// The live session a Cookie header names, still backed by a valid token.
std::optional<std::pair<std::string, WebSession>> live_session(WebSessions& sessions,
                                                               const Authenticator& authenticate,
                                                               std::optional<std::string_view> cookie_header) {
  if (!cookie_header) {
    return std::nullopt;
  }
  const std::optional<std::string_view> id = cookie_value(*cookie_header, k_session_cookie);
  if (!id || id->empty()) {
    return std::nullopt;
  }
  std::optional<WebSession> session = sessions.find(*id);
  if (!session || !authenticate) {
    return std::nullopt;
  }
  const Result<mcp::Caller> now = authenticate(session->bearer);
  if (!now && !token_refused(now.error())) {
    // The database cannot say now: the session's token was valid when it
    // signed in, and a revocation applies again once the database answers.
    return std::pair{std::string(*id), std::move(*session)};
  }
  if (!now || !same_caller(*now, session->caller)) {
    sessions.close(*id);  // the token was revoked: the session ends with it
    return std::nullopt;
  }
  return std::pair{std::string(*id), std::move(*session)};
}

api::ApiResponse sign_in(WebSessions& sessions, const Authenticator& authenticate, const SessionExchange& exchange) {
  // Read as strictly as every REST body (api_call.hpp).
  api::ApiRequest request;
  request.body = std::string(exchange.body);
  const auto body = api::body_object(request);
  if (!body) {
    return error_answer(400, "Bad Request: sign in with a JSON object {\"token\": \"...\"}: " + body.error().message);
  }
  const auto token = api::body_string(*body, "token");
  if (!token || !*token || (*token)->empty()) {
    return error_answer(400, "Bad Request: \"token\" must be a non-empty string (an API token from `skillrt token create`)");
  }
  const std::string& bearer = **token;
  if (bearer.size() > k_max_token_bytes) {
    return error_answer(400, "Bad Request: \"token\" is too long to be an API token");
  }
  const Result<mcp::Caller> caller =
      authenticate ? authenticate(bearer) : Result<mcp::Caller>(tl::unexpected(Error{ErrorCode::refused, ""}));
  if (!caller && !token_refused(caller.error())) {
    return error_answer(503, "Service Unavailable: the token cannot be checked right now (the database is "
                             "unreachable); try again");
  }
  if (!caller || caller->anonymous) {
    return error_answer(401, "Unauthorized: that token is not valid (revoked, expired or mistyped)");
  }
  // A cookie from before is ended, so a session id planted earlier never
  // becomes a signed-in one.
  if (exchange.cookie) {
    if (const auto old = cookie_value(*exchange.cookie, k_session_cookie)) {
      sessions.close(*old);
    }
  }
  const std::optional<OpenedWebSession> opened = sessions.open(bearer, *caller);
  if (!opened) {
    return error_answer(500, "the server could not draw a random session id");
  }
  api::ApiResponse answer = json_answer(200, signed_in_body(*caller, opened->csrf));
  answer.headers.emplace_back("Set-Cookie", session_cookie(opened->id, exchange.secure, sessions.idle().count()));
  return answer;
}

}  // namespace

api::ApiResponse web_asset_answer(std::string_view path, std::optional<std::string_view> if_none_match,
                                  const std::optional<std::filesystem::path>& web_root) {
  const std::optional<std::string> name = web::web_asset_name(path);
  auto asset = name ? web::load_web_asset(*name, web_root) : fail(ErrorCode::not_found, "Not Found");
  api::ApiResponse answer;
  add_page_headers(answer);
  if (!asset) {
    answer.status = 404;
    answer.content_type = "text/plain; charset=utf-8";
    answer.body = "Not Found\n";
    return answer;
  }
  answer.headers.emplace_back("ETag", asset->etag);
  // Revalidated on every load, so a new binary's UI is picked up at once;
  // an unchanged file costs a 304 and no body.
  answer.headers.emplace_back("Cache-Control", "no-cache");
  if (if_none_match && *if_none_match == asset->etag) {
    answer.status = 304;
    answer.content_type.clear();
    return answer;
  }
  answer.status = 200;
  answer.content_type = std::move(asset->content_type);
  answer.body = std::move(asset->body);
  return answer;
}

api::ApiResponse session_answer(WebSessions& sessions, const Authenticator& authenticate,
                                const SessionExchange& exchange) {
  if (exchange.method == "POST") {
    return sign_in(sessions, authenticate, exchange);
  }
  if (exchange.method == "GET") {
    const auto live = live_session(sessions, authenticate, exchange.cookie);
    if (!live) {
      return error_answer(401, "Unauthorized: not signed in");
    }
    return json_answer(200, signed_in_body(live->second.caller, live->second.csrf));
  }
  if (exchange.method == "DELETE") {
    api::ApiResponse answer = json_answer(200, Json{{"success", true}});
    if (exchange.cookie) {
      if (const auto id = cookie_value(*exchange.cookie, k_session_cookie); id && !id->empty()) {
        if (const std::optional<WebSession> session = sessions.find(*id)) {
          if (!exchange.csrf || !secrets_equal(*exchange.csrf, session->csrf)) {
            return error_answer(403, "Forbidden: signing out needs the session's X-CSRF-Token header");
          }
          sessions.close(*id);
        }
      }
    }
    answer.headers.emplace_back("Set-Cookie", session_cookie("", exchange.secure, 0));
    return answer;
  }
  api::ApiResponse answer = error_answer(405, "Method Not Allowed");
  answer.headers.emplace_back("Allow", "GET, POST, DELETE");
  return answer;
}

CookieCaller authenticate_cookie(WebSessions& sessions, const Authenticator& authenticate,
                                 std::optional<std::string_view> cookie_header, bool write,
                                 std::optional<std::string_view> csrf_header, bool has_origin) {
  CookieCaller out;
  auto live = live_session(sessions, authenticate, cookie_header);
  if (!live) {
    return out;
  }
  if (write && (!has_origin || !csrf_header || !secrets_equal(*csrf_header, live->second.csrf))) {
    out.check = CookieCheck::no_csrf;
    return out;
  }
  out.check = CookieCheck::accepted;
  out.caller = live->second.caller;
  out.bearer = std::move(live->second.bearer);
  out.session_id = std::move(live->first);
  return out;
}

}  // namespace skillrt::net
