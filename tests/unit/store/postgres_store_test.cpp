// PostgreSQL-only behaviour of the SkillStore adapter: connection errors,
// concurrent migrations, crash safety, the server-side search. The behaviour
// both backends share is the conformance suite's.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/store/skill_store.hpp"
#include "store/postgres/pg_migrations.hpp"
#include "store/postgres/postgres_store.hpp"
#include "support/pg_test_db.hpp"

namespace skillrt::store {
namespace {

using core::DbSkill;
using core::NewDbSkill;
using core::SearchDoc;
using core::SkillStore;
using test::PgTestDb;

#define SKILLRT_PG_DB_OR_SKIP(db)        \
  auto db = PgTestDb::create();          \
  if (!db) {                             \
    GTEST_SKIP() << PgTestDb::skip_reason(); \
  }

std::unique_ptr<SkillStore> open_ok(const PgTestDb& db) {
  auto store = open_postgres_store(db.url());
  EXPECT_TRUE(store.has_value()) << (store ? "" : store.error().message);
  return store ? std::move(*store) : nullptr;
}

NewDbSkill skill(const std::string& name, const std::string& description, const std::string& body = "Body text.") {
  return NewDbSkill{name, description, "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body, ""};
}

TEST(PostgresStoreConnect, RefusedConnectionNamesHostAndPortButNeverThePassword) {
  // Port 1 on loopback: nothing listens there, the refusal is immediate.
  auto store = open_postgres_store("postgresql://alice:Sup3rSecretPw@127.0.0.1:1/skills");
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, ErrorCode::io_error);
  EXPECT_NE(store.error().message.find("127.0.0.1:1"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find("PostgreSQL"), std::string::npos) << store.error().message;
  EXPECT_EQ(store.error().message.find("Sup3rSecretPw"), std::string::npos) << store.error().message;
}

TEST(PostgresStoreConnect, MalformedUrlIsInvalidArgumentWithoutThePassword) {
  auto store = open_postgres_store("postgresql://alice:Sup3rSecretPw@127.0.0.1:5432/db?nonsense_option=1");
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code, ErrorCode::invalid_argument) << store.error().message;
  EXPECT_EQ(store.error().message.find("Sup3rSecretPw"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find("alice:***@127.0.0.1"), std::string::npos) << store.error().message;
}

TEST(PostgresStoreMigrations, ReopeningAppliesNothingTwice) {
  SKILLRT_PG_DB_OR_SKIP(db);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(open_ok(*db));
  }
  const std::string latest = std::to_string(pg::latest_schema_version());
  EXPECT_EQ(db->scalar("SELECT count(*) FROM schema_migrations"), latest);
  EXPECT_EQ(db->scalar("SELECT max(version) FROM schema_migrations"), latest);
  EXPECT_EQ(db->scalar("SELECT count(*) FROM pg_indexes WHERE indexname = 'hermes_skills_active_name'"), "1");
  EXPECT_EQ(db->scalar("SELECT count(*) FROM pg_indexes WHERE indexname = 'skill_search_document'"), "1");
}

TEST(PostgresStoreMigrations, NewerSchemaIsRefusedNotDowngraded) {
  SKILLRT_PG_DB_OR_SKIP(db);
  ASSERT_TRUE(open_ok(*db));
  db->scalar("INSERT INTO schema_migrations (version) VALUES (99)");
  auto store = open_postgres_store(db->url());
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::refused);
  EXPECT_NE(store.error().message.find("schema version 99"), std::string::npos) << store.error().message;
}

TEST(PostgresStoreMigrations, StoresOpeningAtOnceMigrateExactlyOnce) {
  SKILLRT_PG_DB_OR_SKIP(db);
  constexpr int k_openers = 4;
  std::vector<std::string> errors(k_openers);
  std::vector<std::thread> threads;
  for (int i = 0; i < k_openers; ++i) {
    threads.emplace_back([&, i] {
      auto store = open_postgres_store(db->url());
      if (!store) {
        errors[static_cast<std::size_t>(i)] = store.error().message;
        return;
      }
      auto made = (*store)->create_skill("u" + std::to_string(i), skill("same-name", "Made by opener."));
      if (!made) {
        errors[static_cast<std::size_t>(i)] = made.error().message;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (const std::string& error : errors) {
    EXPECT_EQ(error, "");
  }
  EXPECT_EQ(db->scalar("SELECT count(*) FROM schema_migrations"), std::to_string(pg::latest_schema_version()));
  EXPECT_EQ(db->scalar("SELECT count(*) FROM hermes_skills"), std::to_string(k_openers));
}

TEST(PostgresStoreConnect, ReconnectsAfterTheServerDroppedAnIdleConnection) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_skill("alice", skill("survivor", "Outlives its connection.")));
  // Ends every other session on the test database: the store's included.
  ASSERT_EQ(db->scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()"),
            "1");
  auto row = store->get_skill("alice", "survivor");
  ASSERT_TRUE(row) << row.error().message;
  EXPECT_TRUE(store->create_skill("alice", skill("after-reconnect", "Written on the new connection.")));
  auto rows = store->list_skills("alice");
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->size(), 2u);
}

TEST(PostgresStoreRows, NamesNoRowCanHaveAreNotFound) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_skill("alice", skill("foo", "Foo.")));
  // "foo\0bar" must not reach the server as "foo" (libpq text ends at NUL).
  for (const std::string& name : {std::string("foo\0bar", 7), std::string("foo\xff"), std::string("../foo")}) {
    auto got = store->get_skill("alice", name);
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, ErrorCode::not_found);
    core::DbSkillUpdate update;
    update.description = "changed";
    auto updated = store->update_skill("alice", name, update);
    ASSERT_FALSE(updated);
    EXPECT_EQ(updated.error().code, ErrorCode::not_found);
    auto deleted = store->delete_skill("alice", name);
    ASSERT_FALSE(deleted);
    EXPECT_EQ(deleted.error().code, ErrorCode::not_found);
  }
  auto foo = store->get_skill("alice", "foo");
  ASSERT_TRUE(foo);
  EXPECT_EQ(foo->version, 1);
}

