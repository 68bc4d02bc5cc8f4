// Thin RAII over libpq: one connection, its results, parameterised statements.
// Values only ever travel as statement parameters, never inside SQL text.
// libpq-fe.h stays in pg_connection.cpp; callers see plain C++ types.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

struct pg_conn;
struct pg_result;

namespace skillrt::store::pg {

// A statement parameter: text, or SQL NULL.
using Param = std::optional<std::string>;

// The rows of one statement, all values as text (PostgreSQL's text format).
class Rows {
 public:
  Rows() = default;
  explicit Rows(pg_result* result);

  int count() const;
  // The value at (row, column); "" for NULL.
  std::string_view text(int row, int column) const;

 private:
  struct Clear {
    void operator()(pg_result* result) const;
  };
  std::unique_ptr<pg_result, Clear> m_result;
};

// Where a URL points, for error messages: host, port and database, never the password.
struct Endpoint {
  std::string host;
  std::string port;
  std::string dbname;
  std::string password;  // only to scrub it out of libpq's messages
  std::string describe() const;  // "127.0.0.1:5432/skillrt"
};

class Connection {
 public:
  // Connects to a libpq URI. io_error names the endpoint and libpq's reason;
  // invalid_argument when the URL itself is malformed.
  static Result<Connection> open(const std::string& url);

  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  ~Connection() = default;

  // One statement with $1… parameters. Errors carry the SQLSTATE; a unique
  // violation (23505) comes back as refused, anything else as io_error.
  Result<Rows> exec(const char* sql, const std::vector<Param>& params = {});
  // Parameterless SQL, possibly several statements (schema migrations only).
  Result<void> exec_script(const char* sql);

  // Ends an open transaction with ROLLBACK; used on every error path.
  void rollback_quietly();

  const Endpoint& endpoint() const { return m_endpoint; }

  // --- LISTEN (pg_change_signal.cpp) ---------------------------------------
  // The connection's socket, to wait on with poll(2); -1 when it is closed.
  int socket() const;
  // Reads what the server sent without blocking and returns the payloads of
  // the notifications received; io_error once the connection is gone.
  Result<std::vector<std::string>> take_notifications();

 private:
  struct Finish {
    void operator()(pg_conn* conn) const;
  };
  Connection(pg_conn* conn, Endpoint endpoint);
  // Reconnects a connection the server dropped (restart, idle timeout) before a statement.
  Result<void> ensure_alive();
  Result<Rows> check(pg_result* result);

  std::unique_ptr<pg_conn, Finish> m_conn;
  Endpoint m_endpoint;
};

// `url` with the password (if any) replaced by "***".
std::string redact_url(std::string_view url);

// A PostgreSQL text[] literal of `items` ({"a","b"}), to pass a whole batch as one parameter.
std::string text_array(const std::vector<std::string>& items);

}  // namespace skillrt::store::pg
