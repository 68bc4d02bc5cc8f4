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
  bool offer(const std::string& message) override {
    std::lock_guard lock(m_mutex);
    if (m_finished || messages.size() >= m_capacity) {
      return false;
    }
    messages.push_back(message);
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

 private:
  std::mutex m_mutex;
  std::size_t m_capacity;
  bool m_finished = false;
};

TEST(EventHub, NoStreamDropsTheMessage) {
  EventHub hub;
  EXPECT_FALSE(hub.publish("m"));
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
