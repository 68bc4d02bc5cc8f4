#include "net/session_registry.hpp"

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

bool SessionRegistry::add(std::shared_ptr<HttpSession> session) {
  session->last_used_ms.store(now_ms(), std::memory_order_relaxed);
  std::unique_lock lock(m_mutex);
  if (m_sessions.size() >= m_max_sessions) {
    return false;
  }
  std::string key = session->id;
  return m_sessions.emplace(std::move(key), std::move(session)).second;
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
  return removed;
}

std::vector<std::shared_ptr<HttpSession>> SessionRegistry::remove_idle(std::int64_t now, std::int64_t idle_ms) {
  std::vector<std::shared_ptr<HttpSession>> removed;
  std::unique_lock lock(m_mutex);
  for (auto it = m_sessions.begin(); it != m_sessions.end();) {
    HttpSession& session = *it->second;
    const bool idle = now - session.last_used_ms.load(std::memory_order_relaxed) >= idle_ms;
    if (idle && session.hub->stream_count() == 0) {
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
  return removed;
}

std::size_t SessionRegistry::size() const {
  std::shared_lock lock(m_mutex);
  return m_sessions.size();
}

}  // namespace skillrt::net
