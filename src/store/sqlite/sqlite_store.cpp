#include "store/sqlite/sqlite_store.hpp"

#include <mutex>
#include <utility>

#include "core/manage/content_checks.hpp"
#include "core/validate/skill_name.hpp"
#include "core/tenancy/user_id.hpp"
#include "store/bm25_top_k.hpp"
#include "store/sqlite/fts_query.hpp"
#include "store/sqlite/scoped_ranking.hpp"
#include "store/sqlite/search_cache.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_schema.hpp"

namespace skillrt::store {
namespace {

namespace fs = std::filesystem;
using core::DbSkill;
using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

constexpr const char* k_row_columns =
    "id, user_id, name, description, content, category, version, is_active, created_at, updated_at";

// The one token of the `scope` column: "shared", or "u" followed by each byte
// of the user id as three decimal digits. Digits only after the prefix, so the
// tokenizer keeps it whole and the porter stemmer leaves it alone, and no user
// id can spell another's token (or "shared").
std::string scope_token(std::string_view owner) {
  if (owner.empty()) {
    return "shared";
  }
  std::string token = "u";
  for (const char c : owner) {
    const auto byte = static_cast<unsigned>(static_cast<unsigned char>(c));
    token += static_cast<char>('0' + byte / 100);
    token += static_cast<char>('0' + byte / 10 % 10);
    token += static_cast<char>('0' + byte % 10);
  }
  return token;
}

DbSkill read_row(const Statement& q) {
  DbSkill row;
  row.id = q.integer(0);
  row.user_id = q.text(1);
  row.name = q.text(2);
  row.description = q.text(3);
  row.content = q.text(4);
  row.category = q.text(5);
  row.version = q.integer(6);
  row.is_active = q.integer(7) != 0;
  row.created_at = q.text(8);
  row.updated_at = q.text(9);
  return row;
}

tl::unexpected<Error> pass(const Error& error) {
  return tl::unexpected<Error>(error);
}

Result<void> check_scope(std::string_view user_id) {
  if (user_id.empty()) {
    return fail(ErrorCode::invalid_argument, "database skills need a user (--user)");
  }
  return core::check_user_id(user_id);
}

std::string db_key(std::int64_t id) {
  return "db:" + std::to_string(id);
}

class SqliteStore final : public core::SkillStore {
public:
  explicit SqliteStore(std::unique_ptr<Connection> conn) : m_conn(std::move(conn)) {}

  const char* backend() const override { return "sqlite"; }

  Result<std::vector<DbSkill>> list_skills(std::string_view user_id) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    auto q = m_conn->prepare(std::string("SELECT ") + k_row_columns +
                             " FROM hermes_skills WHERE user_id = ?1 AND is_active = 1 ORDER BY name");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, user_id);
    std::vector<DbSkill> rows;
    if (auto done = q->each_row([&](sqlite::Statement& row) { rows.push_back(read_row(row)); }); !done) {
      return pass(done.error());
    }
    return rows;
  }

