#include "store/postgres/pg_connection.hpp"

#include <libpq-fe.h>

#include <array>
#include <utility>

namespace skillrt::store::pg {
namespace {

// libpq's messages end with a newline and may continue on indented lines; the
// first line says what happened, the rest is advice about servers we started.
std::string first_line(const char* message) {
  std::string text = message != nullptr ? message : "";
  if (const auto end = text.find('\n'); end != std::string::npos) {
    text.resize(end);
  }
  return text;
}

// Removes every occurrence of the password from a message (libpq never puts it
// there today, but a message that echoes a malformed URL might).
std::string scrub(std::string text, const std::string& password) {
  if (password.empty()) {
    return text;
  }
  for (auto at = text.find(password); at != std::string::npos; at = text.find(password, at + 3)) {
    text.replace(at, password.size(), "***");
  }
  return text;
}

std::string value_of(const PQconninfoOption* options, std::string_view keyword) {
  for (const PQconninfoOption* option = options; option != nullptr && option->keyword != nullptr; ++option) {
    if (keyword == option->keyword) {
      return option->val != nullptr ? option->val : "";
    }
  }
  return "";
}

// Notices (e.g. "query contains only stop words") are not errors; keep them off stderr.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

}  // namespace

Rows::Rows(pg_result* result) : m_result(result) {}

void Rows::Clear::operator()(pg_result* result) const { PQclear(result); }

int Rows::count() const { return m_result ? PQntuples(m_result.get()) : 0; }

std::string_view Rows::text(int row, int column) const {
  const char* value = PQgetvalue(m_result.get(), row, column);
  return {value, static_cast<std::size_t>(PQgetlength(m_result.get(), row, column))};
}

std::string Endpoint::describe() const {
  std::string out = host.empty() ? "localhost" : host;
  out += ":" + (port.empty() ? std::string("5432") : port);
  if (!dbname.empty()) {
    out += "/" + dbname;
  }
  return out;
}

void Connection::Finish::operator()(pg_conn* conn) const { PQfinish(conn); }

Connection::Connection(pg_conn* conn, Endpoint endpoint) : m_conn(conn), m_endpoint(std::move(endpoint)) {}

Result<Connection> Connection::open(const std::string& url) {
  char* parse_error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &parse_error);
  if (options == nullptr) {
    std::string reason = parse_error != nullptr ? first_line(parse_error) : "out of memory";
    PQfreemem(parse_error);
    return fail(ErrorCode::invalid_argument,
                "PostgreSQL: invalid connection URL '" + redact_url(url) + "': " + scrub(reason, ""));
  }
  Endpoint endpoint{value_of(options, "host"), value_of(options, "port"), value_of(options, "dbname"),
                    value_of(options, "password")};
  if (endpoint.host.empty()) {
    endpoint.host = value_of(options, "hostaddr");
  }
  PQconninfoFree(options);

  // The URL is expanded in place of "dbname"; the keywords before it are
  // defaults the URL may override.
  const std::array<const char*, 4> keywords{"connect_timeout", "fallback_application_name", "dbname", nullptr};
  const std::array<const char*, 4> values{"10", "skillrt", url.c_str(), nullptr};
  pg_conn* raw = PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1);
  if (raw == nullptr) {
    return fail(ErrorCode::io_error, "PostgreSQL: cannot connect to " + endpoint.describe() + ": out of memory");
  }
  Connection connection(raw, std::move(endpoint));
  if (PQstatus(raw) != CONNECTION_OK) {
    return fail(ErrorCode::io_error, "PostgreSQL: cannot connect to " + connection.m_endpoint.describe() + ": " +
                                         scrub(first_line(PQerrorMessage(raw)), connection.m_endpoint.password));
  }
  PQsetNoticeProcessor(raw, ignore_notice, nullptr);
  if (PQsetClientEncoding(raw, "UTF8") != 0) {
    return fail(ErrorCode::io_error,
                "PostgreSQL: " + connection.m_endpoint.describe() + " does not accept the UTF8 client encoding");
  }
  return connection;
}

Result<void> Connection::ensure_alive() {
  if (PQstatus(m_conn.get()) == CONNECTION_OK) {
    return {};
  }
  PQreset(m_conn.get());
  if (PQstatus(m_conn.get()) != CONNECTION_OK) {
    return fail(ErrorCode::io_error, "PostgreSQL: lost the connection to " + m_endpoint.describe() + ": " +
                                         scrub(first_line(PQerrorMessage(m_conn.get())), m_endpoint.password));
  }
  PQsetClientEncoding(m_conn.get(), "UTF8");
  return {};
}

