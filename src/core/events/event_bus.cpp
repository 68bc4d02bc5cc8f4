#include "core/events/event_bus.hpp"

#include <algorithm>
#include <condition_variable>
#include <thread>
#include <utility>

#include "core/context.hpp"

namespace skillrt::core {

const char* change_kind_name(ChangeKind kind) {
  switch (kind) {
  case ChangeKind::created:
    return "created";
  case ChangeKind::updated:
    return "updated";
  case ChangeKind::deleted:
    return "deleted";
  }
  return "updated";
}

const char* event_subject_name(EventSubject subject) {
  switch (subject) {
  case EventSubject::skill:
    return "skill";
  case EventSubject::files:
    return "files";
  case EventSubject::proposal:
    return "proposal";
  case EventSubject::review:
    return "review";
  case EventSubject::install:
    return "install";
  }
  return "skill";
}

std::optional<ChangeKind> change_kind_from_name(std::string_view name) {
  for (const ChangeKind kind : {ChangeKind::created, ChangeKind::updated, ChangeKind::deleted}) {
    if (name == change_kind_name(kind)) {
      return kind;
    }
  }
  return std::nullopt;
}

std::optional<EventSubject> event_subject_from_name(std::string_view name) {
  for (const EventSubject subject : {EventSubject::skill, EventSubject::files, EventSubject::proposal,
                                     EventSubject::review, EventSubject::install}) {
    if (name == event_subject_name(subject)) {
      return subject;
    }
  }
  return std::nullopt;
}

namespace {

// One subscriber. Shared between the bus's list, in-flight deliveries and the
// Subscription, so whichever lets go last frees it.
struct Subscriber {
  std::optional<std::string> user_id;
  bool every_owner = false;  // subscribe_every_owner: the server's bookkeeping
  EventBus::Handler handler;

  // Guards `active` and `in_flight`; `idle` is signalled when in_flight drops.
  std::mutex mutex;
  std::condition_variable idle;
  bool active = true;
  int in_flight = 0;
};

// Subscribers whose handler is running on this thread (nested when a handler
// publishes). reset() from inside a handler must not wait for that very call.
thread_local std::vector<const Subscriber*> t_delivering;

int calls_on_this_thread(const Subscriber* subscriber) {
  return static_cast<int>(std::count(t_delivering.begin(), t_delivering.end(), subscriber));
}

// The tenancy rule of DESIGN.md "The three skill layers", applied to events.
bool entitled(const Subscriber& subscriber, const SkillEvent& event) {
  if (event.layer == Layer::shared || subscriber.every_owner) {
    return true;
  }
  // An owner-less private event would be a publisher bug; deliver it to nobody
  // rather than to every subscriber whose id happens to be empty.
  return subscriber.user_id.has_value() && !event.owner.empty() && *subscriber.user_id == event.owner;
}

} // namespace

struct EventBus::Impl {
  std::mutex mutex; // guards subscribers and next_sequence
  std::vector<std::shared_ptr<Subscriber>> subscribers;
  std::uint64_t next_sequence = 1;
  std::shared_ptr<const Forwarder> forwarder;  // replaced whole, so a publish in flight keeps its copy

  void remove(const Subscriber* subscriber) {
    std::lock_guard lock(mutex);
    std::erase_if(subscribers, [&](const auto& entry) { return entry.get() == subscriber; });
  }
};

// Owned by exactly one Subscription; destroying it unsubscribes, so reset(),
// the destructor and move assignment over a live subscription all end it.
struct EventBus::Subscription::State {
  std::weak_ptr<EventBus::Impl> bus;
  std::shared_ptr<Subscriber> subscriber;

  State(std::weak_ptr<EventBus::Impl> owner, std::shared_ptr<Subscriber> entry)
      : bus(std::move(owner)), subscriber(std::move(entry)) {}
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  ~State() {
    if (auto live = bus.lock()) {
      live->remove(subscriber.get());
    }
    // Once this returns the handler is never entered again and no other
    // thread is still inside it, so the owner may free what the handler uses.
    // A handler ending its own subscription does not wait for itself.
    const int own_calls = calls_on_this_thread(subscriber.get());
    std::unique_lock lock(subscriber->mutex);
    subscriber->active = false;
    subscriber->idle.wait(lock, [&] { return subscriber->in_flight <= own_calls; });
  }
};

EventBus::Subscription::~Subscription() {
  reset();
}

void EventBus::Subscription::reset() {
  m_state.reset();
}

EventBus::EventBus() : m_impl(std::make_shared<Impl>()) {}

EventBus::~EventBus() = default;

EventBus::Subscription EventBus::subscribe(std::optional<std::string> user_id, Handler handler) {
  return attach(std::move(user_id), false, std::move(handler));
}

EventBus::Subscription EventBus::subscribe_every_owner(Handler handler) {
  return attach(std::nullopt, true, std::move(handler));
}

EventBus::Subscription EventBus::attach(std::optional<std::string> user_id, bool every_owner, Handler handler) {
  auto subscriber = std::make_shared<Subscriber>();
  subscriber->user_id = std::move(user_id);
  subscriber->every_owner = every_owner;
  subscriber->handler = std::move(handler);
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->subscribers.push_back(subscriber);
  }
  Subscription subscription;
  subscription.m_state = std::make_shared<Subscription::State>(m_impl, std::move(subscriber));
  return subscription;
}

void EventBus::set_forwarder(Forwarder forward) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->forwarder = forward ? std::make_shared<const Forwarder>(std::move(forward)) : nullptr;
}

std::uint64_t EventBus::publish(SkillEvent event) {
  std::shared_ptr<const Forwarder> forwarder;
  {
    std::lock_guard lock(m_impl->mutex);
    forwarder = m_impl->forwarder;
  }
  if (forwarder) {
    return (*forwarder)(std::move(event));
  }
  return deliver(std::move(event), false);
}

std::uint64_t EventBus::deliver_sequenced(SkillEvent event) { return deliver(std::move(event), true); }

std::uint64_t EventBus::deliver(SkillEvent event, bool keep_sequence) {
  std::vector<std::shared_ptr<Subscriber>> recipients;
  {
    std::lock_guard lock(m_impl->mutex);
    if (event.unlogged) {
      // Numbered by the change log once it is appended there: taking a
      // number now would shift every later row's on this replica.
      event.sequence = 0;
    } else {
      if (!keep_sequence || event.sequence < m_impl->next_sequence) {
        event.sequence = m_impl->next_sequence;
      }
      m_impl->next_sequence = event.sequence + 1;
    }
    for (const auto& subscriber : m_impl->subscribers) {
      if (entitled(*subscriber, event)) {
        recipients.push_back(subscriber);
      }
    }
  }
  // Delivery happens outside the bus lock: a handler may publish, subscribe or
  // unsubscribe (itself or another) without deadlocking.
  for (const auto& subscriber : recipients) {
    {
      std::lock_guard lock(subscriber->mutex);
      if (!subscriber->active) {
        continue; // unsubscribed after the snapshot was taken
      }
      ++subscriber->in_flight;
    }
    t_delivering.push_back(subscriber.get());
    struct Leave {
      Subscriber& subscriber;
      ~Leave() {
        t_delivering.pop_back();
        std::lock_guard lock(subscriber.mutex);
        --subscriber.in_flight;
        subscriber.idle.notify_all();
      }
    } leave{*subscriber};
    if (subscriber->handler) {
      subscriber->handler(event);
    }
  }
  return event.sequence;
}

void publish_change(const Context& ctx, SkillEvent event) {
  if (ctx.events != nullptr) {
    ctx.events->publish(std::move(event));
  }
}

} // namespace skillrt::core