TEST(PostgresStoreRows, TimestampsAreUtcIsoWithMillisecondsWhateverTheSessionZone) {
  SKILLRT_PG_DB_OR_SKIP(db);
  // A database whose default zone is far from UTC must not shift the answer.
  ASSERT_TRUE(db->scalar("SELECT 1").has_value());
  ASSERT_FALSE(db->scalar("ALTER DATABASE " + db->name() + " SET timezone TO 'Pacific/Kiritimati'").has_value());
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  auto made = store->create_skill("alice", skill("zone-check", "Checks zones."));
  ASSERT_TRUE(made) << made.error().message;
  const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  EXPECT_TRUE(std::regex_match(made->created_at, iso)) << made->created_at;
  EXPECT_EQ(made->created_at, made->updated_at);
  const auto utc_now = db->scalar("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24')");
  ASSERT_TRUE(utc_now.has_value());
  EXPECT_EQ(made->created_at.substr(0, 13), *utc_now);
}

TEST(PostgresStoreRows, TextPostgresCannotHoldIsRefusedNotTruncated) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  NewDbSkill bad_utf8 = skill("bad-bytes", "Bad bytes.", "caf\xe9 au lait");
  auto made = store->create_skill("alice", bad_utf8);
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code, ErrorCode::invalid_argument) << made.error().message;

  NewDbSkill with_nul = skill("nul-byte", "NUL.", std::string("before\0after", 12));
  made = store->create_skill("alice", with_nul);
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code, ErrorCode::invalid_argument) << made.error().message;
  EXPECT_EQ(db->scalar("SELECT count(*) FROM hermes_skills"), "0");
}

