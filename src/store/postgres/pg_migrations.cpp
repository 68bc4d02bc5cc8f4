#include "store/postgres/pg_migrations.hpp"

#include <charconv>
#include <iterator>
#include <set>
#include <string>

namespace skillrt::store::pg {
namespace {

struct Migration {
  int version;
  const char* sql;
};

// Append-only: a released migration never changes, new ones get the next number.
constexpr Migration k_migrations[] = {
    // 1: database skills and the search index.
    {1, R"sql(
CREATE TABLE hermes_skills (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  content     TEXT NOT NULL DEFAULT '',
  category    TEXT NOT NULL DEFAULT '',
  version     BIGINT NOT NULL DEFAULT 1,
  is_active   BOOLEAN NOT NULL DEFAULT TRUE,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- One active row per (user, name); deactivated rows keep their history.
CREATE UNIQUE INDEX hermes_skills_active_name ON hermes_skills (user_id, name) WHERE is_active;

-- English stemming without a stop-word list, as FTS5's porter tokenizer does:
-- every word of a query counts ("after", "how" and "the" included).
CREATE TEXT SEARCH DICTIONARY skillrt_english_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION skillrt_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION skillrt_english ALTER MAPPING REPLACE english_stem WITH skillrt_english_stem;

-- The relevant-skill search index: database rows (skill_id set, maintained in
-- the transaction of their write) and file skills (skill_id NULL, pushed by the
-- search service). Weights: A name, B description + tags + triggers, D body.
CREATE TABLE skill_search (
  key         TEXT PRIMARY KEY,
  owner       TEXT NOT NULL,
  source      TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT NOT NULL,
  tags        TEXT NOT NULL,
  triggers    TEXT NOT NULL,
  body        TEXT NOT NULL,
  stamp       TEXT NOT NULL DEFAULT '',
  skill_id    BIGINT REFERENCES hermes_skills (id) ON DELETE CASCADE,
  document    TSVECTOR GENERATED ALWAYS AS (
                setweight(to_tsvector('skillrt_english'::regconfig, name), 'A') ||
                setweight(to_tsvector('skillrt_english'::regconfig, description || ' ' || tags || ' ' || triggers), 'B') ||
                setweight(to_tsvector('skillrt_english'::regconfig, body), 'D')) STORED
);
CREATE INDEX skill_search_document ON skill_search USING GIN (document);
-- Partial: only file_doc_stamps looks docs up by owner. Searches filter by
-- owner too, but must go through the GIN index; an owner index they could use
-- would tempt the planner into scanning every shared doc.
CREATE INDEX skill_search_file_owner ON skill_search (owner, key) WHERE skill_id IS NULL;
)sql"},
    // 2: API tokens of the HTTP server (issue 4/5). Only a salted hash of each
    // secret is kept; the id is the bearer's public prefix. `seq` orders tokens
    // created in the same instant.
    {2, R"sql(
CREATE TABLE api_tokens (
  id           TEXT PRIMARY KEY,
  seq          BIGINT GENERATED ALWAYS AS IDENTITY,
  user_id      TEXT NOT NULL,
  org_id       TEXT NOT NULL,
  label        TEXT NOT NULL DEFAULT '',
  salt         TEXT NOT NULL,
  secret_hash  TEXT NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at TIMESTAMPTZ,
  revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
)sql"},
    // 3: the change log that replicas share (issue 4/6, core/events/change_log.hpp).
    // `seq` rises in commit order because every append holds one advisory lock
    // from taking its number to its commit. `dedupe_key` lets replicas that
    // notice the same edit on a shared volume log it once.
    {3, R"sql(
CREATE TABLE skill_changes (
  seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         TIMESTAMPTZ NOT NULL DEFAULT now(),
  subject    TEXT NOT NULL,
  kind       TEXT NOT NULL,
  layer      TEXT NOT NULL,
  owner      TEXT NOT NULL,
  name       TEXT NOT NULL,
  location   TEXT NOT NULL,
  detail     TEXT NOT NULL,
  dedupe_key TEXT UNIQUE
);
CREATE INDEX skill_changes_at ON skill_changes (at);
)sql"},
    // 4: MCP sessions of the 2025 revisions, shared by the replicas (issue 4/6,
    // core/store/session_store.hpp). The key is the SHA-256 of the session id:
    // a leaked table names no live session.
    {4, R"sql(
CREATE TABLE mcp_sessions (
  id_hash          TEXT PRIMARY KEY,
  user_id          TEXT,
  org_id           TEXT NOT NULL,
  anonymous        BOOLEAN NOT NULL,
  protocol_version TEXT NOT NULL,
  log_level        INTEGER NOT NULL,
  subscriptions    TEXT NOT NULL DEFAULT '',
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sessions_last_used ON mcp_sessions (last_used_at);
)sql"},
};

// An arbitrary constant naming "skillrt schema migration" among advisory locks.
constexpr const char* k_migration_lock = "7310594215637261";

}  // namespace

int latest_schema_version() { return std::prev(std::end(k_migrations))->version; }

Result<void> migrate(Connection& connection) {
  auto run = [&]() -> Result<void> {
    if (auto begun = connection.exec("BEGIN"); !begun) {
      return tl::unexpected(begun.error());
    }
    if (auto locked = connection.exec("SELECT pg_advisory_xact_lock($1::bigint)", {k_migration_lock}); !locked) {
      return tl::unexpected(locked.error());
    }
    if (auto made = connection.exec_script(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
        !made) {
      return tl::unexpected(made.error());
    }
    auto applied_rows = connection.exec("SELECT version FROM schema_migrations");
    if (!applied_rows) {
      return tl::unexpected(applied_rows.error());
    }
    std::set<int> applied;
    for (int row = 0; row < applied_rows->count(); ++row) {
      const std::string_view text = applied_rows->text(row, 0);
      int version = 0;
      std::from_chars(text.data(), text.data() + text.size(), version);
      applied.insert(version);
    }
    if (!applied.empty() && *applied.rbegin() > latest_schema_version()) {
      return fail(ErrorCode::refused, "PostgreSQL: " + connection.endpoint().describe() + " has schema version " +
                                          std::to_string(*applied.rbegin()) + ", newer than this skillrt knows (" +
                                          std::to_string(latest_schema_version()) + "); use a newer skillrt");
    }
    for (const Migration& migration : k_migrations) {
      if (applied.count(migration.version) != 0) {
        continue;
      }
      if (auto done = connection.exec_script(migration.sql); !done) {
        Error error = done.error();
        error.message = "PostgreSQL: schema migration " + std::to_string(migration.version) +
                        " failed: " + error.message;
        return tl::unexpected(error);
      }
      if (auto noted = connection.exec("INSERT INTO schema_migrations (version) VALUES ($1::integer)",
                                       {std::to_string(migration.version)});
          !noted) {
        return tl::unexpected(noted.error());
      }
    }
    if (auto committed = connection.exec("COMMIT"); !committed) {
      return tl::unexpected(committed.error());
    }
    return {};
  };
  auto result = run();
  if (!result) {
    connection.rollback_quietly();
  }
  return result;
}

}  // namespace skillrt::store::pg
