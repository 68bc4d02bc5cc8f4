#include "net/web_sessions.hpp"

#include <algorithm>

#include "core/util/random_hex.hpp"
#include "core/util/sha256.hpp"
#include "net/http_rules.hpp"

namespace skillrt::net {

WebSessions::WebSessions(std::chrono::seconds idle, std::chrono::seconds lifetime, std::size_t max_sessions)
    : m_idle(idle), m_lifetime(lifetime), m_max_sessions(std::max<std::size_t>(max_sessions, 1)) {}

std::optional<OpenedWebSession> WebSessions::open(std::string bearer, mcp::Caller caller) {
  // 256 bits for the cookie, 128 for the CSRF token.
  std::optional<std::string> id = core::random_hex(32);
  std::optional<std::string> csrf = core::random_hex(16);
  if (!id || !csrf) {
    return std::nullopt;
  }
  OpenedWebSession opened{std::move(*id), std::move(*csrf)};
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(m_mutex);
  std::erase_if(m_sessions, [&](const auto& item) {
    return now - item.second.last_used > m_idle || now - item.second.created > m_lifetime;
  });
  if (m_sessions.size() >= m_max_sessions) {
    const auto oldest = std::min_element(m_sessions.begin(), m_sessions.end(), [](const auto& a, const auto& b) {
      return a.second.last_used < b.second.last_used;
    });
    m_sessions.erase(oldest);
  }
  m_sessions[core::sha256_hex(opened.id)] = Entry{WebSession{std::move(bearer), opened.csrf, std::move(caller)}, now, now};
  return opened;
}

std::optional<WebSession> WebSessions::find(std::string_view id) {
  if (id.empty() || id.size() > 128) {
    return std::nullopt;
  }
  const std::string key = core::sha256_hex(id);
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(m_mutex);
  const auto found = m_sessions.find(key);
  if (found == m_sessions.end()) {
    return std::nullopt;
  }
  if (now - found->second.last_used > m_idle || now - found->second.created > m_lifetime) {
    m_sessions.erase(found);
    return std::nullopt;
  }
  found->second.last_used = now;
  return found->second.session;
}

void WebSessions::close(std::string_view id) {
  const std::string key = core::sha256_hex(id);
  std::lock_guard lock(m_mutex);
  m_sessions.erase(key);
}

std::size_t WebSessions::size() const {
  std::lock_guard lock(m_mutex);
  return m_sessions.size();
}

bool secrets_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return difference == 0;
}

std::optional<std::string_view> cookie_value(std::string_view cookie_header, std::string_view name) {
  while (!cookie_header.empty()) {
    const std::size_t end = cookie_header.find(';');
    std::string_view pair = trim_http_whitespace(cookie_header.substr(0, end));
    cookie_header = end == std::string_view::npos ? std::string_view{} : cookie_header.substr(end + 1);
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos) {
      continue;
    }
    if (trim_http_whitespace(pair.substr(0, equals)) == name) {
      std::string_view value = trim_http_whitespace(pair.substr(equals + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace skillrt::net