TEST(PostgresStoreRows, UniqueViolationIsRefusedAlreadyExists) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_skill("alice", skill("twice", "First.")));
  auto again = store->create_skill("alice", skill("twice", "Second."));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::refused);
  EXPECT_NE(again.error().message.find("already exists"), std::string::npos) << again.error().message;
  // The failed transaction left nothing behind, in the table or the index.
  EXPECT_EQ(db->scalar("SELECT count(*) FROM hermes_skills"), "1");
  EXPECT_EQ(db->scalar("SELECT count(*) FROM skill_search"), "1");
  // And the connection is usable afterwards.
  EXPECT_TRUE(store->create_skill("alice", skill("other", "Other.")));
}

TEST(PostgresStoreSearch, HostileQueriesNeverError) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_skill("alice", skill("deploy-helper", "Deploying services to kubernetes.")));
  const std::vector<std::string> queries = {
      "'); DROP TABLE hermes_skills; --", "a & b | !c <-> d:* ", "\\' \\\\ '' \"\"", "deploy:*A",
      "caf\xe9 \xff\xfe", std::string("nul\0byte deploy", 15), "(((((", "the and of", "日本語 deploy",
      std::string(5000, 'x') + " deploy"};
  for (const std::string& query : queries) {
    auto hits = store->search(std::string_view("alice"), query, 5);
    if (!hits) {
      // The one refusal both backends share: nothing in the text to look for.
      EXPECT_EQ(hits.error().code, ErrorCode::invalid_argument) << query << ": " << hits.error().message;
      EXPECT_EQ(hits.error().message, "search query has no words to look for") << query;
    }
  }
  EXPECT_EQ(db->scalar("SELECT count(*) FROM hermes_skills"), "1");
  // No stop words, as in FTS5: "to" is a word like any other.
  auto stopword = store->search(std::string_view("alice"), "to", 5);
  ASSERT_TRUE(stopword) << stopword.error().message;
  EXPECT_EQ(stopword->size(), 1u);
  auto found = store->search(std::string_view("alice"), "'); deploy", 5);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].name, "deploy-helper");
}

TEST(PostgresStoreSearch, StemsRanksNameFirstAndNormalisesScores) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_skill("alice", skill("notes", "Keeps notes.", "Mentions deployment once.")));
  ASSERT_TRUE(store->create_skill("alice", skill("deploy", "Ships releases.")));
  auto hits = store->search(std::string_view("alice"), "deploying", 5);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 2u);
  EXPECT_EQ((*hits)[0].name, "deploy");  // name (weight A) beats body (weight D)
  EXPECT_EQ((*hits)[0].source, core::Layer::database);
  EXPECT_EQ((*hits)[0].owner, "alice");
  for (const auto& hit : *hits) {
    EXPECT_GT(hit.score, 0.0);
    EXPECT_LT(hit.score, 1.0);
  }
  EXPECT_GT((*hits)[0].score, (*hits)[1].score);
}

