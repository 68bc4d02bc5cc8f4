#include "support/pg_test_db.hpp"

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <utility>

#include <gtest/gtest.h>

namespace skillrt::test {
namespace {

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

bool pg_required() {
  const char* value = env("SKILLRT_REQUIRE_PG");
  return value != nullptr && std::string(value) == "1";
}

// Runs one statement on the admin connection; "" on success, else the reason.
// The statement text holds only names this file generated ([a-z0-9_]).
std::string admin_exec(const std::string& admin_url, const std::string& sql) {
  PGconn* conn = PQconnectdb(admin_url.c_str());
  std::string problem;
  if (PQstatus(conn) != CONNECTION_OK) {
    problem = std::string("cannot connect to SKILLRT_TEST_PG_URL: ") + PQerrorMessage(conn);
  } else {
    PGresult* result = PQexec(conn, sql.c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK) {
      problem = sql + ": " + PQresultErrorMessage(result);
    }
    PQclear(result);
  }
  PQfinish(conn);
  return problem;
}

// Unique across the processes of one run and across runs: pid, a counter, a random tail.
std::string unique_name() {
  static std::atomic<unsigned> counter{0};
  static const unsigned salt = std::random_device{}();
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "skillrt_t_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" +
         std::to_string((salt ^ static_cast<unsigned>(now)) % 1000000u);
}

// Fatal, so a fixture whose SetUp then skips does not go on to run the test
// body (gtest runs the body after a skip that follows a non-fatal failure).
void fatal_failure(const std::string& message) {
  [&] { FAIL() << message; }();
}

}  // namespace

std::string pg_url_with_database(const std::string& url, const std::string& dbname) {
  const auto scheme = url.find("://");
  const std::size_t authority = scheme == std::string::npos ? 0 : scheme + 3;
  const auto query = url.find('?', authority);
  const auto path = url.find('/', authority);
  const std::string tail = query == std::string::npos ? "" : url.substr(query);
  const std::size_t head_end =
      path != std::string::npos && (query == std::string::npos || path < query) ? path
      : query != std::string::npos                                              ? query
                                                                                : url.size();
  return url.substr(0, head_end) + "/" + dbname + tail;
}

std::optional<PgTestDb> PgTestDb::create() {
  const char* admin = env("SKILLRT_TEST_PG_URL");
  if (admin == nullptr) {
    if (pg_required()) {
      fatal_failure("SKILLRT_REQUIRE_PG=1 but SKILLRT_TEST_PG_URL is not set "
                    "(start a cluster: scripts/pg-test-cluster start)");
    }
    return std::nullopt;
  }
  std::string name = unique_name();
  if (std::string problem = admin_exec(admin, "CREATE DATABASE " + name); !problem.empty()) {
    fatal_failure("cannot create the test database: " + problem);
    return std::nullopt;
  }
  std::string url = pg_url_with_database(admin, name);
  return PgTestDb(admin, std::move(name), std::move(url));
}

std::string PgTestDb::skip_reason() {
  return "PostgreSQL tests need SKILLRT_TEST_PG_URL (scripts/pg-test-cluster start)";
}

PgTestDb::PgTestDb(std::string admin_url, std::string name, std::string url)
    : m_admin_url(std::move(admin_url)), m_name(std::move(name)), m_url(std::move(url)) {}

PgTestDb::PgTestDb(PgTestDb&& other) noexcept
    : m_admin_url(std::move(other.m_admin_url)), m_name(std::move(other.m_name)), m_url(std::move(other.m_url)) {
  other.m_name.clear();
}

std::optional<std::string> PgTestDb::scalar(const std::string& sql) const {
  PGconn* conn = PQconnectdb(m_url.c_str());
  std::optional<std::string> value;
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult* result = PQexec(conn, sql.c_str());
    if (PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0 && PQnfields(result) > 0) {
      value = PQgetvalue(result, 0, 0);
    }
    PQclear(result);
  }
  PQfinish(conn);
  return value;
}

PgTestDb::~PgTestDb() {
  if (m_name.empty()) {
    return;
  }
  if (std::string problem = admin_exec(m_admin_url, "DROP DATABASE IF EXISTS " + m_name + " WITH (FORCE)");
      !problem.empty()) {
    ADD_FAILURE() << "cannot drop the test database: " << problem;
  }
}

}  // namespace skillrt::test
