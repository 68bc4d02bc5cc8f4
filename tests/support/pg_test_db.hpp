// A throw-away PostgreSQL database per test, on the cluster named by
// SKILLRT_TEST_PG_URL (scripts/pg-test-cluster, started by scripts/test). Each
// test gets its own database, so ctest -j and the asan stage can share one
// cluster safely.
//
//   auto db = skillrt::test::PgTestDb::create();
//   if (!db) GTEST_SKIP() << skillrt::test::PgTestDb::skip_reason();
//   auto store = skillrt::store::open_postgres_store(db->url());
//
// Without SKILLRT_TEST_PG_URL, create() returns nullopt so the test skips —
// unless SKILLRT_REQUIRE_PG=1, where it also records a fatal test failure: a
// run that promised PostgreSQL must not pass by skipping it. A database that
// cannot be created is always a failure.
#pragma once

#include <optional>
#include <string>

namespace skillrt::test {

class PgTestDb {
 public:
  static std::optional<PgTestDb> create();
  // Why create() returned nullopt, for GTEST_SKIP().
  static std::string skip_reason();

  PgTestDb(PgTestDb&& other) noexcept;
  PgTestDb& operator=(PgTestDb&&) = delete;
  PgTestDb(const PgTestDb&) = delete;
  PgTestDb& operator=(const PgTestDb&) = delete;
  // Drops the database (WITH (FORCE): connections still open are ended).
  ~PgTestDb();

  // A libpq URL of the test's own database.
  const std::string& url() const { return m_url; }
  // The cluster's admin URL (SKILLRT_TEST_PG_URL).
  const std::string& admin_url() const { return m_admin_url; }
  const std::string& name() const { return m_name; }

  // Inspection for tests: the first column of the first row of `sql` run in
  // the test's database (nullopt on error or no row). `sql` is test-written.
  std::optional<std::string> scalar(const std::string& sql) const;

 private:
  PgTestDb(std::string admin_url, std::string name, std::string url);

  std::string m_admin_url;
  std::string m_name;
  std::string m_url;
};

// `url` with its database path replaced by `dbname` (query parameters kept).
std::string pg_url_with_database(const std::string& url, const std::string& dbname);

}  // namespace skillrt::test
