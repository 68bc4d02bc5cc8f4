// What only the SQLite adapter has: its file, pragmas, migrations and the
// errors a broken, locked, foreign or too-new file gives.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "store/open_store.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_schema.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::store {
namespace {

core::NewDbSkill tiny(const std::string& name) {
  core::NewDbSkill skill;
  skill.name = name;
  skill.content = "---\nname: " + name + "\ndescription: d\n---\nBody.\n";
  return skill;
}

std::string scalar(sqlite::Connection& conn, const std::string& sql) {
  auto q = conn.prepare(sql);
  EXPECT_TRUE(q) << (q ? "" : q.error().message);
  if (!q)
    return {};
  auto row = q->step();
  EXPECT_TRUE(row);
  return row && *row ? q->text(0) : std::string();
}

TEST(SqliteStore, DefaultLocationIsHomeSkillrtDb) {
  test::TempTree tree;
  core::Context ctx;
  ctx.home = tree.path() / "fresh-home"; // not there yet
  auto opened = open_store("", ctx);
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_STREQ((*opened)->backend(), "sqlite");
  EXPECT_TRUE(std::filesystem::exists(ctx.home / "skillrt.db"));
  struct stat st {};
  ASSERT_EQ(::stat((ctx.home / "skillrt.db").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U); // every user's database skills live here
  auto prefixed = open_store("sqlite:" + (tree.path() / "other.db").string(), ctx);
  ASSERT_TRUE(prefixed) << prefixed.error().message;
  EXPECT_TRUE(std::filesystem::exists(tree.path() / "other.db"));
  EXPECT_FALSE(open_store("sqlite:", ctx));
}

TEST(SqliteStore, SchemaPragmasAndMigrations) {
  test::TempTree tree;
  const auto path = tree.path() / "s.db";
  ASSERT_TRUE(open_sqlite_store(path));
  ASSERT_TRUE(open_sqlite_store(path)); // a second open applies nothing twice
  auto conn = sqlite::Connection::open(path);
  ASSERT_TRUE(conn);
  EXPECT_EQ(scalar(**conn, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(scalar(**conn, "PRAGMA foreign_keys"), "1");
  EXPECT_EQ(scalar(**conn, "PRAGMA busy_timeout"), "5000");
  EXPECT_EQ(scalar(**conn, "SELECT count(*) FROM schema_migrations"), std::to_string(sqlite::latest_schema_version()));
  EXPECT_EQ(scalar(**conn, "SELECT count(*) FROM sqlite_master WHERE name = 'hermes_skills' AND type = 'table'"), "1");
  EXPECT_EQ(scalar(**conn, "SELECT count(*) FROM sqlite_master WHERE name = 'skill_search'"), "1");
  // The partial unique index is what the database itself enforces.
  EXPECT_NE(scalar(**conn, "SELECT sql FROM sqlite_master WHERE name = 'hermes_skills_active_name'").find("WHERE"),
            std::string::npos);
}

TEST(SqliteStore, NewerSchemaIsRefused) {
  test::TempTree tree;
  const auto path = tree.path() / "s.db";
  ASSERT_TRUE(open_sqlite_store(path));
  {
    auto conn = sqlite::Connection::open(path);
    ASSERT_TRUE(conn);
    ASSERT_TRUE((*conn)->exec("INSERT INTO schema_migrations (version, applied_at) VALUES (999, 'future')"));
  }
  auto opened = open_sqlite_store(path);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::refused);
  EXPECT_NE(opened.error().message.find("schema version 999"), std::string::npos) << opened.error().message;
  EXPECT_NE(opened.error().message.find("newer"), std::string::npos);
}

TEST(SqliteStore, CorruptFileIsAClearError) {
  test::TempTree tree;
  const auto path = tree.write("junk.db", std::string(8192, 'J'));
  auto opened = open_sqlite_store(path);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::io_error);
  EXPECT_NE(opened.error().message.find("corrupt or not a skillrt database"), std::string::npos)
      << opened.error().message;
}

TEST(SqliteStore, MissingFolderIsAClearError) {
  test::TempTree tree;
  auto opened = open_sqlite_store(tree.path() / "no" / "such" / "dir" / "s.db");
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::io_error);
  EXPECT_NE(opened.error().message.find("cannot open"), std::string::npos) << opened.error().message;
}

// Opening a database the process may not write gives a clear io_error. Root
// ignores permissions, so as root the attempt runs in a child that became
// `nobody` first.
TEST(SqliteStore, ReadOnlyFileIsAClearError) {
  test::TempTree tree;
  const auto dir = tree.mkdir("ro");
  ASSERT_TRUE(open_sqlite_store(dir / "s.db"));
  ::chmod(tree.path().c_str(), 0755);
  ::chmod((dir / "s.db").c_str(), 0444);
  ::chmod(dir.c_str(), 0555);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
      ::_exit(3);
    auto opened = open_sqlite_store(dir / "s.db");
    const std::string report = opened ? std::string("opened") : opened.error().message;
    if (::write(fds[1], report.data(), report.size()) < 0)
      ::_exit(4);
    ::_exit(!opened && opened.error().code == ErrorCode::io_error ? 0 : 1);
  }
  ::close(fds[1]);
  std::string report;
  char buffer[1024];
  ssize_t n = 0;
  while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0)
    report.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::chmod(dir.c_str(), 0700);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << report;
  EXPECT_TRUE(report.find("read-only") != std::string::npos || report.find("cannot open") != std::string::npos)
      << report;
}

