// The PostgreSQL adapter: the same rows, index and answers as the SQLite
// adapter (src/store/sqlite), on a server. Every value travels as a statement
// parameter; database rows enter and leave the search index in the
// transaction of their write.
#include "store/postgres/postgres_store.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "core/manage/content_checks.hpp"
#include "core/validate/skill_name.hpp"
#include "core/tenancy/user_id.hpp"
#include "core/util/utf8.hpp"
#include "store/bm25_top_k.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_migrations.hpp"
#include "store/postgres/pg_search_cache.hpp"
#include "store/sqlite/fts_query.hpp"

namespace skillrt::store {
namespace {

using core::DbSkill;
using pg::Connection;
using pg::Param;
using pg::Rows;

// Timestamps leave the server already in the port's format (UTC, milliseconds).
#define SKILLRT_PG_ROW_COLUMNS                                                                  \
  "id, user_id, name, description, content, category, version, is_active, "                    \
  "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "             \
  "to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

// File docs per statement in sync_file_docs (one round trip per batch).
constexpr std::size_t k_sync_batch = 500;

std::int64_t to_int(std::string_view text) {
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

DbSkill read_row(const Rows& rows, int row) {
  DbSkill skill;
  skill.id = to_int(rows.text(row, 0));
  skill.user_id = rows.text(row, 1);
  skill.name = rows.text(row, 2);
  skill.description = rows.text(row, 3);
  skill.content = rows.text(row, 4);
  skill.category = rows.text(row, 5);
  skill.version = to_int(rows.text(row, 6));
  skill.is_active = rows.text(row, 7) == "t";
  skill.created_at = rows.text(row, 8);
  skill.updated_at = rows.text(row, 9);
  return skill;
}

tl::unexpected<Error> pass(const Error& error) { return tl::unexpected<Error>(error); }

Result<void> check_scope(std::string_view user_id) {
  if (user_id.empty()) {
    return fail(ErrorCode::invalid_argument, "database skills need a user (--user)");
  }
  return core::check_user_id(user_id);
}

// PostgreSQL text holds valid UTF-8 without NUL; SQLite holds any bytes. A
// skill's own fields are refused rather than silently changed.
Result<void> check_storable(std::string_view field, std::string_view text) {
  if (text.find('\0') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, "database skill " + std::string(field) + " contains a NUL byte");
  }
  if (auto bad = core::find_invalid_utf8(text)) {
    return fail(ErrorCode::invalid_argument, "database skill " + std::string(field) +
                                                 " is not valid UTF-8 (byte " + std::to_string(*bad) + ")");
  }
  return {};
}

// Search documents are derived text: made storable (U+FFFD, NUL dropped) rather than refused.
std::string storable(std::string_view text) {
  std::string out = core::find_invalid_utf8(text) ? core::sanitize_utf8(text) : std::string(text);
  std::erase(out, '\0');
  return out;
}

std::string db_key(std::int64_t id) { return "db:" + std::to_string(id); }

class PostgresStore final : public core::SkillStore {
 public:
  explicit PostgresStore(Connection connection)
      : m_conn(std::move(connection)), m_search_cache(pg::SearchCache::of_database(m_conn.endpoint())) {}

  const char* backend() const override { return "postgres"; }

  Result<std::vector<DbSkill>> list_skills(std::string_view user_id) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
    auto rows = m_conn.exec("SELECT " SKILLRT_PG_ROW_COLUMNS
                            " FROM hermes_skills WHERE user_id = $1 AND is_active ORDER BY name COLLATE \"C\"",
                            {std::string(user_id)});
    if (!rows) {
      return pass(rows.error());
    }
    std::vector<DbSkill> skills;
    skills.reserve(static_cast<std::size_t>(rows->count()));
    for (int row = 0; row < rows->count(); ++row) {
      skills.push_back(read_row(*rows, row));
    }
    return skills;
  }

  Result<DbSkill> get_skill(std::string_view user_id, std::string_view name) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    return active_row(user_id, name, /*for_update=*/false);
  }

