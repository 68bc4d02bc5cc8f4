#include "core/events/event_bus.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/context.hpp"

namespace skillrt::core {
namespace {

SkillEvent event_for(Layer layer, std::string owner, std::string name, ChangeKind kind = ChangeKind::created) {
  SkillEvent event;
  event.kind = kind;
  event.layer = layer;
  event.owner = std::move(owner);
  event.name = std::move(name);
  return event;
}

// Records what one subscriber received (thread-safe).
struct Inbox {
  std::mutex mutex;
  std::vector<SkillEvent> events;

  EventBus::Handler handler() {
    return [this](const SkillEvent& event) {
      std::lock_guard lock(mutex);
      events.push_back(event);
    };
  }
  std::vector<std::string> names() {
    std::lock_guard lock(mutex);
    std::vector<std::string> out;
    for (const auto& event : events) {
      out.push_back(event.name);
    }
    return out;
  }
};

TEST(EventBus, ChangeKindNames) {
  EXPECT_STREQ(change_kind_name(ChangeKind::created), "created");
  EXPECT_STREQ(change_kind_name(ChangeKind::updated), "updated");
  EXPECT_STREQ(change_kind_name(ChangeKind::deleted), "deleted");
}

TEST(EventBus, SharedEventsReachEveryone) {
  EventBus bus;
  Inbox alice, bob, anonymous;
  auto a = bus.subscribe("alice", alice.handler());
  auto b = bus.subscribe("bob", bob.handler());
  auto n = bus.subscribe(std::nullopt, anonymous.handler());
  bus.publish(event_for(Layer::shared, "", "common"));
  EXPECT_EQ(alice.names(), std::vector<std::string>{"common"});
  EXPECT_EQ(bob.names(), std::vector<std::string>{"common"});
  EXPECT_EQ(anonymous.names(), std::vector<std::string>{"common"});
}

TEST(EventBus, UserAndDatabaseEventsReachOnlyTheirOwner) {
  EventBus bus;
  Inbox alice, bob, anonymous, alice_second_tab;
  auto a = bus.subscribe("alice", alice.handler());
  auto a2 = bus.subscribe("alice", alice_second_tab.handler());
  auto b = bus.subscribe("bob", bob.handler());
  auto n = bus.subscribe(std::nullopt, anonymous.handler());
  bus.publish(event_for(Layer::user, "alice", "alice-file"));
  bus.publish(event_for(Layer::database, "alice", "alice-row"));
  bus.publish(event_for(Layer::user, "bob", "bob-file"));
  EXPECT_EQ(alice.names(), (std::vector<std::string>{"alice-file", "alice-row"}));
  EXPECT_EQ(alice_second_tab.names(), (std::vector<std::string>{"alice-file", "alice-row"}));
  EXPECT_EQ(bob.names(), std::vector<std::string>{"bob-file"});
  EXPECT_TRUE(anonymous.names().empty());
}

TEST(EventBus, AnEveryOwnerSubscriberSeesEveryEventFirstWhenFirst) {
  EventBus bus;
  std::vector<std::string> order;
  std::mutex mutex;
  auto record = [&](std::string who) {
    return [&, who](const SkillEvent& event) {
      std::lock_guard lock(mutex);
      order.push_back(who + ":" + event.name);
    };
  };
  auto server = bus.subscribe_every_owner(record("server"));
  auto alice = bus.subscribe("alice", record("alice"));
  auto anonymous = bus.subscribe(std::nullopt, record("anonymous"));
  bus.publish(event_for(Layer::user, "alice", "alice-file"));
  bus.publish(event_for(Layer::database, "bob", "bob-row"));
  bus.publish(event_for(Layer::shared, "", "common"));
  // An owner-less private event reaches no user subscriber; the server still sees it.
  bus.publish(event_for(Layer::user, "", "orphan"));
  EXPECT_EQ(order, (std::vector<std::string>{"server:alice-file", "alice:alice-file", "server:bob-row",
                                             "server:common", "alice:common", "anonymous:common",
                                             "server:orphan"}));
  server.reset();
  bus.publish(event_for(Layer::user, "alice", "after"));
  EXPECT_EQ(order.back(), "alice:after");
}

TEST(EventBus, PrivateEventWithoutOwnerReachesNobody) {
  EventBus bus;
  Inbox empty_id, anonymous;
  auto e = bus.subscribe(std::string{}, empty_id.handler());
  auto n = bus.subscribe(std::nullopt, anonymous.handler());
  bus.publish(event_for(Layer::user, "", "orphan"));
  bus.publish(event_for(Layer::database, "", "orphan-row"));
  EXPECT_TRUE(empty_id.names().empty());
  EXPECT_TRUE(anonymous.names().empty());
}

TEST(EventBus, OwnerMatchIsExact) {
  EventBus bus;
  Inbox alice;
  auto a = bus.subscribe("alice", alice.handler());
  bus.publish(event_for(Layer::user, "Alice", "case"));
  bus.publish(event_for(Layer::user, "alice2", "prefix"));
  bus.publish(event_for(Layer::user, "alic", "shorter"));
  EXPECT_TRUE(alice.names().empty());
}

TEST(EventBus, SequenceNumbersStrictlyIncreaseAndArriveInOrder) {
  EventBus bus;
  Inbox inbox;
  auto s = bus.subscribe("u", inbox.handler());
  std::uint64_t last = 0;
  for (int i = 0; i < 50; ++i) {
    const auto seq = bus.publish(event_for(i % 2 == 0 ? Layer::shared : Layer::user, "u", std::to_string(i)));
    EXPECT_GT(seq, last);
    last = seq;
  }
  ASSERT_EQ(inbox.events.size(), 50u);
  for (std::size_t i = 0; i < inbox.events.size(); ++i) {
    EXPECT_EQ(inbox.events[i].name, std::to_string(i));
    if (i > 0) {
      EXPECT_GT(inbox.events[i].sequence, inbox.events[i - 1].sequence);
    }
  }
}

TEST(EventBus, SequenceCountsUndeliveredEventsToo) {
  EventBus bus;
  const auto first = bus.publish(event_for(Layer::user, "nobody-listens", "x"));
  const auto second = bus.publish(event_for(Layer::shared, "", "y"));
  EXPECT_EQ(second, first + 1);
}

TEST(EventBus, SubscribersAreCalledInSubscriptionOrder) {
  EventBus bus;
  std::vector<int> calls;
  auto first = bus.subscribe(std::nullopt, [&](const SkillEvent&) { calls.push_back(1); });
  auto second = bus.subscribe(std::nullopt, [&](const SkillEvent&) { calls.push_back(2); });
  auto third = bus.subscribe(std::nullopt, [&](const SkillEvent&) { calls.push_back(3); });
  bus.publish(event_for(Layer::shared, "", "x"));
  EXPECT_EQ(calls, (std::vector<int>{1, 2, 3}));
}

TEST(EventBus, DestroyedSubscriptionStopsDelivery) {
  EventBus bus;
  Inbox inbox;
  {
    auto s = bus.subscribe(std::nullopt, inbox.handler());
    bus.publish(event_for(Layer::shared, "", "before"));
  }
  bus.publish(event_for(Layer::shared, "", "after"));
  EXPECT_EQ(inbox.names(), std::vector<std::string>{"before"});
}

TEST(EventBus, ResetAndMoveAssignment) {
  EventBus bus;
  Inbox first, second;
  auto s = bus.subscribe(std::nullopt, first.handler());
  s = bus.subscribe(std::nullopt, second.handler()); // drops the first subscription
  bus.publish(event_for(Layer::shared, "", "one"));
  s.reset();
  s.reset(); // idempotent
  bus.publish(event_for(Layer::shared, "", "two"));
  EXPECT_TRUE(first.names().empty());
  EXPECT_EQ(second.names(), std::vector<std::string>{"one"});
}

TEST(EventBus, HandlerMayUnsubscribeItself) {
  EventBus bus;
  int calls = 0;
  EventBus::Subscription self;
  self = bus.subscribe(std::nullopt, [&](const SkillEvent&) {
    ++calls;
    self.reset();
  });
  Inbox later;
  auto other = bus.subscribe(std::nullopt, later.handler());
  bus.publish(event_for(Layer::shared, "", "a"));
  bus.publish(event_for(Layer::shared, "", "b"));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(later.names(), (std::vector<std::string>{"a", "b"}));
}

TEST(EventBus, HandlerMayUnsubscribeALaterSubscriberOfTheSameDelivery) {
  EventBus bus;
  Inbox victim;
  EventBus::Subscription victim_subscription;
  auto killer = bus.subscribe(std::nullopt, [&](const SkillEvent&) { victim_subscription.reset(); });
  victim_subscription = bus.subscribe(std::nullopt, victim.handler());
  bus.publish(event_for(Layer::shared, "", "x"));
  EXPECT_TRUE(victim.names().empty());
}

TEST(EventBus, HandlerMayPublishWithoutDeadlock) {
  EventBus bus;
  Inbox inbox;
  auto echo = bus.subscribe(std::nullopt, [&](const SkillEvent& event) {
    if (event.name == "outer") {
      bus.publish(event_for(Layer::shared, "", "inner"));
    }
  });
  auto recorder = bus.subscribe(std::nullopt, inbox.handler());
  const auto outer = bus.publish(event_for(Layer::shared, "", "outer"));
  // The nested publish is delivered synchronously inside the outer delivery.
  ASSERT_EQ(inbox.names(), (std::vector<std::string>{"inner", "outer"}));
  EXPECT_GT(inbox.events[0].sequence, outer);
}

TEST(EventBus, HandlerMaySubscribeDuringDelivery) {
  EventBus bus;
  Inbox late;
  EventBus::Subscription late_subscription;
  bool late_subscription_is_set = false;
  auto adder = bus.subscribe(std::nullopt, [&](const SkillEvent&) {
    if (!late_subscription_is_set) {
      late_subscription_is_set = true;
      late_subscription = bus.subscribe(std::nullopt, late.handler());
    }
  });
  bus.publish(event_for(Layer::shared, "", "first")); // the new subscriber missed this one
  bus.publish(event_for(Layer::shared, "", "second"));
  EXPECT_EQ(late.names(), std::vector<std::string>{"second"});
}

TEST(EventBus, SubscriptionOutlivesTheBus) {
  Inbox inbox;
  EventBus::Subscription survivor;
  {
    EventBus bus;
    survivor = bus.subscribe("u", inbox.handler());
    bus.publish(event_for(Layer::user, "u", "x"));
  }
  survivor.reset(); // the bus is gone: nothing to unsubscribe from, no crash
  EXPECT_EQ(inbox.names(), std::vector<std::string>{"x"});
}

TEST(EventBus, ConcurrentPublishersLoseNothingAndKeepPerThreadOrder) {
  EventBus bus;
  constexpr int k_threads = 4;
  constexpr int k_per_thread = 500;
  Inbox alice, bob, anonymous;
  auto a = bus.subscribe("alice", alice.handler());
  auto b = bus.subscribe("bob", bob.handler());
  auto n = bus.subscribe(std::nullopt, anonymous.handler());
  std::vector<std::thread> publishers;
  for (int t = 0; t < k_threads; ++t) {
    publishers.emplace_back([&bus, t] {
      const std::string owner = t % 2 == 0 ? "alice" : "bob";
      for (int i = 0; i < k_per_thread; ++i) {
        const Layer layer = i % 3 == 0 ? Layer::shared : Layer::user;
        bus.publish(event_for(layer, layer == Layer::shared ? "" : owner, std::to_string(t) + ":" + std::to_string(i)));
      }
    });
  }
  for (auto& thread : publishers) {
    thread.join();
  }
  const int shared_per_thread = (k_per_thread + 2) / 3;
  const int private_per_thread = k_per_thread - shared_per_thread;
  EXPECT_EQ(anonymous.events.size(), static_cast<std::size_t>(k_threads * shared_per_thread));
  EXPECT_EQ(alice.events.size(), static_cast<std::size_t>(k_threads * shared_per_thread + 2 * private_per_thread));
  EXPECT_EQ(bob.events.size(), alice.events.size());
  for (auto* inbox : {&alice, &bob, &anonymous}) {
    std::map<std::string, std::uint64_t> last_by_thread;
    std::set<std::uint64_t> seen;
    for (const auto& event : inbox->events) {
      EXPECT_TRUE(seen.insert(event.sequence).second) << "sequence delivered twice: " << event.sequence;
      if (event.layer != Layer::shared) {
        EXPECT_EQ(event.owner, inbox == &alice ? "alice" : "bob");
      }
      const std::string thread = event.name.substr(0, event.name.find(':'));
      EXPECT_GT(event.sequence, last_by_thread[thread]);
      last_by_thread[thread] = event.sequence;
    }
  }
}

TEST(EventBus, ConcurrentSubscribeUnsubscribeWhilePublishing) {
  EventBus bus;
  std::atomic<bool> stop{false};
  std::atomic<long> published{0}; // publish() calls that have returned
  std::atomic<long> delivered{0};
  std::thread publisher([&] {
    while (!stop.load()) {
      bus.publish(event_for(Layer::shared, "", "x"));
      published.fetch_add(1);
    }
  });
  // Waits until the publisher has finished `calls` more publish() calls: every
  // call that was already running (and may hold a snapshot naming a handler)
  // has then returned. Counting calls, not yields, keeps the window the same
  // on an idle machine and on a loaded one, where a yield costs a time slice.
  const auto let_publisher_run = [&](long calls) {
    const long target = published.load() + calls;
    while (published.load() < target) {
      std::this_thread::yield();
    }
  };
  long late_calls = 0;
  for (int i = 0; i < 300; ++i) {
    // After reset() the handler must not run any more: the counter it touches
    // lives on this stack frame only until the end of the iteration (ASan
    // would report a late call as a stack-use-after-scope), and a call counted
    // after reset() returned is a late one.
    int local_calls = 0;
    std::mutex local_mutex;
    auto s = bus.subscribe(std::nullopt, [&](const SkillEvent&) {
      std::lock_guard lock(local_mutex);
      ++local_calls;
      delivered.fetch_add(1);
    });
    if (i % 2 == 0) {
      let_publisher_run(1); // half the time the handler is live across a whole publish
    }
    s.reset();
    int after_reset = 0;
    {
      std::lock_guard lock(local_mutex);
      after_reset = local_calls;
    }
    // Any publish that took its snapshot before reset() returned ends within two calls.
    let_publisher_run(2);
    std::lock_guard lock(local_mutex);
    late_calls += local_calls - after_reset;
  }
  // A subscriber that stays is still served while the publisher runs.
  std::atomic<int> kept{0};
  auto stays = bus.subscribe(std::nullopt, [&](const SkillEvent&) { kept.fetch_add(1); });
  bus.publish(event_for(Layer::shared, "", "final"));
  stop = true;
  publisher.join();
  EXPECT_EQ(late_calls, 0);
  EXPECT_GE(kept.load(), 1);
  EXPECT_GT(delivered.load(), 0) << "no handler ever ran while subscribed: the race was never exercised";
}

TEST(EventBus, ResetWaitsForAHandlerRunningOnAnotherThread) {
  EventBus bus;
  std::atomic<bool> entered{false};
  std::atomic<bool> finished{false};
  auto s = bus.subscribe(std::nullopt, [&](const SkillEvent&) {
    entered = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    finished = true;
  });
  std::thread publisher([&] { bus.publish(event_for(Layer::shared, "", "slow")); });
  while (!entered.load()) {
    std::this_thread::yield();
  }
  s.reset();
  EXPECT_TRUE(finished.load());
  publisher.join();
}

TEST(PublishChange, NoBusIsANoOp) {
  // A bus exists in the process but the context has none: nothing reaches it.
  EventBus bus;
  int heard = 0;
  auto s = bus.subscribe(std::nullopt, [&](const SkillEvent&) { ++heard; });
  Context ctx;
  ctx.events = nullptr;
  publish_change(ctx, event_for(Layer::shared, "", "x"));
  EXPECT_EQ(heard, 0);
  // The same event through a context that has the bus is heard: the check above is not vacuous.
  ctx.events = &bus;
  publish_change(ctx, event_for(Layer::shared, "", "x"));
  EXPECT_EQ(heard, 1);
}

TEST(PublishChange, ForwardsToTheContextBus) {
  EventBus bus;
  Inbox inbox;
  auto s = bus.subscribe("u", inbox.handler());
  Context ctx;
  ctx.events = &bus;
  publish_change(ctx, event_for(Layer::user, "u", "mine", ChangeKind::deleted));
  ASSERT_EQ(inbox.events.size(), 1u);
  EXPECT_EQ(inbox.events[0].kind, ChangeKind::deleted);
  EXPECT_EQ(inbox.events[0].layer, Layer::user);
  EXPECT_GT(inbox.events[0].sequence, 0u);
}

} // namespace
} // namespace skillrt::core