Result<Rows> Connection::check(pg_result* result) {
  Rows rows(result);  // owns it from here on, whatever happens
  const ExecStatusType status = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
    return rows;
  }
  if (result == nullptr || PQstatus(m_conn.get()) != CONNECTION_OK) {
    return fail(ErrorCode::io_error, "PostgreSQL: lost the connection to " + m_endpoint.describe() + ": " +
                                         scrub(first_line(PQerrorMessage(m_conn.get())), m_endpoint.password));
  }
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const std::string sqlstate = state != nullptr ? state : "?????";
  const std::string message = scrub(first_line(PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY)),
                                    m_endpoint.password);
  const ErrorCode code = sqlstate == "23505" ? ErrorCode::refused : ErrorCode::io_error;
  return fail(code, "PostgreSQL error " + sqlstate + ": " + message);
}

Result<Rows> Connection::exec(const char* sql, const std::vector<Param>& params) {
  if (auto alive = ensure_alive(); !alive) {
    return tl::unexpected(alive.error());
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& param : params) {
    // Text parameters end at the first NUL: refuse rather than send a shorter value.
    if (param && param->find('\0') != std::string::npos) {
      return fail(ErrorCode::invalid_argument, "PostgreSQL: text values cannot contain NUL bytes");
    }
    values.push_back(param ? param->c_str() : nullptr);
  }
  auto run = [&] {
    return PQexecParams(m_conn.get(), sql, static_cast<int>(values.size()), /*paramTypes=*/nullptr, values.data(),
                        /*paramLengths=*/nullptr, /*paramFormats=*/nullptr, /*resultFormat=*/0);
  };
  // A connection the server dropped while idle (restart, idle timeout,
  // pg_terminate_backend) is only noticed when a statement fails. Outside a
  // transaction the statements sent here are BEGIN or reads, so one retry on a
  // fresh connection cannot apply anything twice; inside one, the transaction
  // is lost and the caller must see the error.
  const bool idle = PQtransactionStatus(m_conn.get()) == PQTRANS_IDLE;
  pg_result* result = run();
  if (idle && PQstatus(m_conn.get()) != CONNECTION_OK) {
    PQclear(result);
    if (auto alive = ensure_alive(); !alive) {
      return tl::unexpected(alive.error());
    }
    result = run();
  }
  return check(result);
}

Result<void> Connection::exec_script(const char* sql) {
  if (auto alive = ensure_alive(); !alive) {
    return tl::unexpected(alive.error());
  }
  auto rows = check(PQexec(m_conn.get(), sql));
  if (!rows) {
    return tl::unexpected(rows.error());
  }
  return {};
}

void Connection::rollback_quietly() {
  if (PQstatus(m_conn.get()) == CONNECTION_OK && PQtransactionStatus(m_conn.get()) != PQTRANS_IDLE) {
    PQclear(PQexec(m_conn.get(), "ROLLBACK"));
  }
}

int Connection::socket() const { return PQsocket(m_conn.get()); }

Result<std::vector<std::string>> Connection::take_notifications() {
  if (PQconsumeInput(m_conn.get()) == 0 || PQstatus(m_conn.get()) != CONNECTION_OK) {
    return fail(ErrorCode::io_error, "PostgreSQL: lost the listening connection to " + m_endpoint.describe() + ": " +
                                         scrub(first_line(PQerrorMessage(m_conn.get())), m_endpoint.password));
  }
  std::vector<std::string> payloads;
  while (PGnotify* notice = PQnotifies(m_conn.get())) {
    payloads.emplace_back(notice->extra != nullptr ? notice->extra : "");
    PQfreemem(notice);
  }
  return payloads;
}

std::string redact_url(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) {
    return std::string(url);
  }
  const auto authority = scheme + 3;
  // The user info ends at the last '@' before the path.
  const auto slash = url.find('/', authority);
  const auto at = url.substr(0, slash).rfind('@');
  if (at == std::string_view::npos || at < authority) {
    return std::string(url);
  }
  const auto colon = url.find(':', authority);
  if (colon == std::string_view::npos || colon > at) {
    return std::string(url);
  }
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
}

std::string text_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    out += '"';
    for (const char c : items[i]) {
      if (c == '"' || c == '\\') {
        out += '\\';
      }
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

}  // namespace skillrt::store::pg