  Result<DbSkill> create_skill(std::string_view user_id, const core::NewDbSkill& skill) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    if (auto ok = core::check_skill_name(skill.name, core::SkillNameRule::create); !ok) {
      return pass(ok.error());
    }
    if (auto ok = core::check_category(skill.category.empty() ? std::nullopt
                                                                   : std::optional<std::string>(skill.category)); !ok) {
      return pass(ok.error());
    }
    for (const auto& [field, text] : {std::pair<std::string_view, std::string_view>{"description", skill.description},
                                      {"content", skill.content}}) {
      if (auto ok = check_storable(field, text); !ok) {
        return pass(ok.error());
      }
    }
    std::lock_guard lock(m_mutex);
    return in_transaction([&]() -> Result<DbSkill> {
      auto rows = m_conn.exec("INSERT INTO hermes_skills (user_id, name, description, content, category)"
                              " VALUES ($1, $2, $3, $4, $5) RETURNING " SKILLRT_PG_ROW_COLUMNS,
                              {std::string(user_id), skill.name, skill.description, skill.content, skill.category});
      if (!rows) {
        if (rows.error().code == ErrorCode::refused) {  // the partial unique index said no
          return fail(ErrorCode::refused,
                      "A database skill named '" + skill.name + "' already exists for this user.");
        }
        return pass(rows.error());
      }
      DbSkill row = read_row(*rows, 0);
      if (auto indexed = index_row(row); !indexed) {
        return pass(indexed.error());
      }
      return row;
    });
  }

  Result<DbSkill> update_skill(std::string_view user_id, std::string_view name,
                               const core::DbSkillUpdate& update) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    if (update.category && !update.category->empty()) {
      if (auto ok = core::check_category(update.category); !ok) {
        return pass(ok.error());
      }
    }
    if (update.description) {
      if (auto ok = check_storable("description", *update.description); !ok) {
        return pass(ok.error());
      }
    }
    if (update.content) {
      if (auto ok = check_storable("content", *update.content); !ok) {
        return pass(ok.error());
      }
    }
    if (!core::check_skill_name(name, core::SkillNameRule::create)) {
      return not_found(name);  // create refuses such names: no row can have one
    }
    std::lock_guard lock(m_mutex);
    return in_transaction([&]() -> Result<DbSkill> {
      // An unset field is NULL and keeps its value.
      auto rows = m_conn.exec("UPDATE hermes_skills SET description = COALESCE($3, description),"
                              " content = COALESCE($4, content), category = COALESCE($5, category),"
                              " version = version + 1, updated_at = now()"
                              " WHERE user_id = $1 AND name = $2 AND is_active RETURNING " SKILLRT_PG_ROW_COLUMNS,
                              {std::string(user_id), std::string(name), update.description, update.content,
                               update.category});
      if (!rows) {
        return pass(rows.error());
      }
      if (rows->count() == 0) {
        return not_found(name);
      }
      DbSkill row = read_row(*rows, 0);
      if (auto indexed = index_row(row); !indexed) {
        return pass(indexed.error());
      }
      return row;
    });
  }

  Result<DbSkill> delete_skill(std::string_view user_id, std::string_view name) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    return in_transaction([&]() -> Result<DbSkill> {
      auto current = active_row(user_id, name, /*for_update=*/true);
      if (!current) {
        return pass(current.error());
      }
      if (auto off = m_conn.exec("UPDATE hermes_skills SET is_active = FALSE, updated_at = now() WHERE id = $1",
                                 {std::to_string(current->id)});
          !off) {
        return pass(off.error());
      }
      if (auto gone = m_conn.exec("DELETE FROM skill_search WHERE key = $1", {db_key(current->id)}); !gone) {
        return pass(gone.error());
      }
      return current;
    });
  }

  Result<std::vector<core::DocStamp>> file_doc_stamps(std::string_view owner) override {
    std::lock_guard lock(m_mutex);
    auto rows = m_conn.exec("SELECT key, stamp FROM skill_search WHERE owner = $1 AND skill_id IS NULL"
                            " ORDER BY key COLLATE \"C\"",
                            {storable(owner)});
    if (!rows) {
      return pass(rows.error());
    }
    std::vector<core::DocStamp> stamps;
    stamps.reserve(static_cast<std::size_t>(rows->count()));
    for (int row = 0; row < rows->count(); ++row) {
      stamps.push_back(core::DocStamp{std::string(rows->text(row, 0)), std::string(rows->text(row, 1))});
    }
    return stamps;
  }

  Result<std::vector<core::DocStamp>> user_change_stamps() override {
    std::lock_guard lock(m_mutex);
    // Row count, version sum and last update together change on every
    // create (a new row), update (version + 1) and delete (updated_at).
    auto rows = m_conn.exec(
        "SELECT user_id, count(*)::text || ':' || sum(version)::text || ':' || max(updated_at)::text || ':' ||"
        " sum(CASE WHEN is_active THEN 1 ELSE 0 END)::text"
        " FROM hermes_skills GROUP BY user_id ORDER BY user_id COLLATE \"C\"",
        {});
    if (!rows) {
      return pass(rows.error());
    }
    std::vector<core::DocStamp> stamps;
    stamps.reserve(static_cast<std::size_t>(rows->count()));
    for (int row = 0; row < rows->count(); ++row) {
      stamps.push_back(core::DocStamp{std::string(rows->text(row, 0)), std::string(rows->text(row, 1))});
    }
    return stamps;
  }

  Result<void> sync_file_docs(const std::vector<core::SearchDoc>& docs,
                              const std::vector<std::string>& removed_keys) override {
    for (const core::SearchDoc& doc : docs) {
      if (doc.key.rfind("db:", 0) == 0) {
        return fail(ErrorCode::invalid_argument, "file search documents may not use a \"db:\" key: " + doc.key);
      }
    }
    std::lock_guard lock(m_mutex);
    auto done = in_transaction([&]() -> Result<bool> {
      std::vector<std::string> removed;
      for (const std::string& key : removed_keys) {
        if (key.rfind("db:", 0) != 0) {  // database rows leave the index only through delete_skill
          removed.push_back(storable(key));
        }
      }
      if (!removed.empty()) {
        if (auto gone = m_conn.exec("DELETE FROM skill_search WHERE skill_id IS NULL AND key = ANY($1::text[])",
                                    {pg::text_array(removed)});
            !gone) {
          return pass(gone.error());
        }
      }
      for (std::size_t start = 0; start < docs.size(); start += k_sync_batch) {
        if (auto put = put_file_docs(docs, start, std::min(docs.size(), start + k_sync_batch)); !put) {
          return pass(put.error());
        }
      }
      return true;
    });
    if (!done) {
      return pass(done.error());
    }
    return {};
  }

  Result<std::vector<core::SearchHit>> search(std::optional<std::string_view> user_id, std::string_view query,
                                              std::size_t limit) override {
    if (user_id) {
      if (auto ok = check_scope(*user_id); !ok) {
        return pass(ok.error());
      }
    }
    std::vector<std::string> words = query_words(query);
    if (words.empty()) {
      return fail(ErrorCode::invalid_argument, "search query has no words to look for");
    }
    for (std::string& word : words) {
      word = storable(word);  // invalid UTF-8 becomes U+FFFD, as in the documents
    }
    std::vector<core::SearchHit> hits;
    if (limit == 0) {
      return hits;
    }
    std::lock_guard lock(m_mutex);
    // The scope: shared documents (owner ""), and the caller's own.
    std::vector<std::string> owners{""};
    if (user_id) {
      owners.emplace_back(*user_id);
    }
    std::vector<RankedRow> ranked;
    {
      pg::SearchCache& cache = *m_search_cache;
      std::lock_guard cache_lock(cache.mutex());
      if (auto fresh = cache.catch_up(m_conn, owners); !fresh) {
        return pass(fresh.error());
      }
      CorpusSize corpus;
      double total_length = 0;
      for (const std::string& owner : owners) {
        auto size = cache.owner_size(m_conn, owner);
        if (!size) {
          return pass(size.error());
        }
        corpus.documents += size->documents;
        total_length += size->total_length;
      }
      corpus.average_length = corpus.documents > 0 ? total_length / static_cast<double>(corpus.documents) : 0;
      auto lexemes = cache.lexemes(m_conn, words);
      if (!lexemes) {
        return pass(lexemes.error());
      }
      // One term per lexeme, in query order (a word may stem to several).
      std::vector<WordPostings> terms;
      for (const std::vector<std::string>& of_word : *lexemes) {
        for (const std::string& lexeme : of_word) {
          WordPostings& term = terms.emplace_back();
          for (const std::string& owner : owners) {
            auto list = cache.postings(m_conn, owner, lexeme);
            if (!list) {
              return pass(list.error());
            }
            term.lists.push_back(*list);
          }
        }
      }
      ranked = bm25_top_k(corpus, terms, limit);
    }
    return hits_of(ranked, user_id ? std::string(*user_id) : std::string());
  }

 private:
  // Caller holds m_mutex. The ranked rows as hits, in the same order. A row
  // another connection deleted since its postings were read is left out.
  Result<std::vector<core::SearchHit>> hits_of(const std::vector<RankedRow>& ranked, const std::string& viewer) {
    std::vector<core::SearchHit> hits;
    if (ranked.empty()) {
      return hits;
    }
    std::vector<std::string> ids;
    ids.reserve(ranked.size());
    for (const RankedRow& row : ranked) {
      ids.push_back(std::to_string(row.rowid));
    }
    auto rows = m_conn.exec("SELECT doc_id, key, owner, source, name, description FROM skill_search"
                            " WHERE doc_id = ANY($1::bigint[])",
                            {pg::text_array(ids)});
    if (!rows) {
      return pass(rows.error());
    }
    std::unordered_map<std::int64_t, int> row_of_id;
    for (int row = 0; row < rows->count(); ++row) {
      const std::string_view id = rows->text(row, 0);
      std::int64_t value = 0;
      std::from_chars(id.data(), id.data() + id.size(), value);
      row_of_id.emplace(value, row);
    }
    hits.reserve(ranked.size());
    for (const RankedRow& ranked_row : ranked) {
      const auto found = row_of_id.find(ranked_row.rowid);
      if (found == row_of_id.end()) {
        continue;
      }
      const int row = found->second;
      core::SearchHit hit;
      hit.key = rows->text(row, 1);
      hit.owner = rows->text(row, 2);
      if (!hit.owner.empty() && hit.owner != viewer) {
        return fail(ErrorCode::internal, "postgres: the search index returned another user's document");
      }
      const std::optional<core::Layer> source = core::layer_from_name(rows->text(row, 3));
      if (!source) {
        return fail(ErrorCode::internal, "postgres: the search index holds a document of an unknown source");
      }
      hit.source = *source;
      hit.name = rows->text(row, 4);
      hit.description = rows->text(row, 5);
      hit.score = ranked_row.score;
      hits.push_back(std::move(hit));
    }
    return hits;
  }
  // Runs `body` between BEGIN and COMMIT; any failure rolls back.
  template <typename Body>
  auto in_transaction(Body body) -> decltype(body()) {
    if (auto begun = m_conn.exec("BEGIN"); !begun) {
      return pass(begun.error());
    }
    auto result = body();
    if (!result) {
      m_conn.rollback_quietly();
      return result;
    }
    if (auto committed = m_conn.exec("COMMIT"); !committed) {
      m_conn.rollback_quietly();
      return pass(committed.error());
    }
    return result;
  }

  static tl::unexpected<Error> not_found(std::string_view name) {
    return fail(ErrorCode::not_found,
                "No database skill named '" + core::preview_chars(name, 64, "...") + "' for this user.");
  }

  // Caller holds m_mutex.
  Result<DbSkill> active_row(std::string_view user_id, std::string_view name, bool for_update) {
    if (!core::check_skill_name(name, core::SkillNameRule::create)) {
      return not_found(name);  // create refuses such names: no row can have one
    }
    auto rows = m_conn.exec(for_update ? "SELECT " SKILLRT_PG_ROW_COLUMNS " FROM hermes_skills"
                                         " WHERE user_id = $1 AND name = $2 AND is_active FOR UPDATE"
                                       : "SELECT " SKILLRT_PG_ROW_COLUMNS " FROM hermes_skills"
                                         " WHERE user_id = $1 AND name = $2 AND is_active",
                            {std::string(user_id), std::string(name)});
    if (!rows) {
      return pass(rows.error());
    }
    if (rows->count() == 0) {
      return not_found(name);
    }
    return read_row(*rows, 0);
  }

  // Inserts or replaces the search document of a database row (inside its transaction).
  Result<void> index_row(const DbSkill& row) {
    const core::SearchDoc doc =
        core::make_search_doc(db_key(row.id), row.user_id, core::Layer::database, row.name, row.description, row.content);
    auto put = m_conn.exec(
        "INSERT INTO skill_search (key, owner, source, name, description, tags, triggers, body, stamp, skill_id)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '', $9)"
        " ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, source = EXCLUDED.source, name = EXCLUDED.name,"
        " description = EXCLUDED.description, tags = EXCLUDED.tags, triggers = EXCLUDED.triggers,"
        " body = EXCLUDED.body, stamp = EXCLUDED.stamp, skill_id = EXCLUDED.skill_id",
        {doc.key, storable(doc.owner), core::layer_name(doc.source), storable(doc.name), storable(doc.description), storable(doc.tags),
         storable(doc.triggers), storable(doc.body), std::to_string(row.id)});
    if (!put) {
      return pass(put.error());
    }
    return {};
  }

  // Upserts docs[begin, end) as file docs in one statement (arrays unnested
  // server-side). A file doc never replaces a database row's doc.
  Result<void> put_file_docs(const std::vector<core::SearchDoc>& docs, std::size_t begin, std::size_t end) {
    std::vector<std::vector<std::string>> columns(8);
    for (auto& column : columns) {
      column.reserve(end - begin);
    }
    for (std::size_t i = begin; i < end; ++i) {
      const core::SearchDoc& doc = docs[i];
      columns[0].push_back(storable(doc.key));
      columns[1].push_back(storable(doc.owner));
      columns[2].push_back(core::layer_name(doc.source));
      columns[3].push_back(storable(doc.name));
      columns[4].push_back(storable(doc.description));
      columns[5].push_back(storable(doc.tags));
      columns[6].push_back(storable(doc.triggers));
      columns[7].push_back(storable(doc.body));
    }
    std::vector<Param> params;
    params.reserve(columns.size() + 1);
    for (const auto& column : columns) {
      params.emplace_back(pg::text_array(column));
    }
    std::vector<std::string> stamps;
    stamps.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
      stamps.push_back(storable(docs[i].stamp));
    }
    params.emplace_back(pg::text_array(stamps));
    // DISTINCT ON: a key given twice in one batch keeps its last version.
    auto put = m_conn.exec(
        "INSERT INTO skill_search (key, owner, source, name, description, tags, triggers, body, stamp)"
        " SELECT DISTINCT ON (key) key, owner, source, name, description, tags, triggers, body, stamp FROM"
        " unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],"
        " $9::text[]) WITH ORDINALITY AS d(key, owner, source, name, description, tags, triggers, body, stamp, n)"
        " ORDER BY key, n DESC"
        " ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, source = EXCLUDED.source, name = EXCLUDED.name,"
        " description = EXCLUDED.description, tags = EXCLUDED.tags, triggers = EXCLUDED.triggers,"
        " body = EXCLUDED.body, stamp = EXCLUDED.stamp WHERE skill_search.skill_id IS NULL",
        params);
    if (!put) {
      return pass(put.error());
    }
    return {};
  }

  std::mutex m_mutex;  // one connection, many threads: one statement sequence at a time
  Connection m_conn;
  std::shared_ptr<pg::SearchCache> m_search_cache;  // shared by the stores open on this database
};

}  // namespace

Result<std::unique_ptr<core::SkillStore>> open_postgres_store(const std::string& url) {
  auto connection = Connection::open(url);
  if (!connection) {
    return pass(connection.error());
  }
  if (auto migrated = pg::migrate(*connection); !migrated) {
    return pass(migrated.error());
  }
  return std::unique_ptr<core::SkillStore>(std::make_unique<PostgresStore>(std::move(*connection)));
}

}  // namespace skillrt::store
