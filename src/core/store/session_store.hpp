// The SessionStore port (issue 4/6): MCP sessions of the 2025 revisions kept
// in the database the replicas share, so a client whose next request lands
// on another replica (or on this one after a restart) keeps its session.
// Only what the session negotiated is kept — never a token: every request
// still authenticates, and a session answers only to the caller that made it.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

struct StoredSession {
  std::string id;                      // the Mcp-Session-Id (kept as its SHA-256 only)
  std::optional<std::string> user_id;  // nullopt: single-user or anonymous
  std::string org_id;
  bool anonymous = false;
  std::string protocol_version;
  int log_level = -1;
  std::vector<std::pair<std::string, std::string>> subscriptions;  // resource uri, the file it names
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  // Inserts or replaces the session and marks it used now.
  virtual Result<void> save(const StoredSession& session) = 0;
  // The session named `id`; nullopt when there is none (never made, ended,
  // or unused longer than prune's `idle`).
  virtual Result<std::optional<StoredSession>> load(std::string_view id) = 0;
  // Marks it used now (callers do so at most once a minute per session).
  virtual Result<void> touch(std::string_view id) = 0;
  virtual Result<void> remove(std::string_view id) = 0;
  // Removes the sessions unused for `idle`; returns how many.
  virtual Result<std::size_t> prune(std::chrono::seconds idle) = 0;
};

}  // namespace skillrt::core
