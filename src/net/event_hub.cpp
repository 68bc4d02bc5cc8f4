#include "net/event_hub.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <random>

namespace skillrt::net {
namespace {

std::string random_epoch() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(generator()));
  return text;
}

}  // namespace

EventHub::EventHub() : m_epoch(random_epoch()) {}

std::string EventHub::event_id(std::uint64_t number) const { return m_epoch + "-" + std::to_string(number); }

bool EventHub::publish(const std::string& message) {
  // offer() only queues and posts, so holding the hub's lock across it is
  // cheap; it is what lets shut() promise that no offer is still running.
  std::lock_guard lock(m_mutex);
  if (m_shut) {
    return false;
  }
  const std::uint64_t number = ++m_last_number;
  m_kept.push_back(Kept{number, message});
  m_kept_bytes += message.size();
  while (m_kept.size() > k_replay_messages || (m_kept_bytes > k_replay_bytes && m_kept.size() > 1)) {
    m_kept_bytes -= m_kept.front().message.size();
    m_kept.pop_front();
  }
  const std::string id = event_id(number);
  while (!m_streams.empty()) {
    if (m_next >= m_streams.size()) {
      m_next = 0;
    }
    std::shared_ptr<EventStream> stream = m_streams[m_next].lock();
    if (stream && stream->offer(message, id)) {
      ++m_next;
      return true;
    }
    // Gone or overflowing: forget it and try the next one.
    m_streams.erase(m_streams.begin() + static_cast<std::ptrdiff_t>(m_next));
  }
  return false;
}

bool EventHub::attach_locked(const std::shared_ptr<EventStream>& stream, std::size_t max_streams,
                             std::vector<std::shared_ptr<EventStream>>& displaced) {
  if (m_shut) {
    return false;
  }
  std::erase_if(m_streams, [](const std::weak_ptr<EventStream>& held) { return held.expired(); });
  while (max_streams != 0 && m_streams.size() >= max_streams) {
    if (std::shared_ptr<EventStream> oldest = m_streams.front().lock()) {
      displaced.push_back(std::move(oldest));
    }
    m_streams.erase(m_streams.begin());
  }
  m_streams.push_back(stream);
  m_next = 0;
  return true;
}

EventHub::Resumed EventHub::attach_after(const std::shared_ptr<EventStream>& stream, std::string_view last_event_id,
                                         std::size_t max_streams) {
  std::vector<std::shared_ptr<EventStream>> displaced;
  Resumed resumed;
  {
    std::lock_guard lock(m_mutex);
    resumed.attached = attach_locked(stream, max_streams, displaced);
    // "<epoch>-<number>" of this hub, and nothing lost since: the first
    // kept message is at most one after it (or nothing was published since).
    std::uint64_t number = 0;
    const std::size_t dash = last_event_id.rfind('-');
    const bool ours = resumed.attached && dash != std::string_view::npos && last_event_id.substr(0, dash) == m_epoch;
    bool parsed = false;
    if (ours) {
      const char* first = last_event_id.data() + dash + 1;
      const char* end = last_event_id.data() + last_event_id.size();
      const auto [stop, error] = std::from_chars(first, end, number);
      parsed = first != end && stop == end && error == std::errc{};
    }
    const std::uint64_t oldest = m_kept.empty() ? m_last_number + 1 : m_kept.front().number;
    if (parsed && number <= m_last_number && number + 1 >= oldest) {
      resumed.replayed = true;
      for (const Kept& kept : m_kept) {
        if (kept.number > number) {
          stream->offer(kept.message, event_id(kept.number));
        }
      }
    }
  }
  for (const std::shared_ptr<EventStream>& old : displaced) {
    old->finish();
  }
  if (!resumed.attached) {
    stream->finish();
  }
  return resumed;
}

bool EventHub::attach(const std::shared_ptr<EventStream>& stream, std::size_t max_streams) {
  std::vector<std::shared_ptr<EventStream>> displaced;
  bool attached = false;
  {
    std::lock_guard lock(m_mutex);
    attached = attach_locked(stream, max_streams, displaced);
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
