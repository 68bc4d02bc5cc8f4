// Change events: a skill was created, updated or deleted, in which layer and
// for whom. The servers (issue 4/5) push them to clients; delivery enforces
// the tenancy rule: an event about user A's skill (user or database layer)
// reaches only subscribers of user A; a shared-skill event reaches everyone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/tenancy/layer.hpp"

namespace skillrt::core {

enum class ChangeKind : unsigned char { created, updated, deleted };
const char* change_kind_name(ChangeKind kind);  // "created" | "updated" | "deleted"

struct SkillEvent {
  ChangeKind kind = ChangeKind::updated;
  Layer layer = Layer::shared;
  std::string owner;     // user id for user/database layers; "" for shared
  std::string name;      // the skill's name
  std::string location;  // SKILL.md path (file layers) or "db:<id>" (database)
  std::uint64_t sequence = 0;  // assigned by publish(): strictly increasing per bus
};

class EventBus {
 public:
  using Handler = std::function<void(const SkillEvent&)>;

  // Unsubscribes when destroyed (RAII); safe to destroy from any thread,
  // also after the bus is gone. When reset() (or the destructor, or a move
  // assignment over it) returns, the handler is never called again and is not
  // running on another thread, so what it captured may be freed; a handler may
  // end its own subscription (it does not wait for itself).
  class Subscription {
   public:
    Subscription() = default;
    Subscription(Subscription&&) noexcept = default;
    Subscription& operator=(Subscription&&) noexcept = default;
    ~Subscription();
    void reset();

   private:
    friend class EventBus;
    struct State;
    std::shared_ptr<State> m_state;
  };

  EventBus();
  ~EventBus();
  EventBus(const EventBus&) = delete;
  EventBus& operator=(const EventBus&) = delete;

  // `user_id` nullopt: an anonymous/single-user subscriber (sees shared events only).
  [[nodiscard]] Subscription subscribe(std::optional<std::string> user_id, Handler handler);

  // Delivers synchronously to every entitled subscriber, in subscription
  // order, outside the bus lock (a handler may publish or unsubscribe).
  // Returns the sequence number given to the event.
  std::uint64_t publish(SkillEvent event);

 private:
  struct Impl;
  std::shared_ptr<Impl> m_impl;
};

// Publishes when ctx carries a bus; does nothing otherwise.
struct Context;
void publish_change(const Context& ctx, SkillEvent event);

}  // namespace skillrt::core
