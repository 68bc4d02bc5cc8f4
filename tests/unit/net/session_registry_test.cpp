#include "net/session_registry.hpp"

#include <gtest/gtest.h>

namespace skillrt::net {
namespace {

std::shared_ptr<HttpSession> entry(const std::string& id, mcp::Caller caller) {
  auto session = std::make_shared<HttpSession>();
  session->id = id;
  session->caller = std::move(caller);
  session->hub = std::make_shared<EventHub>();
  return session;
}

const mcp::Caller k_alice{std::string("alice"), "org1"};
const mcp::Caller k_bob{std::string("bob"), "org1"};
const mcp::Caller k_alice_other_org{std::string("alice"), "org2"};
const mcp::Caller k_anonymous{};

TEST(SessionRegistry, SessionAnswersOnlyToItsCreator) {
  SessionRegistry registry(10);
  ASSERT_TRUE(registry.add(entry("s1", k_alice)));
  EXPECT_NE(registry.find("s1", k_alice), nullptr);
  EXPECT_EQ(registry.find("s1", k_bob), nullptr);
  EXPECT_EQ(registry.find("s1", k_alice_other_org), nullptr);
  EXPECT_EQ(registry.find("s1", k_anonymous), nullptr);
  EXPECT_EQ(registry.find("s2", k_alice), nullptr);
  EXPECT_EQ(registry.remove("s1", k_bob), nullptr);
  EXPECT_NE(registry.remove("s1", k_alice), nullptr);
  EXPECT_EQ(registry.find("s1", k_alice), nullptr);
}

TEST(SessionRegistry, BoundedAndNoDuplicateIds) {
  SessionRegistry registry(2);
  EXPECT_TRUE(registry.add(entry("a", k_alice)));
  EXPECT_FALSE(registry.add(entry("a", k_bob)));
  EXPECT_TRUE(registry.add(entry("b", k_bob)));
  EXPECT_FALSE(registry.has_room());
  EXPECT_FALSE(registry.add(entry("c", k_bob)));
  EXPECT_EQ(registry.size(), 2u);
}

TEST(SessionRegistry, IdleSessionsWithoutStreamsAreRemoved) {
  SessionRegistry registry(10);
  auto idle = entry("idle", k_alice);
  auto busy = entry("busy", k_alice);
  registry.add(idle);
  registry.add(busy);
  const std::int64_t now = SessionRegistry::now_ms();
  idle->last_used_ms = now - 5000;
  busy->last_used_ms = now;
  const auto removed = registry.remove_idle(now, 1000);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]->id, "idle");
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.remove_all().size(), 1u);
  EXPECT_EQ(registry.size(), 0u);
}

TEST(SessionRegistry, PerCallerQuotaEvictsThatCallersLeastRecentlyUsed) {
  SessionRegistry registry(100, 2);
  ASSERT_TRUE(registry.add(entry("a1", k_alice)));
  ASSERT_TRUE(registry.add(entry("b1", k_bob)));
  ASSERT_TRUE(registry.add(entry("b2", k_bob)));
  auto b1 = registry.find("b1", k_bob);
  ASSERT_TRUE(b1);
  b1->last_used_ms.store(SessionRegistry::now_ms() + 1000);  // b1 is the most recently used
  std::shared_ptr<HttpSession> evicted;
  ASSERT_TRUE(registry.add(entry("b3", k_bob), &evicted));
  ASSERT_TRUE(evicted);
  EXPECT_EQ(evicted->id, "b2");
  EXPECT_FALSE(registry.find("b2", k_bob));
  EXPECT_TRUE(registry.find("b1", k_bob));
  EXPECT_TRUE(registry.find("a1", k_alice));
  EXPECT_EQ(registry.count_of(k_bob), 2u);
  EXPECT_EQ(registry.count_of(k_alice), 1u);
  // Another org is another caller; anonymous is one caller of its own.
  evicted.reset();
  ASSERT_TRUE(registry.add(entry("x1", k_alice_other_org), &evicted));
  ASSERT_TRUE(registry.add(entry("n1", k_anonymous), &evicted));
  EXPECT_FALSE(evicted);
  EXPECT_EQ(registry.size(), 5u);
  EXPECT_TRUE(registry.remove("b1", k_bob));
  EXPECT_EQ(registry.count_of(k_bob), 1u);
}

}  // namespace
}  // namespace skillrt::net