TEST(PostgresStoreSearch, FileDocsSyncInBatchesAndStayScoped) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  std::vector<SearchDoc> docs;
  for (int i = 0; i < 1200; ++i) {  // more than one batch
    SearchDoc doc;
    doc.key = "/skills/s" + std::to_string(i) + "/SKILL.md";
    doc.owner = i % 2 == 0 ? "" : "bob";
    doc.source = i % 2 == 0 ? core::Layer::shared : core::Layer::user;
    doc.name = "s" + std::to_string(i);
    doc.description = i == 7 ? "Quoted \"text\" with {braces}, commas and a \\ backslash zebra" : "plain";
    doc.body = "body";
    doc.stamp = "stamp-" + std::to_string(i);
    docs.push_back(doc);
  }
  docs.push_back(docs[0]);
  docs.back().stamp = "stamp-0-again";  // the later copy of a key wins
  ASSERT_TRUE(store->sync_file_docs(docs, {}));
  auto shared = store->file_doc_stamps("");
  ASSERT_TRUE(shared);
  EXPECT_EQ(shared->size(), 600u);
  auto bob = store->file_doc_stamps("bob");
  ASSERT_TRUE(bob);
  ASSERT_EQ(bob->size(), 600u);
  bool saw_again = false;
  for (const auto& stamp : *shared) {
    saw_again = saw_again || stamp.stamp == "stamp-0-again";
  }
  EXPECT_TRUE(saw_again);

  auto zebra = store->search(std::string_view("bob"), "zebra braces", 5);
  ASSERT_TRUE(zebra);
  ASSERT_EQ(zebra->size(), 1u);
  EXPECT_EQ((*zebra)[0].description, docs[7].description);
  auto zebra_alice = store->search(std::string_view("alice"), "zebra", 5);
  ASSERT_TRUE(zebra_alice);
  EXPECT_TRUE(zebra_alice->empty());  // bob's file doc

  ASSERT_TRUE(store->sync_file_docs({}, {docs[1].key, docs[2].key, "db:1"}));
  bob = store->file_doc_stamps("bob");
  ASSERT_TRUE(bob);
  EXPECT_EQ(bob->size(), 599u);

  SearchDoc sneaky = docs[3];
  sneaky.key = "db:1";
  auto refused = store->sync_file_docs({sneaky}, {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
}

// A writer killed with SIGKILL at an arbitrary point (often inside a
// transaction) loses nothing it saw committed, and leaves no row without its
// search document or the other way round.
TEST(PostgresStoreCrash, KilledWriterLosesNothingCommitted) {
  SKILLRT_PG_DB_OR_SKIP(db);
  ASSERT_TRUE(open_ok(*db));  // migrate before forking
  int acks[2];
  ASSERT_EQ(::pipe(acks), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(acks[0]);
    auto store = open_postgres_store(db->url());
    if (!store) {
      ::_exit(3);
    }
    for (int i = 0;; ++i) {
      const std::string name = "crash-" + std::to_string(i);
      if (!(*store)->create_skill("writer", skill(name, "Written before the kill.", std::string(2000, 'b')))) {
        ::_exit(4);
      }
      core::DbSkillUpdate update;
      update.description = "Updated " + std::to_string(i);
      if (!(*store)->update_skill("writer", name, update)) {
        ::_exit(5);
      }
      // Acknowledged only after both commits returned.
      const std::string line = std::to_string(i) + "\n";
      if (::write(acks[1], line.data(), line.size()) < 0) {
        ::_exit(6);
      }
    }
  }
  ::close(acks[1]);
  std::set<int> acked;
  std::string pending;
  char buffer[256];
  while (acked.size() < 25) {
    const ssize_t n = ::read(acks[0], buffer, sizeof buffer);
    if (n <= 0) {
      break;
    }
    pending.append(buffer, static_cast<std::size_t>(n));
    for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
      acked.insert(std::stoi(pending.substr(0, end)));
      pending.erase(0, end + 1);
    }
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(acks[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself, exit " << WEXITSTATUS(status);
  ASSERT_GE(acked.size(), 25u);

  auto store = open_ok(*db);
  ASSERT_TRUE(store);
  for (const int i : acked) {
    auto row = store->get_skill("writer", "crash-" + std::to_string(i));
    ASSERT_TRUE(row) << "lost acknowledged write crash-" << i;
    EXPECT_EQ(row->version, 2);
    EXPECT_EQ(row->description, "Updated " + std::to_string(i));
  }
  EXPECT_EQ(db->scalar("SELECT count(*) FROM hermes_skills h WHERE NOT EXISTS"
                       " (SELECT 1 FROM skill_search s WHERE s.skill_id = h.id)"),
            "0");
  EXPECT_EQ(db->scalar("SELECT count(*) FROM skill_search s JOIN hermes_skills h ON h.id = s.skill_id"
                       " WHERE s.description <> h.description"),
            "0");
  // The store still writes after the crash.
  EXPECT_TRUE(store->create_skill("writer", skill("after-crash", "Still works.")));
}

}  // namespace
}  // namespace skillrt::store
