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
    // 5: search ranked in memory with bm25 (issue 4/6, pg_search_cache.hpp).
    // Each document gets a number to hold postings by and its length in
    // tokens. Each owner gets a generation that every statement changing its
    // documents moves, in the same transaction, and which documents it
    // changed, so any replica can tell which of its kept postings another one
    // made stale and read only those again. `document` is no longer a
    // generated column: a generated column may not be read by the trigger
    // that sets text_length, so the trigger computes both from one tsvector.
    {5, R"sql(
ALTER TABLE skill_search ADD COLUMN doc_id BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE skill_search ADD CONSTRAINT skill_search_doc_id UNIQUE (doc_id);
ALTER TABLE skill_search ADD COLUMN text_length INTEGER NOT NULL DEFAULT 0;
ALTER TABLE skill_search ALTER COLUMN document DROP EXPRESSION IF EXISTS;
-- Counting a scope's documents and their length reads this index only.
CREATE INDEX skill_search_owner_length ON skill_search (owner) INCLUDE (text_length);

-- Tokens in a document: every position of every lexeme (a lexeme keeps at
-- most 256 positions, as PostgreSQL stores them).
CREATE FUNCTION skill_search_text_length(doc TSVECTOR) RETURNS INTEGER
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0)::integer FROM unnest(doc) $$;
UPDATE skill_search SET text_length = skill_search_text_length(document);

CREATE FUNCTION skill_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.document :=
    setweight(to_tsvector('skillrt_english'::regconfig, NEW.name), 'A') ||
    setweight(to_tsvector('skillrt_english'::regconfig, NEW.description || ' ' || NEW.tags || ' ' || NEW.triggers), 'B') ||
    setweight(to_tsvector('skillrt_english'::regconfig, NEW.body), 'D');
  NEW.text_length := skill_search_text_length(NEW.document);
  RETURN NEW;
END $$;
CREATE TRIGGER skill_search_fill BEFORE INSERT OR UPDATE OF name, description, tags, triggers, body
  ON skill_search FOR EACH ROW EXECUTE FUNCTION skill_search_fill();

CREATE TABLE skill_search_generation (
  owner      TEXT PRIMARY KEY,
  generation BIGINT NOT NULL
);
-- Which documents each generation changed, so a replica catches its kept
-- postings up instead of reading them all again. old_length is the
-- document's length before the change, NULL when it did not exist. The last
-- 1024 generations of an owner are kept; a replica further behind starts over.
CREATE TABLE skill_search_changes (
  owner      TEXT NOT NULL,
  generation BIGINT NOT NULL,
  doc_id     BIGINT NOT NULL,
  old_length INTEGER,
  PRIMARY KEY (owner, generation, doc_id)
);
-- Owners in a fixed order, so two transactions lock generation rows in the
-- same order. The row lock held to commit also makes an owner's generations
-- commit in the order they are numbered.
CREATE FUNCTION skill_search_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_owner TEXT;
  next_generation BIGINT;
BEGIN
  FOR changed_owner IN SELECT DISTINCT owner FROM changed_rows ORDER BY owner LOOP
    INSERT INTO skill_search_generation AS g (owner, generation) VALUES (changed_owner, 1)
      ON CONFLICT (owner) DO UPDATE SET generation = g.generation + 1
      RETURNING generation INTO next_generation;
    IF TG_OP = 'INSERT' THEN
      INSERT INTO skill_search_changes (owner, generation, doc_id, old_length)
        SELECT changed_owner, next_generation, doc_id, NULL FROM changed_rows WHERE owner = changed_owner;
    ELSE
      INSERT INTO skill_search_changes (owner, generation, doc_id, old_length)
        SELECT changed_owner, next_generation, doc_id, text_length FROM changed_rows WHERE owner = changed_owner;
    END IF;
    DELETE FROM skill_search_changes WHERE owner = changed_owner AND generation <= next_generation - 1024;
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_search_inserted AFTER INSERT ON skill_search
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_search_bump();
CREATE TRIGGER skill_search_updated AFTER UPDATE ON skill_search
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_search_bump();
CREATE TRIGGER skill_search_deleted AFTER DELETE ON skill_search
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_search_bump();
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
