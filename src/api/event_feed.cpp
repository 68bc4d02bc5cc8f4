#include "api/event_feed.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <vector>

#include "core/util/strict_json.hpp"

namespace skillrt::api {
namespace {

struct Subscriber {
  std::optional<std::string> user;
  EventFeed::Sink sink;
  bool active = true;  // false: reset during a delivery; pruned by the next add()
};

// The feed delivering on this thread, if any: a sink whose owner goes away
// inside the delivery resets its subscription from under the feed's lock.
thread_local const void* t_delivering = nullptr;

struct Entry {
  std::uint64_t sequence = 0;
  core::Layer layer = core::Layer::shared;
  std::string owner;
  std::string body;  // the message's members after "seq" (",..." up to the closing brace)
};

// The bus's tenancy rule (core/events/event_bus.cpp), applied to one entry.
bool entitled(const Subscriber& subscriber, const Entry& entry) {
  if (entry.layer == core::Layer::shared) {
    return true;
  }
  return subscriber.user.has_value() && !entry.owner.empty() && *subscriber.user == entry.owner;
}

std::string type_of(const core::SkillEvent& event) {
  switch (event.subject) {
  case core::EventSubject::skill:
    return std::string("skill.") + core::change_kind_name(event.kind);
  case core::EventSubject::files:
    return "skills.changed";
  case core::EventSubject::proposal:
    return event.kind == core::ChangeKind::created ? "proposal.created" : "proposal.decided";
  case core::EventSubject::review:
    return "review.finished";
  case core::EventSubject::install:
    return "install.finished";
  }
  return "skills.changed";
}

// Everything after "seq":N, so the number can be written in at delivery.
std::string body_of(const core::SkillEvent& event) {
  std::string out = ",\"layer\":" + core::json_quoted(core::layer_name(event.layer));
  switch (event.subject) {
  case core::EventSubject::skill:
    out += ",\"name\":" + core::json_quoted(event.name);
    break;
  case core::EventSubject::files:
    break;
  case core::EventSubject::proposal:
    out += ",\"id\":" + core::json_quoted(event.location) + ",\"skill\":" + core::json_quoted(event.name) +
           ",\"state\":" + core::json_quoted(event.detail);
    break;
  case core::EventSubject::review:
    out += ",\"conversation_id\":" + core::json_quoted(event.location) + ",\"ending\":" + core::json_quoted(event.detail);
    break;
  case core::EventSubject::install:
    out += ",\"install_id\":" + core::json_quoted(event.location) + ",\"source\":" + core::json_quoted(event.name) +
           ",\"outcome\":" + core::json_quoted(event.detail);
    break;
  }
  return out + "}";
}

std::string message_of(const core::SkillEvent& event, std::uint64_t sequence, const std::string& body) {
  return "{\"type\":" + core::json_quoted(type_of(event)) + ",\"seq\":" + std::to_string(sequence) + body;
}

std::string control_message(const char* type, std::uint64_t sequence) {
  return std::string("{\"type\":\"") + type + "\",\"seq\":" + std::to_string(sequence) + "}";
}

}  // namespace

struct EventFeed::Impl {
  mutable std::mutex mutex;  // guards everything below; deliveries happen under it
  std::deque<std::pair<Entry, std::string>> history;  // entry and its whole message
  std::size_t capacity = 0;
  std::uint64_t last = 0;
  // The history holds every event numbered above this. Numbers may skip (the
  // change log's rows are numbered by a sequence), so "what was trimmed" is
  // not "oldest - 1".
  std::uint64_t complete_after = 0;
  bool follow_log = false;  // follow_change_log()
  std::vector<std::shared_ptr<Subscriber>> subscribers;

  void add(const core::SkillEvent& event) {
    std::lock_guard lock(mutex);
    if (follow_log && event.unlogged) {
      return;  // comes again with the log's number once the relay could append it
    }
    Entry entry;
    // On a replica, the change log's number: a client that moves to another
    // replica resumes with the same numbers. Never below what was sent
    // already (a replica that cannot reach its log falls back to local
    // numbers). Otherwise our own count: publishers on several threads may
    // deliver out of the bus's order.
    entry.sequence = follow_log ? std::max(event.sequence, last + 1) : last + 1;
    last = entry.sequence;
    entry.layer = event.layer;
    entry.owner = event.owner;
    // When the server published it (Unix ms): a client can tell how old an
    // event is, a replayed one included.
    const auto at = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    entry.body = ",\"at\":" + std::to_string(at.count()) + body_of(event);
    std::string message = message_of(event, entry.sequence, entry.body);
    t_delivering = this;
    for (const auto& subscriber : subscribers) {
      if (subscriber->active && entitled(*subscriber, entry)) {
        subscriber->sink(message);
      }
    }
    t_delivering = nullptr;
    std::erase_if(subscribers, [](const auto& subscriber) { return !subscriber->active; });
    history.emplace_back(std::move(entry), std::move(message));
    while (history.size() > capacity) {
      complete_after = history.front().first.sequence;
      history.pop_front();
    }
  }
};

EventFeed::Subscription::~Subscription() { reset(); }

void EventFeed::Subscription::reset() {
  if (auto feed = m_feed.lock(); feed && m_subscriber) {
    if (t_delivering == feed.get()) {
      // Inside a delivery of this feed (its lock is held on this thread):
      // deliveries check `active`, and add() prunes the entry when it is done.
      static_cast<Subscriber*>(m_subscriber.get())->active = false;
    } else {
      std::lock_guard lock(feed->mutex);
      std::erase_if(feed->subscribers, [&](const auto& entry) { return entry.get() == m_subscriber.get(); });
    }
  }
  m_feed.reset();
  m_subscriber.reset();
}

EventFeed::EventFeed(core::EventBus& bus, std::size_t history) : m_impl(std::make_shared<Impl>()) {
  m_impl->capacity = std::max<std::size_t>(history, 1);
  std::weak_ptr<Impl> weak = m_impl;
  m_bus = bus.subscribe_every_owner([weak](const core::SkillEvent& event) {
    if (auto impl = weak.lock()) {
      impl->add(event);
    }
  });
}

EventFeed::~EventFeed() { m_bus.reset(); }

EventFeed::Subscription EventFeed::subscribe(std::optional<std::string> user, std::optional<std::uint64_t> since,
                                             Sink sink) {
  auto subscriber = std::make_shared<Subscriber>(Subscriber{std::move(user), std::move(sink)});
  {
    std::lock_guard lock(m_impl->mutex);
    const std::uint64_t last = m_impl->last;
    subscriber->sink(control_message("hello", last));
    if (since && *since != last) {
      if (*since > last || *since < m_impl->complete_after) {
        subscriber->sink(control_message("resync", last));
      } else {
        for (const auto& [entry, message] : m_impl->history) {
          if (entry.sequence > *since && entitled(*subscriber, entry)) {
            subscriber->sink(message);
          }
        }
      }
    }
    m_impl->subscribers.push_back(subscriber);
  }
  Subscription subscription;
  subscription.m_feed = m_impl;
  subscription.m_subscriber = std::move(subscriber);
  return subscription;
}

std::uint64_t EventFeed::last_sequence() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->last;
}

void EventFeed::follow_change_log(std::uint64_t sequence) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->follow_log = true;
  if (sequence > m_impl->last) {
    m_impl->last = sequence;
    m_impl->complete_after = sequence;
    m_impl->history.clear();
  }
}

std::size_t EventFeed::subscriber_count() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->subscribers.size();
}

}  // namespace skillrt::api
