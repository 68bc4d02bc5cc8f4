#include "store/sqlite/sqlite_schema.hpp"

#include <array>
#include <chrono>
#include <ctime>
#include <string>

#include "core/util/utc_time.hpp"

namespace skillrt::store::sqlite {
namespace {

// Migration N is k_migrations[N - 1]. Append only: a released step never changes.
constexpr std::array<const char*, 5> k_migrations = {
    // 1: database skills and the search index.
    R"sql(
CREATE TABLE hermes_skills (
  id          INTEGER PRIMARY KEY,
  user_id     TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  description TEXT    NOT NULL DEFAULT '',
  content     TEXT    NOT NULL,
  category    TEXT    NOT NULL DEFAULT '',
  version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  is_active   INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX hermes_skills_active_name ON hermes_skills (user_id, name) WHERE is_active = 1;

-- One row per indexed document; its id is the rowid of the document in
-- skill_search, so a document can be found and replaced by its key.
CREATE TABLE search_docs (
  id      INTEGER PRIMARY KEY,
  key     TEXT    NOT NULL UNIQUE,
  owner   TEXT    NOT NULL,
  source  TEXT    NOT NULL,
  is_file INTEGER NOT NULL CHECK (is_file IN (0, 1)),
  stamp   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX search_docs_owner ON search_docs (owner, is_file);

CREATE VIRTUAL TABLE skill_search USING fts5 (
  key UNINDEXED, owner UNINDEXED, source UNINDEXED,
  scope,  -- one token naming who may see the document (scope_token): filtered inside the index
  name, description, tags, triggers, body,
  tokenize = 'porter unicode61'
);
)sql",
    // 2: API tokens of the HTTP server (issue 4/5). Only a salted hash of each
    // secret is kept; the id is the bearer's public prefix.
    R"sql(
CREATE TABLE api_tokens (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL,
  org_id       TEXT NOT NULL,
  label        TEXT NOT NULL DEFAULT '',
  salt         TEXT NOT NULL,
  secret_hash  TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at   TEXT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
)sql",
    // 3: the change log, in step with PostgreSQL's migration 3 so both
    // backends keep one numbering. Only replicas over PostgreSQL read and
    // write it today: one host with an SQLite file hears of every change
    // through inotify and the database poll (docs/deploy.md).
    R"sql(
CREATE TABLE skill_changes (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  at         TEXT NOT NULL,
  subject    TEXT NOT NULL,
  kind       TEXT NOT NULL,
  layer      TEXT NOT NULL,
  owner      TEXT NOT NULL,
  name       TEXT NOT NULL,
  location   TEXT NOT NULL,
  detail     TEXT NOT NULL,
  dedupe_key TEXT UNIQUE
);
)sql",
    // 4: MCP sessions, in step with PostgreSQL's migration 4. Only replicas
    // over PostgreSQL share sessions today; one SQLite host has one server.
    R"sql(
CREATE TABLE mcp_sessions (
  id_hash          TEXT PRIMARY KEY,
  user_id          TEXT,
  org_id           TEXT NOT NULL,
  anonymous        INTEGER NOT NULL,
  protocol_version TEXT NOT NULL,
  log_level        INTEGER NOT NULL,
  subscriptions    TEXT NOT NULL DEFAULT '',
  created_at       TEXT NOT NULL,
  last_used_at     TEXT NOT NULL
);
)sql",
    // 5: nothing here. PostgreSQL's migration 5 lets replicas keep search
    // postings in step through the database; a SQLite file has one writer
    // host, and its connections see each other's commits (PRAGMA
    // data_version). Kept so both backends number their schemas alike.
    R"sql(
SELECT 1;
)sql",
};

} // namespace

int latest_schema_version() {
  return static_cast<int>(k_migrations.size());
}

std::string utc_now_iso() { return core::utc_now_iso8601(core::TimePrecision::milliseconds); }

namespace {

// The recorded schema version; 0 for a new file (no schema_migrations yet).
Result<std::int64_t> recorded_version(Connection& conn) {
  auto exists = conn.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
  if (!exists) {
    return tl::unexpected<Error>(exists.error());
  }
  {
    Statement q = std::move(*exists);
    auto row = q.step();
    if (!row) {
      return tl::unexpected<Error>(row.error());
    }
    if (!*row || q.integer(0) == 0) {
      return 0;
    }
  }
  auto max_q = conn.prepare("SELECT coalesce(max(version), 0) FROM schema_migrations");
  if (!max_q) {
    return tl::unexpected<Error>(max_q.error());
  }
  Statement q = std::move(*max_q);
  auto row = q.step();
  if (!row) {
    return tl::unexpected<Error>(row.error());
  }
  return *row ? q.integer(0) : 0;
}

Result<void> check_not_newer(const Connection& conn, std::int64_t current) {
  const int latest = latest_schema_version();
  if (current > latest) {
    return fail(ErrorCode::refused, "sqlite: " + conn.path().string() + " has schema version " +
                                        std::to_string(current) + ", newer than this skillrt knows (" +
                                        std::to_string(latest) + "); use a newer skillrt");
  }
  return {};
}

} // namespace

Result<void> migrate(Connection& conn) {
  // A current schema needs no write lock: opening stays cheap and works for
  // readers while another process writes.
  auto seen = recorded_version(conn);
  if (!seen) {
    return tl::unexpected<Error>(seen.error());
  }
  if (auto ok = check_not_newer(conn, *seen); !ok) {
    return ok;
  }
  const int latest = latest_schema_version();
  if (*seen == latest) {
    return {};
  }
  auto tx = Transaction::begin(conn);
  if (!tx) {
    return tl::unexpected<Error>(tx.error());
  }
  if (auto made = conn.exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            " version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
      !made) {
    return made;
  }
  // Another process may have migrated between the look and the lock.
  auto locked = recorded_version(conn);
  if (!locked) {
    return tl::unexpected<Error>(locked.error());
  }
  if (auto ok = check_not_newer(conn, *locked); !ok) {
    return ok;
  }
  const std::int64_t current = *locked;
  for (std::int64_t version = current + 1; version <= latest; ++version) {
    if (auto applied = conn.exec(k_migrations[static_cast<std::size_t>(version - 1)]); !applied) {
      return applied;
    }
    auto record = conn.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)");
    if (!record) {
      return tl::unexpected<Error>(record.error());
    }
    if (auto done = record->bind(1, version).bind(2, utc_now_iso()).run(); !done) {
      return done;
    }
  }
  if (current == latest) {
    return {}; // nothing written: the destructor's rollback ends the read
  }
  return tx->commit();
}

} // namespace skillrt::store::sqlite
