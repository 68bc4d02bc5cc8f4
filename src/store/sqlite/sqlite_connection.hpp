// RAII over the SQLite C API for this adapter: one Connection (one sqlite3
// handle, its cached prepared statements), statements reset when a use ends,
// transactions rolled back unless committed. Errors become Result values with
// messages that say what to do (locked, corrupt, read-only, missing folder).
//
// sqlite3.h stays in the .cpp files of this folder; the handles are only
// forward-declared here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "skillrt/result.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace skillrt::store::sqlite {

// How long a writer waits for another connection's write lock.
inline constexpr int k_busy_timeout_ms = 5000;

class Connection;

// A use of a cached prepared statement: bind, step, read columns; reset and
// unbound when it goes out of scope, ready for the next use.
class Statement {
public:
  Statement(Connection& conn, sqlite3_stmt* stmt) : m_conn(&conn), m_stmt(stmt) {}
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept : m_conn(other.m_conn), m_stmt(other.m_stmt) { other.m_stmt = nullptr; }
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQL's ?1.
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);

  // One step: true when a row is available, false when done; an error otherwise.
  Result<bool> step();
  // Steps to completion (for statements that return no rows).
  Result<void> run();
  // Steps through every row, calling on_row(*this) for each.
  template <typename OnRow>
  Result<void> each_row(OnRow&& on_row) {
    while (true) {
      auto more = step();
      if (!more) {
        return tl::unexpected(std::move(more.error()));
      }
      if (!*more) {
        return {};
      }
      on_row(*this);
    }
  }

  std::string text(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;

private:
  Connection* m_conn;
  sqlite3_stmt* m_stmt;
};

class Connection {
public:
  // Opens (creating when missing) the database file at `path`, then sets WAL,
  // the busy timeout and foreign keys. A new file is made owner-only (0600).
  static Result<std::unique_ptr<Connection>> open(const std::filesystem::path& path);
  // Opens an existing file read-only (inspection helpers).
  static Result<std::unique_ptr<Connection>> open_read_only(const std::filesystem::path& path);

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs one or more statements without results.
  Result<void> exec(const std::string& sql);
  // The cached prepared statement for `sql` (prepared on first use).
  Result<Statement> prepare(const std::string& sql);

  std::int64_t last_insert_rowid() const;
  // The raw handle, for registering functions (scoped_ranking.cpp).
  sqlite3* handle() const { return m_db; }
  int changes() const;

  // The Error for the SQLite result code `rc` of an operation described by `what`.
  Error error(int rc, std::string_view what) const;

  const std::filesystem::path& path() const { return m_path; }

private:
  Connection(sqlite3* db, std::filesystem::path path) : m_db(db), m_path(std::move(path)) {}
  struct StmtDeleter {
    void operator()(sqlite3_stmt* stmt) const;
  };

  sqlite3* m_db;
  std::filesystem::path m_path;
  std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, StmtDeleter>> m_cache;
};

// BEGIN IMMEDIATE on construction (a writer takes the write lock up front, so
// two writers never deadlock on a lock upgrade); ROLLBACK unless commit() ran.
class Transaction {
public:
  static Result<Transaction> begin(Connection& conn);
  Transaction(Transaction&& other) noexcept : m_conn(other.m_conn) { other.m_conn = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  ~Transaction();
  Result<void> commit();

private:
  explicit Transaction(Connection& conn) : m_conn(&conn) {}
  Connection* m_conn;
};

} // namespace skillrt::store::sqlite
