// Who sees what: two users and an anonymous caller on one server (tools,
// prompts, resources, the Skills extension), notifications that reach only the
// entitled sessions, several threads on one session, and the real watcher.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "core/events/event_bus.hpp"
#include "core/store/skill_store.hpp"
#include "core/watch/skill_watcher.hpp"
#include "store/open_store.hpp"
#include "mcp_harness.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::vector<std::string> listed_names(mcp::Session& session) {
  std::vector<std::string> names;
  const Json result = call_tool(session, "skills_list", Json::object());
  for (const Json& skill : result["structuredContent"]["skills"]) {
    names.push_back(skill["name"]);
  }
  return names;
}

class McpTenancy : public ::testing::Test {
 protected:
  McpTenancy() {
    m_home.shared_skill("common", "common", "Shared by everyone");
    m_home.user_skill("alice", "secret-a", "secret-a", "Alice only");
    m_home.user_skill("bob", "secret-b", "secret-b", "Bob only");
  }
  McpHome m_home;
};

// Replicas on a shared volume: without inotify, the sweep finds an edit
// another machine made, tells only its owner, and labels the event with the
// tree's fingerprint so that replicas noticing the same edit log it once.
TEST(McpSweep, TheSweepAloneFindsAnEditAndTellsOnlyItsOwner) {
  McpHome home(/*watch=*/true);
  home.set_sweep_only(std::chrono::milliseconds(50));
  home.user_skill("alice", "first", "first", "Alice's first");
  std::vector<core::SkillEvent> events;
  std::mutex events_mutex;
  auto seen = home.server().events().subscribe_every_owner([&](const core::SkillEvent& event) {
    std::lock_guard lock(events_mutex);
    events.push_back(event);
  });
  Inbox alice_inbox;
  Inbox bob_inbox;
  auto alice = home.ready("alice", &alice_inbox);
  auto bob = home.ready("bob", &bob_inbox);
  EXPECT_EQ(listed_names(*alice), (std::vector<std::string>{"first"}));

  home.user_skill("alice", "second", "second", "Written by another machine");
  ASSERT_TRUE(alice_inbox.wait_for("notifications/resources/list_changed", std::chrono::seconds(5)));
  EXPECT_EQ(listed_names(*alice), (std::vector<std::string>{"first", "second"}));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(bob_inbox.messages().size(), 0u);
  std::lock_guard lock(events_mutex);
  ASSERT_FALSE(events.empty());
  const core::SkillEvent& event = events.front();
  EXPECT_EQ(event.subject, core::EventSubject::files);
  EXPECT_EQ(event.owner, "alice");
  EXPECT_TRUE(event.dedupe_key.starts_with("files:alice:")) << event.dedupe_key;
}

TEST_F(McpTenancy, EachCallerSeesOnlyTheirLayer) {
  auto alice = m_home.ready("alice");
  auto bob = m_home.ready("bob");
  auto anonymous = m_home.ready();
  EXPECT_EQ(listed_names(*alice), (std::vector<std::string>{"common", "secret-a"}));
  EXPECT_EQ(listed_names(*bob), (std::vector<std::string>{"common", "secret-b"}));
  EXPECT_EQ(listed_names(*anonymous), (std::vector<std::string>{"common"}));

  EXPECT_EQ(call_tool(*alice, "skill_view", Json{{"name", "secret-a"}})["isError"], false);
  EXPECT_EQ(call_tool(*alice, "skill_view", Json{{"name", "secret-b"}})["isError"], true);
  EXPECT_EQ(call_tool(*alice, "skill_view", Json{{"name", "../users/bob/skills/secret-b"}})["isError"], true);
  EXPECT_EQ(call_tool(*anonymous, "skill_view", Json{{"name", "secret-a"}})["isError"], true);

  EXPECT_EQ(result_of(*alice, "resources/read", Json{{"uri", "skill://secret-a/SKILL.md"}})["contents"].size(), 1u);
  EXPECT_EQ(error_code_of(*alice, "resources/read", Json{{"uri", "skill://secret-b/SKILL.md"}}), -32002);
  EXPECT_EQ(error_code_of(*anonymous, "resources/read", Json{{"uri", "skill://secret-a/SKILL.md"}}), -32002);
  EXPECT_EQ(error_code_of(*bob, "skills/get", Json{{"uri", "skill://secret-a/SKILL.md"}}), -32602);

  const Json prompts = result_of(*bob, "prompts/list");
  for (const Json& prompt : prompts["prompts"]) {
    EXPECT_NE(prompt["name"], "secret-a");
  }
  EXPECT_EQ(error_code_of(*bob, "prompts/get", Json{{"name", "secret-a"}}), -32602);
  EXPECT_EQ(result_of(*alice, "skills/list")["skills"].size(), 2u);
  EXPECT_EQ(result_of(*anonymous, "resources/list")["resources"].size(), 1u);
}

