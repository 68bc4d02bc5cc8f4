#include "store/sqlite/sqlite_store.hpp"

#include <mutex>
#include <unordered_map>
#include <utility>

#include "core/manage/content_checks.hpp"
#include "core/validate/skill_name.hpp"
#include "core/tenancy/user_id.hpp"
#include "store/sqlite/fts_query.hpp"
#include "store/sqlite/scoped_ranking.hpp"
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

// The columns a query's words are looked for in (never `scope`).
constexpr const char* k_text_columns = "{name description tags triggers body}";

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
    return tx->commit();
  }

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
    const Scope scope = scope_of(user_id);
    auto stats = scope_statistics(scope);
    if (!stats) {
      return pass(stats.error());
    }
    auto weighed = words_with_weight(scope, **stats, words);
    if (!weighed) {
      return pass(weighed.error());
    }
    auto hits = top_hits(scope, **stats, *weighed, limit);
    if (hits && weighed->size() < words.size() && hits->size() < limit) {
      // Too few rows hold a word that weighs: the rest of the window is the
      // rows holding only the dropped words (near-zero scores), as before.
      return top_hits(scope, **stats, words, limit);
    }
    return hits;
  }

private:
  // Who a search is for, as FTS5 sees it: the scope tokens it may match and
  // how many phrases they take at the front of the MATCH expression.
  struct Scope {
    std::string viewer;      // user id, "" for no user
    std::string expression;  // scope : ("shared" [OR "u…"])
    int phrases = 1;
  };

  static Scope scope_of(std::optional<std::string_view> user_id) {
    Scope scope;
    scope.expression = "scope : (\"shared\"";
    if (user_id) {
      scope.viewer = std::string(*user_id);
      scope.expression += " OR \"" + scope_token(*user_id) + "\"";
      scope.phrases = 2;
    }
    scope.expression += ")";
    return scope;
  }

  // What the ranking of one scope needs, counted over that scope's documents
  // only (see scoped_ranking.hpp for why), kept between searches.
  struct ScopeStatistics {
    std::int64_t documents = 0;
    double average_length = 0;  // tokens in the text columns
    std::unordered_map<std::string, std::int64_t> of_word;  // document frequency
  };

  // Caller holds m_mutex. The best `limit` documents of `scope` for the OR of
  // `words`, best first, ranked by bm25 over the scope's documents.
  Result<std::vector<core::SearchHit>> top_hits(const Scope& scope, ScopeStatistics& stats,
                                                const std::vector<std::string>& words, std::size_t limit) {
    auto match = fts5_match_expression(words);
    if (!match) {
      return pass(match.error());
    }
    std::vector<std::int64_t> frequencies;
    for (const std::string& word : words) {
      auto df = doc_frequency(scope, stats, word);
      if (!df) {
        return pass(df.error());
      }
      frequencies.push_back(*df);
    }
    // Parameters: ?1 MATCH, ?2 LIMIT, ?3 first word phrase, ?4 N, ?5 average
    // length, ?6… one document frequency per word. The text depends only on
    // the number of words, so the statement cache stays small.
    std::string rank = "skillrt_bm25(skill_search, ?3, ?4, ?5";
    for (std::size_t i = 0; i < words.size(); ++i) {
      rank += ", ?" + std::to_string(6 + i);
    }
    rank += ")";
    auto q = m_conn->prepare(
        "SELECT s.key, s.owner, s.source, s.name, s.description, top.rank FROM (SELECT rowid AS id, " + rank +
        " AS rank FROM skill_search WHERE skill_search MATCH ?1 ORDER BY rank, rowid LIMIT ?2)"
        " AS top JOIN skill_search AS s ON s.rowid = top.id ORDER BY top.rank, top.id");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, scope.expression + " AND " + k_text_columns + " : (" + *match + ")")
        .bind(2, static_cast<std::int64_t>(limit))
        .bind(3, static_cast<std::int64_t>(scope.phrases))
        .bind(4, stats.documents)
        .bind(5, stats.average_length);
    for (std::size_t i = 0; i < frequencies.size(); ++i) {
      q->bind(static_cast<int>(6 + i), frequencies[i]);
    }
    std::vector<core::SearchHit> hits;
    while (true) {
      auto more = q->step();
      if (!more) {
        return pass(more.error());
      }
      if (!*more) {
        break;
      }
      core::SearchHit hit;
      hit.key = q->text(0);
      hit.owner = q->text(1);
      if (!hit.owner.empty() && hit.owner != scope.viewer) {
        return fail(ErrorCode::internal, "sqlite: the search index returned another user's document");
      }
      const std::optional<core::Layer> source = core::layer_from_name(q->text(2));
      if (!source) {
        return fail(ErrorCode::internal, "sqlite: the search index holds a document of an unknown source");
      }
      hit.source = *source;
      hit.name = q->text(3);
      hit.description = q->text(4);
      hit.score = -q->real(5); // the rank is minus the score, like bm25()
      hits.push_back(std::move(hit));
    }
    return hits;
  }

  // Caller holds m_mutex. `words` without those bm25 gives no weight: a word
  // held by at least half of the scope's documents gets the floor IDF (1e-6),
  // so it cannot change which rows come first, it only makes the engine score
  // every row holding it (tens of ms at 50k documents). All are kept when
  // none would be left.
  Result<std::vector<std::string>> words_with_weight(const Scope& scope, ScopeStatistics& stats,
                                                     const std::vector<std::string>& words) {
    if (words.size() < 2) {
      return words;
    }
    std::vector<std::string> kept;
    for (const std::string& word : words) {
      auto df = doc_frequency(scope, stats, word);
      if (!df) {
        return pass(df.error());
      }
      // bm25 IDF = ln((N - df + 0.5) / (df + 0.5)), floored when <= 0.
      if (*df * 2 < stats.documents) {
        kept.push_back(word);
      }
    }
    if (kept.empty()) {
      return words;
    }
    return kept;
  }

  // Caller holds m_mutex. The statistics of `scope`, counted when the index
  // may have changed since they were last counted: this connection's writes
  // move total_changes(), another connection's commits move data_version.
  Result<ScopeStatistics*> scope_statistics(const Scope& scope) {
    auto q = m_conn->prepare("SELECT total_changes(), data_version FROM pragma_data_version");
    if (!q) {
      return pass(q.error());
    }
    auto row = q->step();
    if (!row) {
      return pass(row.error());
    }
    if (!*row) {
      return fail(ErrorCode::internal, "sqlite: pragma data_version returned no row");
    }
    const std::int64_t changes = q->integer(0);
    const std::int64_t version = q->integer(1);
    if (changes != m_statistics.changes || version != m_statistics.data_version ||
        m_statistics.of_scope.size() >= k_max_cached_scopes) {
      m_statistics.of_scope.clear();
      m_statistics.changes = changes;
      m_statistics.data_version = version;
    }
    auto found = m_statistics.of_scope.find(scope.expression);
    if (found != m_statistics.of_scope.end()) {
      if (found->second.of_word.size() >= k_max_cached_words) {
        found->second.of_word.clear();
      }
      return &found->second;
    }
    // Row by row: FTS5 refuses an auxiliary function inside an aggregate.
    auto lengths = m_conn->prepare("SELECT skillrt_text_length(skill_search) FROM skill_search WHERE skill_search MATCH ?1");
    if (!lengths) {
      return pass(lengths.error());
    }
    lengths->bind(1, scope.expression);
    ScopeStatistics stats;
    double total_length = 0;
    if (auto done = lengths->each_row([&](sqlite::Statement& length_row) {
          ++stats.documents;
          total_length += length_row.real(0);
        });
        !done) {
      return pass(done.error());
    }
    stats.average_length = stats.documents > 0 ? total_length / static_cast<double>(stats.documents) : 0;
    return &m_statistics.of_scope.emplace(scope.expression, std::move(stats)).first->second;
  }

  // Caller holds m_mutex. How many documents of `scope` hold `word` in a text
  // column (stemmed like the query).
  Result<std::int64_t> doc_frequency(const Scope& scope, ScopeStatistics& stats, const std::string& word) {
    if (auto it = stats.of_word.find(word); it != stats.of_word.end()) {
      return it->second;
    }
    auto match = fts5_match_expression(std::vector<std::string>{word});
    if (!match) {
      return pass(match.error());
    }
    auto q = m_conn->prepare("SELECT count(*) FROM skill_search WHERE skill_search MATCH ?1");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, scope.expression + " AND " + k_text_columns + " : (" + *match + ")");
    auto row = q->step();
    if (!row) {
      return pass(row.error());
    }
    const std::int64_t df = *row ? q->integer(0) : 0;
    stats.of_word.emplace(word, df);
    return df;
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
    auto find = m_conn->prepare("SELECT id FROM search_docs WHERE key = ?1");
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
    return ins_fts->run();
  }

  // Ranking statistics per scope, kept between searches (counting a word held
  // by most documents reads its whole posting list, ~25 ms at 50k); all are
  // dropped when the index may have changed.
  struct Statistics {
    std::int64_t changes = -1;      // total_changes() when counted
    std::int64_t data_version = -1; // PRAGMA data_version when counted
    std::unordered_map<std::string, ScopeStatistics> of_scope;
  };
  static constexpr std::size_t k_max_cached_words = 4096; // per scope: bounds a long-lived server's cache
  static constexpr std::size_t k_max_cached_scopes = 256;

  std::mutex m_mutex; // one connection, many threads: one transaction at a time
  std::unique_ptr<Connection> m_conn;
  Statistics m_statistics; // guarded by m_mutex
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
