// One store database per test, on either backend: the SQLite adapter on a temp
// file, or the PostgreSQL adapter on a throw-away database of the test cluster
// (SKILLRT_TEST_PG_URL; skipped without it unless SKILLRT_REQUIRE_PG=1).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/store/skill_store.hpp"
#include "core/store/token_store.hpp"
#include "skillrt/result.hpp"
#include "store/open_store.hpp"
#include "store/postgres/postgres_store.hpp"
#include "store/postgres/postgres_token_store.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "store/sqlite/sqlite_token_store.hpp"
#include "support/pg_test_db.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {

class StoreEnv {
public:
  virtual ~StoreEnv() = default;
  virtual const char* backend() const = 0;
  // A new store object (its own connection) on the test's database.
  virtual Result<std::unique_ptr<core::SkillStore>> open() = 0;
  // The location open_store() takes for this database.
  virtual std::string location() const = 0;
  // Rows of (user, name) with is_active false, read directly from the table.
  virtual std::optional<std::int64_t> inactive_rows(const std::string& user, const std::string& name) = 0;
  // Rows of (user, name), any state.
  virtual std::optional<std::int64_t> all_rows(const std::string& user, const std::string& name) = 0;
  // "ok" when the engine's own consistency check passes; nullopt when it has none.
  virtual std::optional<std::string> integrity() = 0;
  // A new token store object (its own connection) on the test's database.
  virtual Result<std::unique_ptr<core::TokenStore>> open_tokens() = 0;
  // The first column of the first row of test-written `sql`, run directly on
  // the database (writes allowed); nullopt on error or no row.
  virtual std::optional<std::string> scalar(const std::string& sql) = 0;
};

class SqliteEnv final : public StoreEnv {
public:
  const char* backend() const override { return "sqlite"; }
  Result<std::unique_ptr<core::SkillStore>> open() override { return store::open_sqlite_store(path()); }
  std::string location() const override { return path().string(); }
  std::optional<std::int64_t> inactive_rows(const std::string& user, const std::string& name) override {
    auto rows = store::sqlite_rows_named(path(), user, name);
    if (!rows)
      return std::nullopt;
    std::int64_t n = 0;
    for (const auto& row : *rows)
      n += row.is_active ? 0 : 1;
    return n;
  }
  std::optional<std::int64_t> all_rows(const std::string& user, const std::string& name) override {
    auto rows = store::sqlite_rows_named(path(), user, name);
    if (!rows)
      return std::nullopt;
    return static_cast<std::int64_t>(rows->size());
  }
  std::optional<std::string> integrity() override {
    auto report = store::sqlite_integrity_check(path());
    return report ? *report : "error: " + report.error().message;
  }
  Result<std::unique_ptr<core::TokenStore>> open_tokens() override { return store::open_sqlite_token_store(path()); }
  std::optional<std::string> scalar(const std::string& sql) override {
    auto conn = store::sqlite::Connection::open(path());
    if (!conn)
      return std::nullopt;
    auto q = (*conn)->prepare(sql);
    if (!q)
      return std::nullopt;
    auto row = q->step();
    if (!row || !*row)
      return std::nullopt;
    return q->text(0);
  }
  std::filesystem::path path() const { return m_tree.path() / "skillrt.db"; }

private:
  TempTree m_tree;
};

class PostgresEnv final : public StoreEnv {
public:
  explicit PostgresEnv(PgTestDb db) : m_db(std::move(db)) {}
  const char* backend() const override { return "postgres"; }
  Result<std::unique_ptr<core::SkillStore>> open() override { return store::open_postgres_store(m_db.url()); }
  std::string location() const override { return m_db.url(); }
  std::optional<std::int64_t> inactive_rows(const std::string& user, const std::string& name) override {
    return count("SELECT count(*) FROM hermes_skills WHERE user_id = '" + user + "' AND name = '" + name +
                 "' AND is_active::text IN ('false', '0')");
  }
  std::optional<std::int64_t> all_rows(const std::string& user, const std::string& name) override {
    return count("SELECT count(*) FROM hermes_skills WHERE user_id = '" + user + "' AND name = '" + name + "'");
  }
  std::optional<std::string> integrity() override { return std::nullopt; }
  Result<std::unique_ptr<core::TokenStore>> open_tokens() override {
    return store::open_postgres_token_store(m_db.url());
  }
  std::optional<std::string> scalar(const std::string& sql) override { return m_db.scalar(sql); }

private:
  // Test-written SQL with test-chosen ids ([a-z0-9-]) only.
  std::optional<std::int64_t> count(const std::string& sql) const {
    auto value = m_db.scalar(sql);
    if (!value)
      return std::nullopt;
    return std::stoll(*value);
  }
  PgTestDb m_db;
};

// nullptr with `skip` set when the backend is not available here.
inline std::unique_ptr<StoreEnv> make_store_env(const std::string& backend, std::string& skip) {
  if (backend == "sqlite") {
    return std::make_unique<SqliteEnv>();
  }
  auto db = PgTestDb::create();
  if (!db) {
    skip = PgTestDb::skip_reason();
    return nullptr;
  }
  return std::make_unique<PostgresEnv>(std::move(*db));
}

} // namespace skillrt::test