  Result<DbSkill> get_skill(std::string_view user_id, std::string_view name) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    return active_row(user_id, name);
  }

  Result<DbSkill> create_skill(std::string_view user_id, const core::NewDbSkill& skill) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    if (auto ok = core::check_skill_name(skill.name, core::SkillNameRule::create); !ok) {
      return pass(ok.error());
    }
    if (auto ok = core::check_category(skill.category.empty() ? std::nullopt : std::optional<std::string>(skill.category)); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    auto tx = Transaction::begin(*m_conn);
    if (!tx) {
      return pass(tx.error());
    }
    const bool search_cache_current = m_search_cache.is_current(*m_conn);
    if (auto existing = active_row(user_id, skill.name); existing) {
      return fail(ErrorCode::refused, "A database skill named '" + skill.name + "' already exists for this user.");
    } else if (existing.error().code != ErrorCode::not_found) {
      return pass(existing.error());
    }
    const std::string now = sqlite::utc_now_iso();
    auto ins = m_conn->prepare(
        "INSERT INTO hermes_skills (user_id, name, description, content, category, version, is_active, created_at, "
        "updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 1, 1, ?6, ?6)");
    if (!ins) {
      return pass(ins.error());
    }
    ins->bind(1, user_id).bind(2, skill.name).bind(3, skill.description).bind(4, skill.content).bind(5, skill.category);
    ins->bind(6, now);
    if (auto done = ins->run(); !done) {
      return pass(done.error());
    }
    DbSkill row;
    row.id = m_conn->last_insert_rowid();
    row.user_id = std::string(user_id);
    row.name = skill.name;
    row.description = skill.description;
    row.content = skill.content;
    row.category = skill.category;
    row.version = 1;
    row.is_active = true;
    row.created_at = now;
    row.updated_at = now;
    if (auto indexed = index_row(row); !indexed) {
      return pass(indexed.error());
    }
    if (auto done = tx->commit(); !done) {
      return pass(done.error());
    }
    m_search_cache.after_commit(*m_conn, search_cache_current);
    return row;
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
    std::lock_guard lock(m_mutex);
    auto tx = Transaction::begin(*m_conn);
    if (!tx) {
      return pass(tx.error());
    }
    const bool search_cache_current = m_search_cache.is_current(*m_conn);
    auto current = active_row(user_id, name);
    if (!current) {
      return pass(current.error());
    }
    DbSkill row = std::move(*current);
    if (update.description) {
      row.description = *update.description;
    }
    if (update.content) {
      row.content = *update.content;
    }
    if (update.category) {
      row.category = *update.category;
    }
    row.version += 1;
    row.updated_at = sqlite::utc_now_iso();
    auto upd = m_conn->prepare(
        "UPDATE hermes_skills SET description = ?1, content = ?2, category = ?3, version = ?4, updated_at = ?5 "
        "WHERE id = ?6 AND is_active = 1");
    if (!upd) {
      return pass(upd.error());
    }
    upd->bind(1, row.description).bind(2, row.content).bind(3, row.category).bind(4, row.version);
    upd->bind(5, row.updated_at).bind(6, row.id);
    if (auto done = upd->run(); !done) {
      return pass(done.error());
    }
    if (auto indexed = index_row(row); !indexed) {
      return pass(indexed.error());
    }
    if (auto done = tx->commit(); !done) {
      return pass(done.error());
    }
    m_search_cache.after_commit(*m_conn, search_cache_current);
    return row;
  }

  Result<DbSkill> delete_skill(std::string_view user_id, std::string_view name) override {
    if (auto ok = check_scope(user_id); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    auto tx = Transaction::begin(*m_conn);
    if (!tx) {
      return pass(tx.error());
    }
    const bool search_cache_current = m_search_cache.is_current(*m_conn);
    auto current = active_row(user_id, name);
    if (!current) {
      return pass(current.error());
    }
    const std::string now = sqlite::utc_now_iso();
    auto off = m_conn->prepare("UPDATE hermes_skills SET is_active = 0, updated_at = ?1 WHERE id = ?2");
    if (!off) {
      return pass(off.error());
    }
    if (auto done = off->bind(1, now).bind(2, current->id).run(); !done) {
      return pass(done.error());
    }
    if (auto gone = remove_doc(db_key(current->id)); !gone) {
      return pass(gone.error());
    }
    if (auto done = tx->commit(); !done) {
      return pass(done.error());
    }
    m_search_cache.after_commit(*m_conn, search_cache_current);
    return current;
  }

  Result<std::vector<core::DocStamp>> file_doc_stamps(std::string_view owner) override {
    std::lock_guard lock(m_mutex);
    auto q = m_conn->prepare("SELECT key, stamp FROM search_docs WHERE owner = ?1 AND is_file = 1 ORDER BY key");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, owner);
    std::vector<core::DocStamp> stamps;
    if (auto done = q->each_row([&](sqlite::Statement& row) {
          stamps.push_back(core::DocStamp{row.text(0), row.text(1)});
        });
        !done) {
      return pass(done.error());
    }
    return stamps;
  }

  Result<std::vector<core::DocStamp>> user_change_stamps() override {
    std::lock_guard lock(m_mutex);
    // Row count, version sum and last update together change on every
    // create (a new row), update (version + 1) and delete (updated_at).
    auto q = m_conn->prepare(
        "SELECT user_id, count(*) || ':' || sum(version) || ':' || max(updated_at) || ':' || sum(is_active)"
        " FROM hermes_skills GROUP BY user_id ORDER BY user_id");
    if (!q) {
      return pass(q.error());
    }
    std::vector<core::DocStamp> stamps;
    if (auto done = q->each_row([&](sqlite::Statement& row) {
          stamps.push_back(core::DocStamp{row.text(0), row.text(1)});
        });
        !done) {
      return pass(done.error());
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
    auto tx = Transaction::begin(*m_conn);
    if (!tx) {
      return pass(tx.error());
    }
    const bool search_cache_current = m_search_cache.is_current(*m_conn);
    for (const std::string& key : removed_keys) {
      if (key.rfind("db:", 0) == 0) {
        continue; // database rows leave the index only through delete_skill
      }
      if (auto gone = remove_doc(key); !gone) {
        return gone;
      }
    }
    for (const core::SearchDoc& doc : docs) {
      if (auto put = put_doc(doc, true); !put) {
        return put;
      }
    }
    if (auto done = tx->commit(); !done) {
      return done;
    }
    m_search_cache.after_commit(*m_conn, search_cache_current);
    return {};
  }

  // bm25 over the caller's scope, summed in memory over each word's postings
  // (bm25_top_k.hpp), which the cache reads out of FTS5 once and keeps in step
  // with this connection's writes (search_cache.hpp); only the hits' own
  // columns are read per query.
  Result<std::vector<core::SearchHit>> search(std::optional<std::string_view> user_id, std::string_view query,
                                              std::size_t limit) override {
    if (user_id) {
      if (auto ok = check_scope(*user_id); !ok) {
        return pass(ok.error());
      }
    }
    const std::vector<std::string> words = query_words(query);
    if (words.empty()) {
      return pass(fts5_match_expression(words).error());
    }
    if (limit == 0) {
      return std::vector<core::SearchHit>{};
    }
    std::lock_guard lock(m_mutex);
    if (auto fresh = m_search_cache.drop_what_may_be_stale(*m_conn); !fresh) {
      return pass(fresh.error());
    }
    // The scope: shared documents, and the caller's own.
    std::vector<std::string> owners{scope_token("")};
    if (user_id) {
      owners.push_back(scope_token(*user_id));
    }
    CorpusSize corpus;
    double total_length = 0;
    for (const std::string& owner : owners) {
      auto size = m_search_cache.owner_size(*m_conn, owner);
      if (!size) {
        return pass(size.error());
      }
      corpus.documents += size->documents;
      total_length += size->total_length;
    }
    corpus.average_length = corpus.documents > 0 ? total_length / static_cast<double>(corpus.documents) : 0;
    std::vector<WordPostings> postings(words.size());
    for (std::size_t w = 0; w < words.size(); ++w) {
      for (const std::string& owner : owners) {
        auto list = m_search_cache.postings(*m_conn, owner, words[w]);
        if (!list) {
          return pass(list.error());
        }
        postings[w].lists.push_back(*list);
      }
    }
    const std::vector<RankedRow> ranked = bm25_top_k(corpus, postings, limit);
    return hits_of(ranked, user_id ? std::string(*user_id) : std::string());
  }

private:
  // Caller holds m_mutex. The ranked rows as hits, in the same order.
  Result<std::vector<core::SearchHit>> hits_of(const std::vector<RankedRow>& ranked, const std::string& viewer) {
    std::vector<core::SearchHit> hits;
    hits.reserve(ranked.size());
    for (const RankedRow& row : ranked) {
      auto q = m_conn->prepare("SELECT key, owner, source, name, description FROM skill_search WHERE rowid = ?1");
      if (!q) {
        return pass(q.error());
      }
      q->bind(1, row.rowid);
      auto found = q->step();
      if (!found) {
        return pass(found.error());
      }
      if (!*found) {
        return fail(ErrorCode::internal, "sqlite: a ranked search document is missing from the index");
      }
      core::SearchHit hit;
      hit.key = q->text(0);
      hit.owner = q->text(1);
      if (!hit.owner.empty() && hit.owner != viewer) {
        return fail(ErrorCode::internal, "sqlite: the search index returned another user's document");
      }
      const std::optional<core::Layer> source = core::layer_from_name(q->text(2));
      if (!source) {
        return fail(ErrorCode::internal, "sqlite: the search index holds a document of an unknown source");
      }
      hit.source = *source;
      hit.name = q->text(3);
      hit.description = q->text(4);
      hit.score = row.score;
      hits.push_back(std::move(hit));
    }
    return hits;
  }

  // Caller holds m_mutex.
  Result<DbSkill> active_row(std::string_view user_id, std::string_view name) {
    auto q = m_conn->prepare(std::string("SELECT ") + k_row_columns +
                             " FROM hermes_skills WHERE user_id = ?1 AND name = ?2 AND is_active = 1");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, user_id).bind(2, name);
    auto row = q->step();
    if (!row) {
      return pass(row.error());
    }
    if (!*row) {
      return fail(ErrorCode::not_found,
                  "No database skill named '" + core::preview_chars(name, 64, "...") + "' for this user.");
    }
    return read_row(*q);
  }

  Result<void> index_row(const DbSkill& row) {
    return put_doc(
        core::make_search_doc(db_key(row.id), row.user_id, core::Layer::database, row.name, row.description, row.content), false);
  }

  Result<void> remove_doc(const std::string& key) {
    auto find = m_conn->prepare("SELECT id, owner FROM search_docs WHERE key = ?1");
    if (!find) {
      return pass(find.error());
    }
    find->bind(1, key);
    auto row = find->step();
    if (!row) {
      return pass(row.error());
    }
    if (!*row) {
      return {};
    }
    const std::int64_t id = find->integer(0);
    m_search_cache.before_remove(*m_conn, scope_token(find->text(1)), id);
    auto del_fts = m_conn->prepare("DELETE FROM skill_search WHERE rowid = ?1");
    if (!del_fts) {
      return pass(del_fts.error());
    }
    if (auto done = del_fts->bind(1, id).run(); !done) {
      return done;
    }
    auto del_doc = m_conn->prepare("DELETE FROM search_docs WHERE id = ?1");
    if (!del_doc) {
      return pass(del_doc.error());
    }
    return del_doc->bind(1, id).run();
  }

  // Inserts or replaces the document with doc.key.
  Result<void> put_doc(const core::SearchDoc& doc, bool is_file) {
    if (auto gone = remove_doc(doc.key); !gone) {
      return gone;
    }
    auto ins_doc =
        m_conn->prepare("INSERT INTO search_docs (key, owner, source, is_file, stamp) VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!ins_doc) {
      return pass(ins_doc.error());
    }
    ins_doc->bind(1, doc.key).bind(2, doc.owner).bind(3, std::string_view(core::layer_name(doc.source))).bind(4, std::int64_t{is_file ? 1 : 0});
    ins_doc->bind(5, doc.stamp);
    if (auto done = ins_doc->run(); !done) {
      return done;
    }
    const std::int64_t id = m_conn->last_insert_rowid();
    auto ins_fts = m_conn->prepare(
        "INSERT INTO skill_search (rowid, key, owner, source, scope, name, description, tags, triggers, "
        "body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    if (!ins_fts) {
      return pass(ins_fts.error());
    }
    ins_fts->bind(1, id).bind(2, doc.key).bind(3, doc.owner).bind(4, std::string_view(core::layer_name(doc.source))).bind(5, scope_token(doc.owner));
    ins_fts->bind(6, doc.name).bind(7, doc.description).bind(8, doc.tags).bind(9, doc.triggers).bind(10, doc.body);
    if (auto done = ins_fts->run(); !done) {
      return done;
    }
    m_search_cache.after_insert(*m_conn, scope_token(doc.owner), id);
    return {};
  }

  std::mutex m_mutex; // one connection, many threads: one transaction at a time
  std::unique_ptr<Connection> m_conn;
  sqlite::SearchCache m_search_cache; // guarded by m_mutex; told of every write to the index
};

} // namespace

