// Sign-in sessions of the web UI. A browser cannot keep a bearer token safe
// (script can read anything script stores), so the UI trades the token once
// for a session cookie that script cannot read (HttpOnly) and that no other
// site's page can make the browser send (SameSite=Strict). This table maps
// the cookie to the token it was opened with; every request still goes
// through the token check, so revoking the token ends the session too.
//
// Each session also has a CSRF token, given to the page at sign-in and
// required in X-CSRF-Token on every write: a third wall after SameSite and
// the Origin check. Held in memory only: a restart signs everyone out.
// Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/server.hpp"

namespace skillrt::net {

inline constexpr std::string_view k_session_cookie = "skillrt_session";
inline constexpr std::string_view k_csrf_header = "X-CSRF-Token";

struct WebSession {
  std::string bearer;  // the API token it was opened with
  std::string csrf;    // what X-CSRF-Token must carry
  mcp::Caller caller;  // who signed in
};

struct OpenedWebSession {
  std::string id;  // the cookie's value
  std::string csrf;
};

class WebSessions {
 public:
  using Clock = std::chrono::steady_clock;
  // A session unused for `idle`, or older than `lifetime`, is gone; past
  // `max_sessions` the least recently used one is dropped.
  WebSessions(std::chrono::seconds idle, std::chrono::seconds lifetime, std::size_t max_sessions);

  // nullopt only when the kernel's random source fails.
  std::optional<OpenedWebSession> open(std::string bearer, mcp::Caller caller);
  // The live session the cookie value names (its use is recorded), or nullopt.
  std::optional<WebSession> find(std::string_view id);
  void close(std::string_view id);
  std::size_t size() const;

  std::chrono::seconds idle() const { return m_idle; }

 private:
  struct Entry {
    WebSession session;
    Clock::time_point created;
    Clock::time_point last_used;
  };
  const std::chrono::seconds m_idle;
  const std::chrono::seconds m_lifetime;
  const std::size_t m_max_sessions;
  mutable std::mutex m_mutex;
  // Keyed by the SHA-256 of the cookie value: a lookup's timing can only tell
  // an attacker about digests, never about a live cookie's bytes.
  std::map<std::string, Entry, std::less<>> m_sessions;
};

// True when two secrets are equal, in time that depends only on their lengths.
bool secrets_equal(std::string_view a, std::string_view b);

// The value of cookie `name` in a Cookie header ("a=1; skillrt_session=…"), or nullopt.
std::optional<std::string_view> cookie_value(std::string_view cookie_header, std::string_view name);

}  // namespace skillrt::net
