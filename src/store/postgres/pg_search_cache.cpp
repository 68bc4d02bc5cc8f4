#include "store/postgres/pg_search_cache.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <utility>

namespace skillrt::store::pg {
namespace {

// Bounds, as the SQLite store's: past them everything is dropped between two
// queries (a query never loses a list it holds).
constexpr std::size_t k_max_postings = 2'000'000;  // 16 bytes each: 32 MB
constexpr std::size_t k_max_lists = 16'384;
constexpr std::size_t k_max_owners = 256;
constexpr std::size_t k_max_words = 65'536;
// How far behind an owner may be caught up rather than read again (the
// triggers keep the last 1,024 generations).
constexpr std::int64_t k_max_generations_behind = 1'000;
constexpr std::size_t k_max_changed_documents = 4'096;

template <typename Number>
Number number_of(std::string_view text) {
  Number value{};
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// A tsquery of one lexeme, taken as it is (no stemming again): quoted, with
// quotes and backslashes escaped as tsquery input wants them.
std::string lexeme_query(const std::string& lexeme) {
  std::string query = "'";
  for (const char c : lexeme) {
    if (c == '\'' || c == '\\') {
      query += c == '\'' ? '\'' : '\\';
    }
    query += c;
  }
  query += '\'';
  return query;
}

std::mutex g_registry_mutex;
std::unordered_map<std::string, std::weak_ptr<SearchCache>> g_registry;

}  // namespace

std::shared_ptr<SearchCache> SearchCache::of_database(const Endpoint& endpoint) {
  const std::string key = endpoint.host + '\n' + endpoint.port + '\n' + endpoint.dbname;
  std::lock_guard lock(g_registry_mutex);
  std::weak_ptr<SearchCache>& slot = g_registry[key];
  std::shared_ptr<SearchCache> cache = slot.lock();
  if (!cache) {
    cache = std::make_shared<SearchCache>();
    slot = cache;
  }
  return cache;
}

void SearchCache::clear() {
  m_of_owner.clear();
  m_posting_count = 0;
  m_list_count = 0;
}

void SearchCache::reset_owner(OwnerCache& cached, std::int64_t generation) {
  for (const auto& [lexeme, list] : cached.of_lexeme) {
    m_posting_count -= list.size();
  }
  m_list_count -= cached.of_lexeme.size();
  cached = OwnerCache{};
  cached.generation = generation;
}

Result<void> SearchCache::catch_up(Connection& conn, const std::vector<std::string>& owners) {
  if (m_posting_count > k_max_postings || m_list_count > k_max_lists || m_of_owner.size() > k_max_owners) {
    clear();
  }
  if (m_lexemes_of_word.size() > k_max_words) {
    m_lexemes_of_word.clear();
  }
  auto rows = conn.exec("SELECT owner, generation FROM skill_search_generation WHERE owner = ANY($1::text[])",
                        {text_array(owners)});
  if (!rows) {
    return tl::unexpected(rows.error());
  }
  for (const std::string& owner : owners) {
    std::int64_t generation = 0;  // no row yet: the owner never had a document
    for (int row = 0; row < rows->count(); ++row) {
      if (rows->text(row, 0) == owner) {
        generation = number_of<std::int64_t>(rows->text(row, 1));
      }
    }
    OwnerCache& cached = m_of_owner[owner];
    if (cached.generation == generation) {
      continue;
    }
    const bool holds_nothing = !cached.size_known && cached.of_lexeme.empty();
    if (holds_nothing || cached.generation < 0 || generation < cached.generation ||
        generation - cached.generation > k_max_generations_behind) {
      reset_owner(cached, generation);
      continue;
    }
    auto caught = catch_up_owner(conn, owner, cached);
    if (!caught) {
      conn.rollback_quietly();
      return tl::unexpected(caught.error());
    }
  }
  return {};
}

Result<bool> SearchCache::catch_up_owner(Connection& conn, const std::string& owner, OwnerCache& cached) {
  if (auto begun = conn.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); !begun) {
    return tl::unexpected(begun.error());
  }
  // The generation again, in the snapshot the changes and documents are read in.
  auto now = conn.exec("SELECT generation FROM skill_search_generation WHERE owner = $1", {owner});
  if (!now) {
    return tl::unexpected(now.error());
  }
  const std::int64_t generation = now->count() > 0 ? number_of<std::int64_t>(now->text(0, 0)) : 0;
  auto changes = conn.exec(
      "SELECT generation, doc_id, old_length FROM skill_search_changes"
      " WHERE owner = $1 AND generation > $2::bigint AND generation <= $3::bigint ORDER BY generation, doc_id",
      {owner, std::to_string(cached.generation), std::to_string(generation)});
  if (!changes) {
    return tl::unexpected(changes.error());
  }
  // Every generation notes at least one document, so a first change later
  // than the next generation means the ones between were pruned.
  const bool pruned =
      changes->count() == 0 || number_of<std::int64_t>(changes->text(0, 0)) != cached.generation + 1;
  if (generation < cached.generation || pruned || static_cast<std::size_t>(changes->count()) > k_max_changed_documents) {
    if (auto ended = conn.exec("COMMIT"); !ended) {
      return tl::unexpected(ended.error());
    }
    reset_owner(cached, generation);
    return false;
  }
  // Per document, its length before the first change of the gap (nullopt:
  // it did not exist then).
  std::unordered_map<std::int64_t, std::optional<double>> before;
  std::vector<std::string> ids;
  for (int row = 0; row < changes->count(); ++row) {
    const auto id = number_of<std::int64_t>(changes->text(row, 1));
    if (before.count(id) == 0) {
      const std::string_view old_length = changes->text(row, 2);
      before.emplace(id, old_length.empty() ? std::nullopt : std::optional<double>(number_of<double>(old_length)));
      ids.push_back(std::to_string(id));
    }
  }
  std::vector<std::string> lexemes;
  lexemes.reserve(cached.of_lexeme.size());
  for (const auto& [lexeme, list] : cached.of_lexeme) {
    lexemes.push_back(lexeme);
  }
  // The changed documents as they are now, with their postings of the kept
  // lexemes (a document holding none comes once, with a NULL lexeme).
  auto current = conn.exec(
      "SELECT s.doc_id, s.text_length, u.lexeme,"
      " (SELECT sum(CASE w WHEN 'A' THEN 10 WHEN 'B' THEN 4 ELSE 1 END) FROM unnest(u.weights) AS w)"
      " FROM skill_search s LEFT JOIN LATERAL"
      " (SELECT lexeme, weights FROM unnest(s.document) WHERE lexeme = ANY($3::text[])) AS u ON true"
      " WHERE s.doc_id = ANY($1::bigint[]) AND s.owner = $2",
      {text_array(ids), owner, text_array(lexemes)});
  if (!current) {
    return tl::unexpected(current.error());
  }
  if (auto ended = conn.exec("COMMIT"); !ended) {
    return tl::unexpected(ended.error());
  }

