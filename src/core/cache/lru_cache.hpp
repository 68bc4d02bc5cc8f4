// A small thread-safe least-recently-used map for long-running hosts (the MCP
// server, a gateway): many threads may ask for the same computed value, and
// the cache must stay bounded however many distinct keys they bring.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace skillrt::core {

template <typename Key, typename Value> class LruCache {
public:
  // Keeps at most `capacity` entries (at least one).
  explicit LruCache(std::size_t capacity) : m_capacity(capacity == 0 ? 1 : capacity) {}

  // A copy of the value for `key`, which becomes the most recently used; nullopt on a miss.
  std::optional<Value> get(const Key& key) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    auto found = m_index.find(key);
    if (found == m_index.end()) {
      return std::nullopt;
    }
    m_order.splice(m_order.begin(), m_order, found->second);
    return found->second->second;
  }

  // Stores `value` for `key` as the most recently used, evicting the least recently used beyond capacity.
  void put(const Key& key, Value value) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    auto found = m_index.find(key);
    if (found != m_index.end()) {
      found->second->second = std::move(value);
      m_order.splice(m_order.begin(), m_order, found->second);
      return;
    }
    m_order.emplace_front(key, std::move(value));
    m_index.emplace(key, m_order.begin());
    if (m_order.size() > m_capacity) {
      m_index.erase(m_order.back().first);
      m_order.pop_back();
    }
  }

  // Drops every entry.
  void clear() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_index.clear();
    m_order.clear();
  }

  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_order.size();
  }

  std::size_t capacity() const { return m_capacity; }

private:
  using Entry = std::pair<Key, Value>;
  std::size_t m_capacity;
  mutable std::mutex m_mutex;
  std::list<Entry> m_order; // most recently used first
  std::map<Key, typename std::list<Entry>::iterator> m_index;
};

} // namespace skillrt::core