TEST_F(McpTenancy, SearchIsScopedToTheCaller) {
  auto bob = m_home.ready("bob");
  Json found = call_tool(*bob, "skills_search", Json{{"query", "Alice only"}})["structuredContent"];
  EXPECT_EQ(found["success"], true) << found.dump();
  for (const Json& hit : found["results"]) {
    EXPECT_NE(hit["name"], "secret-a");
  }
}

TEST_F(McpTenancy, WritesLandInTheCallersLayer) {
  auto alice = m_home.ready("alice", nullptr, "1");
  Json created = call_tool(*alice, "skill_manage",
                           Json{{"action", "create"}, {"name", "mine"}, {"content", skill_md("mine", "Alice's")}});
  EXPECT_EQ(created["isError"], false) << created.dump();
  EXPECT_TRUE(fs::exists(m_home.home() / "users/alice/skills/mine/SKILL.md"));
  auto bob = m_home.ready("bob");
  EXPECT_EQ(call_tool(*bob, "skill_view", Json{{"name", "mine"}})["isError"], true);
  // The permission matrix: only the owner organisation may write shared skills.
  EXPECT_EQ(call_tool(*bob, "skill_manage", Json{{"action", "delete"}, {"name", "common"}})["isError"], true);
  EXPECT_TRUE(fs::exists(m_home.home() / "skills/common/SKILL.md"));
}

TEST_F(McpTenancy, FileChangesNotifyOnlyTheOwner) {
  Inbox alice_inbox;
  Inbox bob_inbox;
  Inbox anon_inbox;
  auto alice = m_home.ready("alice", &alice_inbox);
  auto bob = m_home.ready("bob", &bob_inbox);
  auto anonymous = m_home.ready(std::nullopt, &anon_inbox);
  const fs::path alice_file = m_home.home() / "users/alice/skills/secret-a/SKILL.md";
  m_home.server().notify_changed({alice_file});
  EXPECT_EQ(alice_inbox.count("notifications/resources/list_changed"), 1u);
  EXPECT_EQ(alice_inbox.count("notifications/prompts/list_changed"), 1u);
  EXPECT_EQ(bob_inbox.messages().size(), 0u);
  EXPECT_EQ(anon_inbox.messages().size(), 0u);

  // A per-user file that is not a skill concerns nobody, nor does the user's
  // folder itself (its mode is re-asserted on every request of that user).
  m_home.server().notify_changed({m_home.home() / "users/bob/memory.json"});
  m_home.server().notify_changed({m_home.home() / "users/bob"});
  EXPECT_EQ(bob_inbox.messages().size(), 0u);

  m_home.server().notify_changed({m_home.home() / "skills/common/SKILL.md"});
  EXPECT_EQ(alice_inbox.count("notifications/resources/list_changed"), 2u);
  EXPECT_EQ(bob_inbox.count("notifications/resources/list_changed"), 1u);
  EXPECT_EQ(anon_inbox.count("notifications/resources/list_changed"), 1u);

  m_home.server().notify_store_changed({"bob"});
  EXPECT_EQ(bob_inbox.count("notifications/prompts/list_changed"), 2u);
  EXPECT_EQ(alice_inbox.count("notifications/prompts/list_changed"), 2u);
  EXPECT_EQ(anon_inbox.count("notifications/prompts/list_changed"), 1u);
}

TEST_F(McpTenancy, OwnWritesNotifyOnlyEntitledSessions) {
  Inbox alice_other;
  Inbox bob_inbox;
  auto alice = m_home.ready("alice");
  auto alice_second = m_home.ready("alice", &alice_other);
  auto bob = m_home.ready("bob", &bob_inbox);
  Json created = call_tool(*alice, "skill_manage",
                           Json{{"action", "create"}, {"name", "fresh"}, {"content", skill_md("fresh", "New")}});
  ASSERT_EQ(created["isError"], false) << created.dump();
  EXPECT_GE(alice_other.count("notifications/resources/list_changed"), 1u);
  EXPECT_EQ(bob_inbox.messages().size(), 0u);
  // The other session sees the new skill at once.
  EXPECT_EQ(listed_names(*alice_second), (std::vector<std::string>{"common", "fresh", "secret-a"}));
}

