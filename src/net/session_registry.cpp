#include "net/session_registry.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace skillrt::net {

bool same_caller(const mcp::Caller& a, const mcp::Caller& b) {
  return a.user_id == b.user_id && a.org_id == b.org_id;
}

std::int64_t SessionRegistry::now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::shared_ptr<HttpSession> SessionRegistry::find(std::string_view id, const mcp::Caller& caller) {
  std::shared_ptr<HttpSession> found;
  {
    std::shared_lock lock(m_mutex);
    const auto it = m_sessions.find(id);
    if (it == m_sessions.end()) {
      return nullptr;
    }
    found = it->second;
  }
  if (!same_caller(found->caller, caller)) {
    return nullptr;
  }
  found->last_used_ms.store(now_ms(), std::memory_order_relaxed);
  return found;
}

std::string SessionRegistry::caller_key(const mcp::Caller& caller) {
  // Length-prefixed, so no user id can spell another (user, org) pair.
  const std::string user = caller.user_id.value_or(std::string{});
  std::string key = caller.user_id ? "u" : "a";
  key += std::to_string(user.size());
  key += ':';
  key += user;
  key += caller.org_id;
  return key;
}

void SessionRegistry::unindex(const HttpSession& session) {
  const auto it = m_by_caller.find(caller_key(session.caller));
  if (it == m_by_caller.end()) {
    return;
  }
  std::erase(it->second, session.id);
  if (it->second.empty()) {
    m_by_caller.erase(it);
  }
}

bool SessionRegistry::add(std::shared_ptr<HttpSession> session, std::shared_ptr<HttpSession>* evicted) {
  session->last_used_ms.store(now_ms(), std::memory_order_relaxed);
  std::string owner = caller_key(session->caller);
  std::unique_lock lock(m_mutex);
  if (m_sessions.contains(session->id)) {
    return false;
  }
  std::vector<std::string>& owned = m_by_caller[owner];
  if (m_max_per_caller != 0 && owned.size() >= m_max_per_caller) {
    // Make room within this caller's own quota: its least recently used session goes.
    auto oldest = owned.end();
    std::int64_t oldest_ms = 0;
    for (auto it = owned.begin(); it != owned.end(); ++it) {
      const auto found = m_sessions.find(*it);
      const std::int64_t used = found == m_sessions.end() ? std::int64_t{-1}
                                                          : found->second->last_used_ms.load(std::memory_order_relaxed);
      if (oldest == owned.end() || used < oldest_ms) {
        oldest = it;
        oldest_ms = used;
      }
    }
    if (const auto found = m_sessions.find(*oldest); found != m_sessions.end()) {
      if (evicted != nullptr) {
        *evicted = std::move(found->second);
      }
      m_sessions.erase(found);
    }
    owned.erase(oldest);
  }
  if (m_sessions.size() >= m_max_sessions) {
    if (owned.empty()) {
      m_by_caller.erase(owner);
    }
    return false;
  }
  owned.push_back(session->id);
  std::string key = session->id;
  m_sessions.emplace(std::move(key), std::move(session));
  return true;
}

std::size_t SessionRegistry::count_of(const mcp::Caller& caller) const {
  std::shared_lock lock(m_mutex);
  const auto it = m_by_caller.find(caller_key(caller));
  return it == m_by_caller.end() ? 0 : it->second.size();
}

bool SessionRegistry::has_room() const {
  std::shared_lock lock(m_mutex);
  return m_sessions.size() < m_max_sessions;
}

std::shared_ptr<HttpSession> SessionRegistry::remove(std::string_view id, const mcp::Caller& caller) {
  std::unique_lock lock(m_mutex);
  const auto it = m_sessions.find(id);
  if (it == m_sessions.end() || !same_caller(it->second->caller, caller)) {
    return nullptr;
  }
  std::shared_ptr<HttpSession> removed = std::move(it->second);
  m_sessions.erase(it);
  unindex(*removed);
  return removed;
}

std::vector<std::shared_ptr<HttpSession>> SessionRegistry::remove_idle(std::int64_t now, std::int64_t idle_ms) {
  std::vector<std::shared_ptr<HttpSession>> removed;
  std::unique_lock lock(m_mutex);
  for (auto it = m_sessions.begin(); it != m_sessions.end();) {
    HttpSession& session = *it->second;
    const bool idle = now - session.last_used_ms.load(std::memory_order_relaxed) >= idle_ms;
    if (idle && session.hub->stream_count() == 0) {
      unindex(session);
      removed.push_back(std::move(it->second));
      it = m_sessions.erase(it);
    } else {
      ++it;
    }
  }
  return removed;
}

std::vector<std::shared_ptr<HttpSession>> SessionRegistry::remove_all() {
  std::vector<std::shared_ptr<HttpSession>> removed;
  std::unique_lock lock(m_mutex);
  removed.reserve(m_sessions.size());
  for (auto& entry : m_sessions) {
    removed.push_back(std::move(entry.second));
  }
  m_sessions.clear();
  m_by_caller.clear();
  return removed;
}

std::size_t SessionRegistry::size() const {
  std::shared_lock lock(m_mutex);
  return m_sessions.size();
}

}  // namespace skillrt::net