TEST(SqliteStore, LockedDatabaseGivesUpAfterTheBusyTimeout) {
  test::TempTree tree;
  const auto path = tree.path() / "s.db";
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store);
  auto holder = sqlite::Connection::open(path);
  ASSERT_TRUE(holder);
  auto tx = sqlite::Transaction::begin(**holder);
  ASSERT_TRUE(tx);
  const auto start = std::chrono::steady_clock::now();
  auto created = (*store)->create_skill("alice", tiny("blocked"));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, ErrorCode::io_error);
  EXPECT_NE(created.error().message.find("locked"), std::string::npos) << created.error().message;
  EXPECT_GE(waited, std::chrono::milliseconds(sqlite::k_busy_timeout_ms - 500));
  // Reads still work under WAL while a writer holds the lock.
  EXPECT_TRUE((*store)->list_skills("alice"));
}

TEST(SqliteStore, WaitingWriterGetsInWhenTheLockIsReleased) {
  test::TempTree tree;
  const auto path = tree.path() / "s.db";
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store);
  auto holder = sqlite::Connection::open(path);
  ASSERT_TRUE(holder);
  std::optional<sqlite::Transaction> tx;
  {
    auto begun = sqlite::Transaction::begin(**holder);
    ASSERT_TRUE(begun);
    tx.emplace(std::move(*begun));
  }
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_TRUE(tx->commit());
  });
  auto created = (*store)->create_skill("alice", tiny("patient"));
  release.join();
  EXPECT_TRUE(created) << created.error().message;
}

// Words held by at least half of the documents weigh almost nothing (bm25
// floors their IDF), and the adapter keeps each word's postings in memory
// between searches; neither may change what a search returns.
core::SearchDoc shared_doc(const std::string& key, const std::string& name, const std::string& body) {
  core::SearchDoc doc;
  doc.key = "/skills/" + key + "/SKILL.md";
  doc.source = core::Layer::shared;
  doc.name = name;
  doc.description = "a skill";
  doc.body = body;
  return doc;
}

std::vector<std::string> hit_names(const Result<std::vector<core::SearchHit>>& hits) {
  std::vector<std::string> names;
  if (hits) {
    for (const core::SearchHit& hit : *hits) {
      names.push_back(hit.name);
    }
  }
  return names;
}

TEST(SqliteStore, WordsInMostDocumentsDoNotChangeTheResults) {
  test::TempTree tree;
  const auto path = tree.path() / "s.db";
  auto opened = open_sqlite_store(path);
  ASSERT_TRUE(opened) << opened.error().message;
  core::SkillStore& store = **opened;
  std::vector<core::SearchDoc> docs;
  for (int i = 0; i < 10; ++i) {
    docs.push_back(shared_doc("c" + std::to_string(i), "common" + std::to_string(i), "check the logs"));
  }
  docs.push_back(shared_doc("d1", "deploy", "check the logs"));
  docs.push_back(shared_doc("d2", "rollout", "check, then deploy"));
  ASSERT_TRUE(store.sync_file_docs(docs, {}));

  // "check" is in every document: the two holding "deploy" come first, the
  // name hit before the body hit, with the score of "deploy" alone.
  auto both = store.search(std::nullopt, "deploy check", 2);
  ASSERT_TRUE(both) << both.error().message;
  EXPECT_EQ(hit_names(both), (std::vector<std::string>{"deploy", "rollout"}));
  auto alone = store.search(std::nullopt, "deploy", 2);
  ASSERT_TRUE(alone) << alone.error().message;
  ASSERT_EQ(alone->size(), 2U);
  EXPECT_NEAR((*both)[0].score, (*alone)[0].score, 1e-3);
  EXPECT_NEAR((*both)[1].score, (*alone)[1].score, 1e-3);
  // A window wider than the rows holding "deploy" is filled, as before, with
  // rows holding only "check".
  EXPECT_EQ(store.search(std::nullopt, "deploy check", 5)->size(), 5U);
  EXPECT_EQ(store.search(std::nullopt, "check", 50)->size(), 12U);

  // Another connection makes "deploy" the common word and "check" the rare
  // one: the counts cached above must not be used any more.
  {
    auto other = open_sqlite_store(path);
    ASSERT_TRUE(other) << other.error().message;
    std::vector<core::SearchDoc> more;
    for (int i = 0; i < 30; ++i) {
      more.push_back(shared_doc("m" + std::to_string(i), "more" + std::to_string(i), "deploy it"));
    }
    ASSERT_TRUE((*other)->sync_file_docs(more, {}));
  }
  auto after = store.search(std::nullopt, "deploy check", 5);
  ASSERT_TRUE(after) << after.error().message;
  ASSERT_EQ(after->size(), 5U);
  for (const core::SearchHit& hit : *after) { // the rare word's rows, not the 30 new ones
    EXPECT_NE(hit.name.rfind("more", 0), 0U) << hit.name;
  }

  // This connection's own write brings the first state back.
  std::vector<std::string> gone;
  for (int i = 0; i < 30; ++i) {
    gone.push_back("/skills/m" + std::to_string(i) + "/SKILL.md");
  }
  ASSERT_TRUE(store.sync_file_docs({}, gone));
  EXPECT_EQ(hit_names(store.search(std::nullopt, "deploy check", 2)), (std::vector<std::string>{"deploy", "rollout"}));
}

} // namespace
} // namespace skillrt::store
