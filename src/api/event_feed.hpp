// The live events of /api/v1/events (issue 3/6 item 2), transport-free:
// every change event of the server's bus — skills written through this
// process, files the watcher saw change, proposals staged and decided,
// reviews finished — as one JSON text each, kept in one bounded history and
// delivered by the tenancy rule of the bus: an event about a user's skill,
// row, proposal or review reaches only that user's subscribers; a shared
// one reaches everyone. A subscriber that resumes after sequence number N
// first gets every entitled event after N still in the history, or one
// "resync" event when some of them are gone; then live events.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/events/event_bus.hpp"

namespace skillrt::api {

class EventFeed {
 public:
  // Receives message texts in order. Called with the feed's lock held, so
  // deliveries never interleave or reorder: it must only queue and return
  // (never block, never reset its own subscription).
  using Sink = std::function<void(std::string message)>;

  struct Impl;

  class Subscription {
   public:
    Subscription() = default;
    Subscription(Subscription&&) noexcept = default;
    Subscription& operator=(Subscription&&) noexcept = default;
    ~Subscription();
    // No message is delivered once this returns.
    void reset();

   private:
    friend class EventFeed;
    std::weak_ptr<Impl> m_feed;
    std::shared_ptr<void> m_subscriber;
  };

  // Subscribes to `bus` for every owner (core::EventBus::subscribe_every_owner)
  // and keeps at most `history` events. The feed numbers events itself, in
  // the order it receives them (on a replica: see follow_change_log), so a
  // client always sees rising numbers.
  EventFeed(core::EventBus& bus, std::size_t history);
  ~EventFeed();
  EventFeed(const EventFeed&) = delete;
  EventFeed& operator=(const EventFeed&) = delete;

  // `user` nullopt: an anonymous subscriber (shared events only). First
  // sends {"type":"hello","seq":LAST}; with `since`, what was missed after
  // it (or one {"type":"resync"} when the history no longer reaches back
  // that far, or `since` is ahead of LAST: a restarted server), then every
  // later entitled event.
  [[nodiscard]] Subscription subscribe(std::optional<std::string> user, std::optional<std::uint64_t> since, Sink sink);

  // The number of the newest event (0 before the first).
  std::uint64_t last_sequence() const;
  // On a replica (core::ChangeRelay): events keep the change log's numbers,
  // the same on every replica, so a client may resume on any of them. The
  // relay starts after `sequence`: hello names it, and a client resuming from
  // before it is told to resync.
  void follow_change_log(std::uint64_t sequence);
  // Live subscribers (for tests and the server's figures).
  std::size_t subscriber_count() const;

 private:
  std::shared_ptr<Impl> m_impl;
  core::EventBus::Subscription m_bus;  // declared last: ends first
};

}  // namespace skillrt::api
