#include "store/sqlite/sqlite_connection.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <system_error>

namespace skillrt::store::sqlite {
namespace {

namespace fs = std::filesystem;

// SQLITE_TRANSIENT makes SQLite copy bound text; it is a cast of -1 in the
// header, which -Wold-style-cast would flag at every use.
const sqlite3_destructor_type k_copy_text = SQLITE_TRANSIENT; // NOLINT

} // namespace

// --- Statement -------------------------------------------------------------

Statement::~Statement() {
  if (m_stmt != nullptr) {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
  }
}

Statement& Statement::bind(int index, std::string_view text) {
  sqlite3_bind_text64(m_stmt, index, text.data(), static_cast<sqlite3_uint64>(text.size()), k_copy_text, SQLITE_UTF8);
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(m_stmt, index, static_cast<sqlite3_int64>(value));
  return *this;
}

Statement& Statement::bind(int index, double value) {
  sqlite3_bind_double(m_stmt, index, value);
  return *this;
}

Result<bool> Statement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    return false;
  }
  return tl::unexpected<Error>(m_conn->error(rc, "query"));
}

Result<void> Statement::run() {
  while (true) {
    auto more = step();
    if (!more) {
      return tl::unexpected<Error>(more.error());
    }
    if (!*more) {
      return {};
    }
  }
}

std::string Statement::text(int column) const {
  const auto* data = sqlite3_column_text(m_stmt, column);
  const int size = sqlite3_column_bytes(m_stmt, column);
  if (data == nullptr || size <= 0) {
    return {};
  }
  return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
}

std::int64_t Statement::integer(int column) const {
  return static_cast<std::int64_t>(sqlite3_column_int64(m_stmt, column));
}

double Statement::real(int column) const {
  return sqlite3_column_double(m_stmt, column);
}

// --- Connection ------------------------------------------------------------

void Connection::StmtDeleter::operator()(sqlite3_stmt* stmt) const {
  sqlite3_finalize(stmt);
}

Connection::~Connection() {
  m_cache.clear(); // statements first: close_v2 would otherwise linger
  sqlite3_close_v2(m_db);
}

Error Connection::error(int rc, std::string_view what) const {
  const int primary = rc & 0xff;
  const std::string where = m_path.string();
  const char* detail = m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
  std::string message;
  ErrorCode code = ErrorCode::io_error;
  switch (primary) {
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    message = "sqlite: database " + where + " is locked by another writer (gave up after " +
              std::to_string(k_busy_timeout_ms / 1000) + " s); try again";
    break;
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB:
    message = "sqlite: " + where + " is corrupt or not a skillrt database (" + detail +
              "); move it aside and restore a backup";
    break;
  case SQLITE_READONLY:
    message = "sqlite: " + where + " is read-only (" + detail + "); check the permissions of the file and its folder";
    break;
  case SQLITE_CANTOPEN:
    message = "sqlite: cannot open " + where + " (" + detail + "); check that its folder exists and is writable";
    break;
  case SQLITE_FULL:
    message = "sqlite: no space left for " + where;
    break;
  case SQLITE_CONSTRAINT:
    code = ErrorCode::refused;
    message = std::string("sqlite: constraint failed (") + detail + ")";
    break;
  default:
    code = ErrorCode::internal;
    message = "sqlite: " + std::string(what) + " failed on " + where + ": " + detail;
    break;
  }
  return Error{code, std::move(message), {}};
}

Result<std::unique_ptr<Connection>> Connection::open(const fs::path& path) {
  std::error_code ec;
  const bool existed = fs::exists(path, ec);
  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  std::unique_ptr<Connection> conn(new Connection(raw, path));
  if (rc != SQLITE_OK) {
    return tl::unexpected<Error>(conn->error(rc, "open"));
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, k_busy_timeout_ms);
  if (!existed) {
    // The file holds every user's database skills.
    ::chmod(path.c_str(), S_IRUSR | S_IWUSR);
  }
  // journal_mode returns a row; read it to learn whether WAL took.
  auto mode = conn->prepare("PRAGMA journal_mode=WAL");
  if (!mode) {
    return tl::unexpected<Error>(mode.error());
  }
  auto row = mode->step();
  if (!row) {
    return tl::unexpected<Error>(row.error());
  }
  if (auto done = conn->exec("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"); !done) {
    return tl::unexpected<Error>(done.error());
  }
  return conn;
}

Result<std::unique_ptr<Connection>> Connection::open_read_only(const fs::path& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr);
  std::unique_ptr<Connection> conn(new Connection(raw, path));
  if (rc != SQLITE_OK) {
    return tl::unexpected<Error>(conn->error(rc, "open"));
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, k_busy_timeout_ms);
  return conn;
}

Result<void> Connection::exec(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc != SQLITE_OK) {
    return tl::unexpected<Error>(error(rc, "statement"));
  }
  return {};
}

Result<Statement> Connection::prepare(const std::string& sql) {
  auto it = m_cache.find(sql);
  if (it == m_cache.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc =
        sqlite3_prepare_v3(m_db, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return tl::unexpected<Error>(error(rc, "prepare"));
    }
    it = m_cache.emplace(sql, std::unique_ptr<sqlite3_stmt, StmtDeleter>(stmt)).first;
  }
  return Statement(*this, it->second.get());
}

std::int64_t Connection::last_insert_rowid() const {
  return static_cast<std::int64_t>(sqlite3_last_insert_rowid(m_db));
}

int Connection::changes() const {
  return sqlite3_changes(m_db);
}

// --- Transaction -----------------------------------------------------------

Result<Transaction> Transaction::begin(Connection& conn) {
  if (auto started = conn.exec("BEGIN IMMEDIATE"); !started) {
    return tl::unexpected<Error>(started.error());
  }
  return Transaction(conn);
}

Transaction::~Transaction() {
  if (m_conn != nullptr) {
    (void)m_conn->exec("ROLLBACK");
  }
}

Result<void> Transaction::commit() {
  Connection* conn = m_conn;
  if (auto done = conn->exec("COMMIT"); !done) {
    return done; // the destructor rolls back
  }
  m_conn = nullptr;
  return {};
}

} // namespace skillrt::store::sqlite