  // Out with every changed document, from every list and from the size. A
  // few documents are looked up in each list (sorted by doc_id); many are
  // filtered out in one pass over it.
  const auto by_id = [](const Posting& a, std::int64_t id) { return a.rowid < id; };
  for (auto& [lexeme, list] : cached.of_lexeme) {
    const std::size_t had = list.size();
    if (before.size() <= 64) {
      for (const auto& [id, length] : before) {
        const auto at = std::lower_bound(list.begin(), list.end(), id, by_id);
        if (at != list.end() && at->rowid == id) {
          list.erase(at);
        }
      }
    } else {
      list.erase(std::remove_if(list.begin(), list.end(),
                                [&](const Posting& posting) { return before.count(posting.rowid) != 0; }),
                 list.end());
    }
    m_posting_count -= had - list.size();
  }
  if (cached.size_known) {
    for (const auto& [id, length] : before) {
      if (length) {
        cached.size.documents -= 1;
        cached.size.total_length -= *length;
      }
    }
  }
  // In with the ones that still exist.
  std::unordered_map<std::int64_t, double> present;
  for (int row = 0; row < current->count(); ++row) {
    const auto id = number_of<std::int64_t>(current->text(row, 0));
    const auto length = number_of<std::uint32_t>(current->text(row, 1));
    present.emplace(id, length);
    const std::string_view lexeme = current->text(row, 2);
    if (lexeme.empty()) {
      continue;
    }
    const auto list = cached.of_lexeme.find(std::string(lexeme));
    if (list == cached.of_lexeme.end()) {
      continue;
    }
    const Posting posting{id, number_of<float>(current->text(row, 3)), length};
    const auto at = std::lower_bound(list->second.begin(), list->second.end(), posting,
                                     [](const Posting& a, const Posting& b) { return a.rowid < b.rowid; });
    list->second.insert(at, posting);
    ++m_posting_count;
  }
  if (cached.size_known) {
    for (const auto& [id, length] : present) {
      cached.size.documents += 1;
      cached.size.total_length += length;
    }
  }
  cached.generation = generation;
  return true;
}

Result<OwnerSize> SearchCache::owner_size(Connection& conn, const std::string& owner) {
  OwnerCache& cached = m_of_owner[owner];
  if (cached.size_known) {
    return cached.size;
  }
  // With the generation, in one snapshot: catching up adds and subtracts
  // lengths, so the size must be exactly that of the generation it is
  // labelled with. A newer one than the lists' starts the owner over.
  auto rows = conn.exec(
      "SELECT count(*), coalesce(sum(text_length), 0),"
      " coalesce((SELECT generation FROM skill_search_generation WHERE owner = $1), 0)"
      " FROM skill_search WHERE owner = $1",
      {owner});
  if (!rows) {
    return tl::unexpected(rows.error());
  }
  if (const auto generation = number_of<std::int64_t>(rows->text(0, 2)); generation != cached.generation) {
    reset_owner(cached, generation);
  }
  cached.size.documents = number_of<std::int64_t>(rows->text(0, 0));
  cached.size.total_length = number_of<double>(rows->text(0, 1));
  cached.size_known = true;
  return cached.size;
}

Result<std::vector<std::vector<std::string>>> SearchCache::lexemes(Connection& conn,
                                                                   const std::vector<std::string>& words) {
  std::vector<std::string> unknown;  // each once, though a query may repeat a word
  for (const std::string& word : words) {
    if (m_lexemes_of_word.count(word) == 0 && std::find(unknown.begin(), unknown.end(), word) == unknown.end()) {
      unknown.push_back(word);
    }
  }
  if (!unknown.empty()) {
    auto rows = conn.exec(
        "SELECT w.ord, l.lexeme FROM unnest($1::text[]) WITH ORDINALITY AS w(word, ord)"
        " LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector('skillrt_english', w.word))) AS l(lexeme) ON true"
        " ORDER BY w.ord, l.lexeme",
        {text_array(unknown)});
    if (!rows) {
      return tl::unexpected(rows.error());
    }
    for (const std::string& word : unknown) {
      m_lexemes_of_word[word];  // a word with no lexeme is known too
    }
    for (int row = 0; row < rows->count(); ++row) {
      const auto ord = number_of<std::size_t>(rows->text(row, 0));
      const std::string_view lexeme = rows->text(row, 1);
      if (ord >= 1 && ord <= unknown.size() && !lexeme.empty()) {
        m_lexemes_of_word[unknown[ord - 1]].emplace_back(lexeme);
      }
    }
  }
  std::vector<std::vector<std::string>> result;
  result.reserve(words.size());
  for (const std::string& word : words) {
    result.push_back(m_lexemes_of_word[word]);
  }
  return result;
}

Result<const PostingList*> SearchCache::postings(Connection& conn, const std::string& owner,
                                                 const std::string& lexeme) {
  OwnerCache& cached = m_of_owner[owner];
  if (auto found = cached.of_lexeme.find(lexeme); found != cached.of_lexeme.end()) {
    return &found->second;
  }
  // The GIN index finds the rows; ts_rank_cd reads the weighted frequency
  // (the header says how); rows come in doc_id order, as bm25_top_k merges.
  auto rows = conn.exec(
      "SELECT doc_id, text_length, ts_rank_cd('{0.1,0.1,0.4,1.0}', document, q, 0)"
      " FROM skill_search, CAST($2 AS tsquery) AS q"
      " WHERE document @@ q AND owner = $1 ORDER BY doc_id",
      {owner, lexeme_query(lexeme)});
  if (!rows) {
    return tl::unexpected(rows.error());
  }
  PostingList list;
  list.reserve(static_cast<std::size_t>(rows->count()));
  for (int row = 0; row < rows->count(); ++row) {
    Posting posting;
    posting.rowid = number_of<std::int64_t>(rows->text(row, 0));
    posting.length = number_of<std::uint32_t>(rows->text(row, 1));
    // A tenth of a whole number, as float4: rounding gives the number back.
    posting.weighted_frequency = std::round(10.0F * number_of<float>(rows->text(row, 2)));
    list.push_back(posting);
  }
  m_posting_count += list.size();
  ++m_list_count;
  return &(cached.of_lexeme[lexeme] = std::move(list));
}

}  // namespace skillrt::store::pg