Result<std::unique_ptr<core::SkillStore>> open_sqlite_store(const fs::path& path) {
  auto conn = Connection::open(path);
  if (!conn) {
    return pass(conn.error());
  }
  if (auto migrated = sqlite::migrate(**conn); !migrated) {
    return pass(migrated.error());
  }
  if (auto ranking = sqlite::register_scoped_ranking(**conn); !ranking) {
    return pass(ranking.error());
  }
  return std::unique_ptr<core::SkillStore>(std::make_unique<SqliteStore>(std::move(*conn)));
}

Result<std::vector<DbSkill>> sqlite_rows_named(const fs::path& path, std::string_view user_id, std::string_view name) {
  auto conn = Connection::open_read_only(path);
  if (!conn) {
    return pass(conn.error());
  }
  auto q = (*conn)->prepare(std::string("SELECT ") + k_row_columns +
                            " FROM hermes_skills WHERE user_id = ?1 AND name = ?2 ORDER BY id");
  if (!q) {
    return pass(q.error());
  }
  q->bind(1, user_id).bind(2, name);
  std::vector<DbSkill> rows;
  while (true) {
    auto more = q->step();
    if (!more) {
      return pass(more.error());
    }
    if (!*more) {
      break;
    }
    rows.push_back(read_row(*q));
  }
  return rows;
}

Result<std::string> sqlite_integrity_check(const fs::path& path) {
  auto conn = Connection::open_read_only(path);
  if (!conn) {
    return pass(conn.error());
  }
  auto q = (*conn)->prepare("PRAGMA integrity_check");
  if (!q) {
    return pass(q.error());
  }
  std::string report;
  while (true) {
    auto more = q->step();
    if (!more) {
      return pass(more.error());
    }
    if (!*more) {
      break;
    }
    if (!report.empty()) {
      report += '\n';
    }
    report += q->text(0);
  }
  return report;
}

} // namespace skillrt::store
