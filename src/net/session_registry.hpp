// The HTTP sessions of one McpHttpServer: Mcp-Session-Id → the mcp::Session,
// the caller that created it, its event streams and when it was last used.
// A session answers only to the caller that created it: the same id with
// another identity is "unknown" (404), so one user can never drive another's
// session even with a leaked id. Boost-free; thread-safe (a reader-writer lock
// held only for the map operations, never across Session::handle).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcp/server.hpp"
#include "net/event_hub.hpp"

namespace skillrt::net {

struct HttpSession {
  std::string id;
  std::shared_ptr<mcp::Session> session;
  mcp::Caller caller;
  std::shared_ptr<EventHub> hub;
  std::atomic<std::int64_t> last_used_ms{0};  // steady clock; see SessionRegistry::now_ms
  // The shared session store (replicas): the state version saved last and
  // when the row was last marked used.
  std::atomic<std::uint64_t> saved_version{0};
  std::atomic<std::int64_t> saved_ms{0};
};

// True when both name the same user in the same org (anonymous = no user, "" org).
bool same_caller(const mcp::Caller& a, const mcp::Caller& b);

class SessionRegistry {
 public:
  // `max_per_caller`: how many sessions one caller (user + org; anonymous is
  // one caller) may hold; 0 = no per-caller limit.
  explicit SessionRegistry(std::size_t max_sessions, std::size_t max_per_caller = 0)
      : m_max_sessions(max_sessions), m_max_per_caller(max_per_caller) {}

  // Milliseconds on the steady clock, the unit of last_used_ms.
  static std::int64_t now_ms();

  // The session named `id` if `caller` created it (and marks it used); null otherwise.
  std::shared_ptr<HttpSession> find(std::string_view id, const mcp::Caller& caller);
  // Registers a new session; false when max_sessions are open or the id is
  // taken. When its caller already holds max_per_caller sessions, that
  // caller's least recently used one is removed and handed back in `evicted`
  // (the caller must end it); another caller's session is never touched.
  bool add(std::shared_ptr<HttpSession> session, std::shared_ptr<HttpSession>* evicted = nullptr);
  // True when another session may be added right now.
  bool has_room() const;
  // Removes and returns the session if `caller` created it; null otherwise.
  std::shared_ptr<HttpSession> remove(std::string_view id, const mcp::Caller& caller);
  // Removes and returns the sessions unused for `idle_ms` that have no open
  // event stream (an open stream is a live client).
  std::vector<std::shared_ptr<HttpSession>> remove_idle(std::int64_t now, std::int64_t idle_ms);
  // Removes and returns every session (shutdown).
  std::vector<std::shared_ptr<HttpSession>> remove_all();
  std::size_t size() const;
  // How many sessions `caller` holds.
  std::size_t count_of(const mcp::Caller& caller) const;

 private:
  static std::string caller_key(const mcp::Caller& caller);
  // Under the unique lock: forgets `id` in its caller's list.
  void unindex(const HttpSession& session);

  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  };

  const std::size_t m_max_sessions;
  const std::size_t m_max_per_caller;
  mutable std::shared_mutex m_mutex;
  std::unordered_map<std::string, std::shared_ptr<HttpSession>, KeyHash, std::equal_to<>> m_sessions;
  // Caller key → the ids of that caller's sessions (at most max_per_caller,
  // so finding its least recently used one is a short scan).
  std::unordered_map<std::string, std::vector<std::string>, KeyHash, std::equal_to<>> m_by_caller;
};

}  // namespace skillrt::net