TEST_F(McpTenancy, SubscribedResourcesGetUpdated) {
  Inbox inbox;
  auto alice = m_home.ready("alice", &inbox);
  ASSERT_EQ(result_of(*alice, "resources/subscribe", Json{{"uri", "skill://secret-a/SKILL.md"}}), Json::object());
  m_home.server().notify_changed({m_home.home() / "users/alice/skills/secret-a/SKILL.md"});
  ASSERT_EQ(inbox.count("notifications/resources/updated"), 1u);
  EXPECT_EQ(inbox.messages().back()["params"]["uri"], "skill://secret-a/SKILL.md");
  result_of(*alice, "resources/unsubscribe", Json{{"uri", "skill://secret-a/SKILL.md"}});
  m_home.server().notify_changed({m_home.home() / "users/alice/skills/secret-a/SKILL.md"});
  EXPECT_EQ(inbox.count("notifications/resources/updated"), 1u);
}

TEST_F(McpTenancy, ClosedSessionsGetNothingAndAreNotCounted) {
  Inbox inbox;
  auto alice = m_home.ready("alice", &inbox);
  auto bob = m_home.ready("bob");
  EXPECT_EQ(m_home.server().session_count(), 2u);
  alice->close();
  EXPECT_EQ(m_home.server().session_count(), 1u);
  m_home.server().notify_changed({});
  EXPECT_EQ(inbox.messages().size(), 0u);
  // A closed session still answers.
  EXPECT_EQ(result_of(*alice, "ping"), Json::object());
  bob.reset();
  EXPECT_EQ(m_home.server().session_count(), 0u);
}

void hammer(mcp::Session& session, std::atomic<int>& failures) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&session, &failures, t] {
      for (int i = 0; i < 100; ++i) {
        const Json id = t * 1000 + i;
        Json response;
        switch (i % 3) {
        case 0:
          response = rpc(session, "tools/call",
                         Json{{"name", "skill_view"}, {"arguments", {{"name", "secret-a"}}}}, id);
          break;
        case 1:
          response = rpc(session, "resources/read", Json{{"uri", "skill://common/SKILL.md"}}, id);
          break;
        default:
          response = rpc(session, "prompts/list", Json::object(), id);
          break;
        }
        if (!response.contains("result") || response["id"] != id ||
            (response["result"].contains("isError") && response["result"]["isError"] == true)) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
}

TEST_F(McpTenancy, ConcurrentCallsOnOneSession) {
  auto alice = m_home.ready("alice");
  std::atomic<int> failures{0};
  hammer(*alice, failures);
  EXPECT_EQ(failures.load(), 0);
}

TEST(McpWatch, ConcurrentCallsWithCachedSnapshotsAndChanges) {
  McpHome home(true);
  home.shared_skill("common", "common", "Shared");
  home.user_skill("alice", "secret-a", "secret-a", "Alice only");
  auto alice = home.ready("alice");
  std::atomic<int> failures{0};
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop.load()) {
      home.server().notify_changed({});
      std::this_thread::sleep_for(1ms);
    }
  });
  hammer(*alice, failures);
  stop = true;
  churn.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(McpWatch, ReadsBringNoNotifications) {
  McpHome home(true);
  home.shared_skill("common", "common", "Shared");
  home.user_skill("alice", "secret-a", "secret-a", "Alice only");
  Inbox inbox;
  auto alice = home.ready("alice", &inbox);
  for (int round = 0; round < 3; ++round) {
    listed_names(*alice);
    call_tool(*alice, "skill_view", Json{{"name", "secret-a"}});
    call_tool(*alice, "skills_search", Json{{"query", "alice"}});
    result_of(*alice, "resources/list");
    result_of(*alice, "skills/list");
    // A client re-lists on list_changed: a read that caused one would loop.
    // A window in which nothing may arrive (the watcher's debounce is 50 ms).
    std::this_thread::sleep_for(400ms);
  }
  EXPECT_EQ(inbox.count("notifications/resources/list_changed"), 0u);
}

