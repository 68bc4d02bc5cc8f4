#include "net/event_hub.hpp"

#include <algorithm>

namespace skillrt::net {

bool EventHub::publish(const std::string& message) {
  // offer() only queues and posts, so holding the hub's lock across it is
  // cheap; it is what lets shut() promise that no offer is still running.
  std::lock_guard lock(m_mutex);
  while (!m_shut && !m_streams.empty()) {
    if (m_next >= m_streams.size()) {
      m_next = 0;
    }
    std::shared_ptr<EventStream> stream = m_streams[m_next].lock();
    if (stream && stream->offer(message)) {
      ++m_next;
      return true;
    }
    // Gone or overflowing: forget it and try the next one.
    m_streams.erase(m_streams.begin() + static_cast<std::ptrdiff_t>(m_next));
  }
  return false;
}

bool EventHub::attach(const std::shared_ptr<EventStream>& stream, std::size_t max_streams) {
  std::vector<std::shared_ptr<EventStream>> displaced;
  bool attached = false;
  {
    std::lock_guard lock(m_mutex);
    if (!m_shut) {
      std::erase_if(m_streams, [](const std::weak_ptr<EventStream>& held) { return held.expired(); });
      while (max_streams != 0 && m_streams.size() >= max_streams) {
        if (std::shared_ptr<EventStream> oldest = m_streams.front().lock()) {
          displaced.push_back(std::move(oldest));
        }
        m_streams.erase(m_streams.begin());
      }
      m_streams.push_back(stream);
      m_next = 0;
      attached = true;
    }
  }
  // Outside the lock: a stream's finish() may call back into detach().
  for (const std::shared_ptr<EventStream>& old : displaced) {
    old->finish();
  }
  if (!attached) {
    stream->finish();
  }
  return attached;
}

void EventHub::detach(const EventStream* stream) {
  std::lock_guard lock(m_mutex);
  std::erase_if(m_streams, [&](const std::weak_ptr<EventStream>& held) {
    const std::shared_ptr<EventStream> alive = held.lock();
    return !alive || alive.get() == stream;
  });
}

std::size_t EventHub::stream_count() const {
  std::lock_guard lock(m_mutex);
  return m_streams.size();
}

void EventHub::shut() {
  std::vector<std::weak_ptr<EventStream>> streams;
  {
    std::lock_guard lock(m_mutex);
    m_shut = true;
    streams.swap(m_streams);
  }
  for (const std::weak_ptr<EventStream>& held : streams) {
    if (std::shared_ptr<EventStream> stream = held.lock()) {
      stream->finish();
    }
  }
}

}  // namespace skillrt::net
