#include "net/event_hub.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace skillrt::net {
namespace {

// A stream that keeps what it is offered, up to `capacity` messages (then
// it refuses, like an SseStream whose client lags).
class KeepingStream final : public EventStream {
 public:
  explicit KeepingStream(std::size_t capacity = 1000) : m_capacity(capacity) {}
  bool offer(const std::string& message, const std::string& event_id) override {
    std::lock_guard lock(m_mutex);
    if (m_finished || messages.size() >= m_capacity) {
      return false;
    }
    messages.push_back(message);
    ids.push_back(event_id);
    return true;
  }
  void finish() override {
    std::lock_guard lock(m_mutex);
    m_finished = true;
  }
  bool finished() {
    std::lock_guard lock(m_mutex);
    return m_finished;
  }
  std::vector<std::string> messages;
  std::vector<std::string> ids;

 private:
  std::mutex m_mutex;
  std::size_t m_capacity;
  bool m_finished = false;
};

TEST(EventHub, NoStreamTakesTheMessage) {
  EventHub hub;
  EXPECT_FALSE(hub.publish("m"));
}

TEST(EventHub, ReconnectingWithTheLastEventIdReplaysWhatWasMissed) {
  EventHub hub;
  auto first = std::make_shared<KeepingStream>();
  ASSERT_TRUE(hub.attach(first));
  hub.publish("m1");
  hub.publish("m2");
  ASSERT_EQ(first->ids.size(), 2u);
  EXPECT_NE(first->ids[0], first->ids[1]);
  const std::string seen = first->ids[0];  // the client saw m1 only, then lost the stream
  hub.detach(first.get());
  EXPECT_FALSE(hub.publish("m3"));  // no stream open: kept for replay
  auto again = std::make_shared<KeepingStream>();
  const EventHub::Resumed resumed = hub.attach_after(again, seen);
  EXPECT_TRUE(resumed.attached);
  EXPECT_TRUE(resumed.replayed);
  EXPECT_EQ(again->messages, (std::vector<std::string>{"m2", "m3"}));
  EXPECT_EQ(again->ids[0], first->ids[1]);  // the same ids as the first time
  hub.publish("m4");
  EXPECT_EQ(again->messages.back(), "m4");
  // Resuming from the newest id replays nothing, and is still a resume.
  auto newest = std::make_shared<KeepingStream>();
  EXPECT_TRUE(hub.attach_after(newest, again->ids.back()).replayed);
  EXPECT_TRUE(newest->messages.empty());
}

TEST(EventHub, AnIdItCannotResumeFromAsksForAResync) {
  EventHub hub;
  EventHub other;  // another replica's hub for the same session
  auto there = std::make_shared<KeepingStream>();
  ASSERT_TRUE(other.attach(there));
  other.publish("x");
  for (const std::string& id : {there->ids[0], std::string("garbage"), std::string("-"), std::string("")}) {
    auto stream = std::make_shared<KeepingStream>();
    const EventHub::Resumed resumed = hub.attach_after(stream, id);
    EXPECT_TRUE(resumed.attached) << id;
    EXPECT_FALSE(resumed.replayed) << id;
    EXPECT_TRUE(stream->messages.empty()) << id;
  }
  // Older than what is kept: the messages in between are gone.
  auto first = std::make_shared<KeepingStream>();
  hub.attach(first);
  hub.publish("m0");
  const std::string oldest = first->ids[0];
  hub.detach(first.get());
  for (std::size_t i = 0; i < EventHub::k_replay_messages + 1; ++i) {
    hub.publish("m");
  }
  auto late = std::make_shared<KeepingStream>();
  EXPECT_FALSE(hub.attach_after(late, oldest).replayed);
  EXPECT_TRUE(late->messages.empty());
  // An id from this hub's future is not one it gave.
  auto future = std::make_shared<KeepingStream>();
  const std::string epoch = oldest.substr(0, oldest.rfind('-'));
  EXPECT_FALSE(hub.attach_after(future, epoch + "-999999").replayed);
}

TEST(EventHub, EachMessageGoesToExactlyOneStreamInTurn) {
  EventHub hub;
  auto a = std::make_shared<KeepingStream>();
  auto b = std::make_shared<KeepingStream>();
  ASSERT_TRUE(hub.attach(a));
  ASSERT_TRUE(hub.attach(b));
  for (int i = 0; i < 6; ++i) {
    EXPECT_TRUE(hub.publish("m" + std::to_string(i)));
  }
  EXPECT_EQ(a->messages, (std::vector<std::string>{"m0", "m2", "m4"}));
  EXPECT_EQ(b->messages, (std::vector<std::string>{"m1", "m3", "m5"}));
}

TEST(EventHub, RefusingOrVanishedStreamsAreSkippedAndForgotten) {
  EventHub hub;
  auto full = std::make_shared<KeepingStream>(0);
  auto good = std::make_shared<KeepingStream>();
  auto gone = std::make_shared<KeepingStream>();
  hub.attach(full);
  hub.attach(gone);
  hub.attach(good);
  gone.reset();
  EXPECT_TRUE(hub.publish("x"));
  EXPECT_EQ(good->messages, std::vector<std::string>{"x"});
  EXPECT_EQ(hub.stream_count(), 1u);
}

TEST(EventHub, DetachAndShut) {
  EventHub hub;
  auto a = std::make_shared<KeepingStream>();
  auto b = std::make_shared<KeepingStream>();
  hub.attach(a);
  hub.attach(b);
  hub.detach(a.get());
  EXPECT_EQ(hub.stream_count(), 1u);
  hub.shut();
  EXPECT_TRUE(b->finished());
  EXPECT_FALSE(a->finished());
  EXPECT_FALSE(hub.publish("late"));
  auto c = std::make_shared<KeepingStream>();
  EXPECT_FALSE(hub.attach(c));
  EXPECT_TRUE(c->finished());
}

TEST(EventHub, ConcurrentPublishersLoseNothing) {
  EventHub hub;
  auto a = std::make_shared<KeepingStream>(100000);
  auto b = std::make_shared<KeepingStream>(100000);
  hub.attach(a);
  hub.attach(b);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        hub.publish("m");
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(a->messages.size() + b->messages.size(), 4000u);
  EXPECT_EQ(a->messages.size(), 2000u);
}

TEST(EventHub, StreamCapFinishesTheOldest) {
  EventHub hub;
  auto a = std::make_shared<KeepingStream>();
  auto b = std::make_shared<KeepingStream>();
  auto c = std::make_shared<KeepingStream>();
  ASSERT_TRUE(hub.attach(a, 2));
  ASSERT_TRUE(hub.attach(b, 2));
  ASSERT_TRUE(hub.attach(c, 2));
  EXPECT_TRUE(a->finished());
  EXPECT_FALSE(b->finished());
  EXPECT_FALSE(c->finished());
  EXPECT_EQ(hub.stream_count(), 2u);
  EXPECT_TRUE(hub.publish("m"));
  EXPECT_TRUE(hub.publish("n"));
  EXPECT_TRUE(a->messages.empty());
  EXPECT_EQ(b->messages.size() + c->messages.size(), 2u);
}

}  // namespace
}  // namespace skillrt::net
