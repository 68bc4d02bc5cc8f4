#include "api/event_feed.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace skillrt::api {
namespace {

core::SkillEvent skill_event(core::Layer layer, std::string owner, std::string name,
                             core::ChangeKind kind = core::ChangeKind::updated) {
  core::SkillEvent event;
  event.kind = kind;
  event.layer = layer;
  event.owner = std::move(owner);
  event.name = std::move(name);
  return event;
}

struct Inbox {
  std::vector<nlohmann::json> messages;
  EventFeed::Sink sink() {
    return [this](std::string text) { messages.push_back(nlohmann::json::parse(text)); };
  }
  std::vector<std::string> described() const {
    std::vector<std::string> out;
    for (const auto& m : messages) {
      out.push_back(m.at("type").get<std::string>() + ":" + m.value("name", m.value("id", "")));
    }
    return out;
  }
};

TEST(EventFeed, DeliversByTheTenancyRuleWithRisingNumbers) {
  core::EventBus bus;
  EventFeed feed(bus, 100);
  Inbox alice, bob, anonymous;
  auto a = feed.subscribe("alice", std::nullopt, alice.sink());
  auto b = feed.subscribe("bob", std::nullopt, bob.sink());
  auto n = feed.subscribe(std::nullopt, std::nullopt, anonymous.sink());
  bus.publish(skill_event(core::Layer::user, "alice", "alice-skill", core::ChangeKind::created));
  bus.publish(skill_event(core::Layer::database, "bob", "bob-row"));
  bus.publish(skill_event(core::Layer::shared, "", "common", core::ChangeKind::deleted));
  core::SkillEvent proposal;
  proposal.subject = core::EventSubject::proposal;
  proposal.kind = core::ChangeKind::created;
  proposal.layer = core::Layer::user;
  proposal.owner = "alice";
  proposal.name = "alice-skill";
  proposal.location = "p-1";
  proposal.detail = "pending";
  bus.publish(proposal);

  EXPECT_EQ(alice.described(), (std::vector<std::string>{"hello:", "skill.created:alice-skill",
                                                         "skill.deleted:common", "proposal.created:p-1"}));
  EXPECT_EQ(bob.described(), (std::vector<std::string>{"hello:", "skill.updated:bob-row", "skill.deleted:common"}));
  EXPECT_EQ(anonymous.described(), (std::vector<std::string>{"hello:", "skill.deleted:common"}));
  EXPECT_EQ(alice.messages[3].at("state"), "pending");
  EXPECT_EQ(alice.messages[1].at("seq"), 1);
  EXPECT_EQ(alice.messages[2].at("seq"), 3);
  EXPECT_EQ(feed.last_sequence(), 4u);
}

TEST(EventFeed, ResumingReplaysOnlyWhatTheUserMissed) {
  core::EventBus bus;
  EventFeed feed(bus, 100);
  bus.publish(skill_event(core::Layer::user, "alice", "one"));
  bus.publish(skill_event(core::Layer::user, "bob", "bobs"));
  bus.publish(skill_event(core::Layer::user, "alice", "two"));
  Inbox alice;
  auto a = feed.subscribe("alice", 1, alice.sink());
  EXPECT_EQ(alice.described(), (std::vector<std::string>{"hello:", "skill.updated:two"}));
  EXPECT_EQ(alice.messages[0].at("seq"), 3);
  Inbox current;
  auto c = feed.subscribe("alice", 3, current.sink());
  EXPECT_EQ(current.described(), (std::vector<std::string>{"hello:"}));
}

TEST(EventFeed, AGapBeyondTheHistoryOrAFutureNumberIsAResync) {
  core::EventBus bus;
  EventFeed feed(bus, 2);
  for (const char* name : {"a", "b", "c", "d"}) {
    bus.publish(skill_event(core::Layer::shared, "", name));
  }
  Inbox late, ahead, edge;
  auto l = feed.subscribe("alice", 1, late.sink());
  EXPECT_EQ(late.described(), (std::vector<std::string>{"hello:", "resync:"}));
  auto h = feed.subscribe("alice", 99, ahead.sink());
  EXPECT_EQ(ahead.described(), (std::vector<std::string>{"hello:", "resync:"}));
  auto e = feed.subscribe("alice", 2, edge.sink());  // 3 and 4 are still kept
  EXPECT_EQ(edge.described(), (std::vector<std::string>{"hello:", "skill.updated:c", "skill.updated:d"}));
}

TEST(EventFeed, NothingArrivesAfterResetAndConcurrentPublishersKeepOrder) {
  core::EventBus bus;
  EventFeed feed(bus, 10'000);
  std::vector<std::uint64_t> seen;
  auto subscription = feed.subscribe("alice", std::nullopt, [&](std::string text) {
    seen.push_back(nlohmann::json::parse(text).at("seq").get<std::uint64_t>());
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&bus] {
      for (int i = 0; i < 500; ++i) {
        bus.publish(skill_event(core::Layer::shared, "", "x"));
      }
    });
  }
  for (auto& writer : writers) {
    writer.join();
  }
  ASSERT_EQ(seen.size(), 2001u);  // hello + 2000
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i], i) << "event " << i << " out of order";
  }
  EXPECT_EQ(feed.subscriber_count(), 1u);
  subscription.reset();
  EXPECT_EQ(feed.subscriber_count(), 0u);
  bus.publish(skill_event(core::Layer::shared, "", "after"));
  EXPECT_EQ(seen.size(), 2001u);
}

}  // namespace
}  // namespace skillrt::api