TEST(McpWatch, AFileChangeOnDiskSendsListChanged) {
  McpHome home(true);
  home.shared_skill("common", "common", "Shared");
  Inbox inbox;
  auto session = home.ready(std::nullopt, &inbox);
  EXPECT_EQ(listed_names(*session), (std::vector<std::string>{"common"}));
  // No pause needed: the server's watcher has armed every root by the time
  // its constructor returns (SkillWatcher::start).
  home.shared_skill("arrived", "arrived", "Written by an editor");
  // Linux has inotify: a missing notification is a failure, never a skip.
  ASSERT_TRUE(inbox.wait_for("notifications/resources/list_changed", 5s)) << "no list_changed within 5 s";
  // The two notifications are separate writes: the prompts one may still be
  // on its way when the resources one has arrived.
  EXPECT_TRUE(inbox.wait_for("notifications/prompts/list_changed", 5s));
  EXPECT_EQ(listed_names(*session), (std::vector<std::string>{"arrived", "common"}));
}
}  // namespace
}  // namespace skillrt::test

namespace skillrt::test {
namespace {

TEST(McpWatch, DatabaseRowsNotifyOnlyTheirOwner) {
  McpHome home(true);
  Inbox alice_inbox;
  Inbox bob_inbox;
  auto alice = home.ready("alice", &alice_inbox);
  auto bob = home.ready("bob", &bob_inbox);
  // Another process writes one of alice's database skills.
  core::Context ctx = home.options().base;
  auto store = store::open_store("", ctx);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  ASSERT_TRUE((*store)->create_skill("alice", core::NewDbSkill{"dbskill", "From the database",
                                                               skill_md("dbskill", "From the database"), ""}));
  ASSERT_TRUE(alice_inbox.wait_for("notifications/prompts/list_changed", 5s)) << "no list_changed within 5 s";
  // A window in which nothing may arrive: one more database poll (1 s), and
  // bob must still hear nothing.
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(bob_inbox.count("notifications/prompts/list_changed"), 0u);
}

TEST_F(McpTenancy, AnonymousNetworkCallerOnlyReads) {
  // `serve --allow-anonymous` without a token: not the CLI's trusted
  // single-user mode. Writing the shared layer would inject into every
  // tenant's prompts.
  auto anonymous = m_home.server().open_session(mcp::Caller{std::nullopt, "", true}, mcp::MessageSink());
  ASSERT_TRUE(anonymous->handle(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"));
  EXPECT_EQ(listed_names(*anonymous), (std::vector<std::string>{"common"}));
  const Json created = call_tool(*anonymous, "skill_manage",
                                 Json{{"action", "create"},
                                      {"name", "evil"},
                                      {"content", "---\nname: evil\ndescription: d\n---\nBody\n"}});
  EXPECT_EQ(created["isError"], true) << created.dump();
  EXPECT_FALSE(fs::exists(m_home.home() / "skills" / "evil"));
  const Json patched = call_tool(
      *anonymous, "skill_manage",
      Json{{"action", "patch"}, {"name", "common"}, {"old_string", "Shared"}, {"new_string", "Owned"}});
  EXPECT_EQ(patched["isError"], true) << patched.dump();
  const Json removed = call_tool(*anonymous, "skill_manage", Json{{"action", "delete"}, {"name", "common"}});
  EXPECT_EQ(removed["isError"], true) << removed.dump();
  EXPECT_TRUE(fs::exists(m_home.home() / "skills" / "common" / "SKILL.md"));
}

TEST_F(McpTenancy, OneSubscriptionPerFileWhateverTheSpelling) {
  Inbox inbox;
  auto alice = m_home.ready("alice", &inbox);
  for (const char* uri : {"skill://common/SKILL.md", "skill://common/%53KILL.md", "skill://common/SKILL%2Emd"}) {
    rpc(*alice, "resources/subscribe", Json{{"uri", uri}});
  }
  inbox.clear();
  // notify_changed delivers to the sessions before it returns.
  m_home.server().notify_changed({m_home.home() / "skills" / "common" / "SKILL.md"});
  int updated = 0;
  for (const Json& message : inbox.messages()) {
    updated += message["method"] == "notifications/resources/updated" ? 1 : 0;
  }
  EXPECT_EQ(updated, 1);
}

}  // namespace
}  // namespace skillrt::test
