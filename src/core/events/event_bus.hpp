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
#include <string_view>
#include <vector>

#include "core/tenancy/layer.hpp"

namespace skillrt::core {

enum class ChangeKind : unsigned char { created, updated, deleted };
const char* change_kind_name(ChangeKind kind);  // "created" | "updated" | "deleted"
std::optional<ChangeKind> change_kind_from_name(std::string_view name);  // the inverse; nullopt for anything else

// What an event is about. The MCP sessions turn `skill` events into
// list_changed; the REST API's event push (src/api) forwards every subject.
enum class EventSubject : unsigned char {
  skill,     // a skill written through this process (manage, database, hub, sync, rollback)
  files,     // the watcher saw skill files change on disk (any writer); `location` is the folder
  proposal,  // an approval-inbox proposal: created (staged) or updated (decided); `location` is its id
  review,    // a background review finished; `location` is the conversation id
  install,   // an install from a source finished; `name` is the source, `detail` its outcome
};
const char* event_subject_name(EventSubject subject);  // "skill" | "files" | "proposal" | "review" | "install"
std::optional<EventSubject> event_subject_from_name(std::string_view name);  // the inverse

struct SkillEvent {
  EventSubject subject = EventSubject::skill;
  ChangeKind kind = ChangeKind::updated;
  Layer layer = Layer::shared;
  std::string owner;     // user id for user/database layers; "" for shared
  std::string name;      // the skill's name
  std::string location;  // SKILL.md path (file layers) or "db:<id>" (database)
  std::string detail;    // proposal: its state ("pending", "applied", ...); review: its ending;
                         // install: "installed" | "blocked" | "failed"
  // Set by an observer that every replica runs at once (the stat sweep of a
  // shared volume): the change log keeps one row per key. Not delivered.
  std::string dedupe_key;
  // A replica could not reach the shared change log: delivered on this
  // replica only, so its caches stay right, while the relay keeps the event
  // to append once the log is back (then every replica, this one included,
  // gets it with the log's number). Client feeds numbered by the log skip it.
  bool unlogged = false;
  std::uint64_t sequence = 0;  // assigned by publish(): strictly increasing per bus (the
                               // change log's row number when a relay delivers it)
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
  // Every event, whoever owns it: for the server's own bookkeeping (dropping
  // cached snapshots, the per-user event logs that then deliver by owner),
  // never for a handler that forwards events to a client as they come.
  [[nodiscard]] Subscription subscribe_every_owner(Handler handler);

  // Delivers synchronously to every entitled subscriber, in subscription
  // order, outside the bus lock (a handler may publish or unsubscribe).
  // Returns the sequence number given to the event. With a forwarder set,
  // the event goes to the forwarder instead (see set_forwarder).
  std::uint64_t publish(SkillEvent event);

  // Replicas (issue 4/6): every event published here goes to `forward`
  // instead, which appends it to the shared change log and has it delivered
  // through deliver_sequenced() with the log's number, the same on every
  // replica. Empty: publish delivers directly again.
  using Forwarder = std::function<std::uint64_t(SkillEvent event)>;
  void set_forwarder(Forwarder forward);
  // Delivers like publish, keeping `event.sequence` when it is above every
  // number delivered so far (else the next number): what the change-log
  // relay calls, and a forwarder whose log cannot be reached.
  std::uint64_t deliver_sequenced(SkillEvent event);

 private:
  Subscription attach(std::optional<std::string> user_id, bool every_owner, Handler handler);
  std::uint64_t deliver(SkillEvent event, bool keep_sequence);

  struct Impl;
  std::shared_ptr<Impl> m_impl;
};

// Publishes when ctx carries a bus; does nothing otherwise.
struct Context;
void publish_change(const Context& ctx, SkillEvent event);

}  // namespace skillrt::core
