// MCP sessions shared by replicas, over a real PostgreSQL (issue 4/6).
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "store/postgres/postgres_session_store.hpp"
#include "support/pg_test_db.hpp"

namespace skillrt {
namespace {

using test::PgTestDb;

#define SKILLRT_PG_DB_OR_SKIP(db)            \
  auto db = PgTestDb::create();              \
  if (!db) {                                 \
    GTEST_SKIP() << PgTestDb::skip_reason(); \
  }

core::StoredSession alice_session() {
  core::StoredSession session;
  session.id = "9f2c0d7e4a1b4c3d8e5f6a7b8c9d0e1f";
  session.user_id = "alice";
  session.org_id = "acme";
  session.protocol_version = "2025-11-25";
  session.log_level = 3;
  // URIs and paths with the characters an encoding could trip on.
  session.subscriptions = {{"skill://devops/deploy/SKILL.md", "/srv/home/skills/devops/deploy/SKILL.md"},
                           {"skill://odd/a%3Ab/SKILL.md", "/srv/home/skills/odd/a:b\nc/12:x/SKILL.md"}};
  return session;
}

TEST(PostgresSessionStore, SavedSessionsComeBackWholeAndOnlyByTheirId) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = store::open_postgres_session_store(db->url());
  ASSERT_TRUE(store) << store.error().message;
  const core::StoredSession saved = alice_session();
  ASSERT_TRUE((*store)->save(saved));
  auto loaded = (*store)->load(saved.id);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_TRUE(*loaded);
  EXPECT_EQ((*loaded)->user_id, saved.user_id);
  EXPECT_EQ((*loaded)->org_id, "acme");
  EXPECT_FALSE((*loaded)->anonymous);
  EXPECT_EQ((*loaded)->protocol_version, "2025-11-25");
  EXPECT_EQ((*loaded)->log_level, 3);
  EXPECT_EQ((*loaded)->subscriptions, saved.subscriptions);
  EXPECT_FALSE(*(*store)->load(saved.id + "x")) << "another id";
  EXPECT_EQ(db->scalar("SELECT count(*) FROM mcp_sessions WHERE id_hash = '" + saved.id + "'"), "0")
      << "the id itself is never stored";

  // Saving again replaces the state.
  core::StoredSession changed = saved;
  changed.log_level = -1;
  changed.subscriptions.clear();
  ASSERT_TRUE((*store)->save(changed));
  EXPECT_EQ((*(*store)->load(saved.id))->subscriptions.size(), 0u);
  EXPECT_EQ(db->scalar("SELECT count(*) FROM mcp_sessions"), "1");

  // An anonymous single-user session has no user.
  core::StoredSession anonymous;
  anonymous.id = "anon-session";
  anonymous.anonymous = true;
  anonymous.protocol_version = "2025-03-26";
  ASSERT_TRUE((*store)->save(anonymous));
  EXPECT_FALSE((*(*store)->load("anon-session"))->user_id.has_value());
  EXPECT_TRUE((*(*store)->load("anon-session"))->anonymous);

  ASSERT_TRUE((*store)->remove(saved.id));
  EXPECT_FALSE(*(*store)->load(saved.id));
}

TEST(PostgresSessionStore, PruneRemovesOnlySessionsUnusedForTheIdleTime) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = store::open_postgres_session_store(db->url());
  ASSERT_TRUE(store);
  core::StoredSession old_one = alice_session();
  old_one.id = "old";
  core::StoredSession fresh = alice_session();
  fresh.id = "fresh";
  ASSERT_TRUE((*store)->save(old_one));
  ASSERT_TRUE((*store)->save(fresh));
  db->scalar("UPDATE mcp_sessions SET last_used_at = now() - interval '2 hours' RETURNING 1");
  ASSERT_TRUE((*store)->touch("fresh"));
  auto removed = (*store)->prune(std::chrono::seconds(3600));
  ASSERT_TRUE(removed) << removed.error().message;
  EXPECT_EQ(*removed, 1u);
  EXPECT_FALSE(*(*store)->load("old"));
  EXPECT_TRUE(*(*store)->load("fresh"));
}

TEST(PostgresSessionStore, MalformedStoredSubscriptionsAreAnErrorNotACrash) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = store::open_postgres_session_store(db->url());
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->save(alice_session()));
  for (const char* bad : {"99999:short", "3:abc", "x:y", "5:abcde4:ab"}) {
    db->scalar(std::string("UPDATE mcp_sessions SET subscriptions = '") + bad + "' RETURNING 1");
    auto loaded = (*store)->load(alice_session().id);
    ASSERT_FALSE(loaded) << bad;
    EXPECT_EQ(loaded.error().code, ErrorCode::parse_error);
  }
}

}  // namespace
}  // namespace skillrt
