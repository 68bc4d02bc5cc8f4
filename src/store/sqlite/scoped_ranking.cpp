#include "store/sqlite/scoped_ranking.hpp"

#include <sqlite3.h>

#include <array>
#include <cmath>

namespace skillrt::store::sqlite {
namespace {

// skill_search's columns: key, owner, source, scope (bookkeeping, weight 0),
// then name, description, tags, triggers, body.
constexpr std::array<double, 9> k_column_weight = {0.0, 0.0, 0.0, 0.0, 10.0, 4.0, 4.0, 4.0, 1.0};
constexpr int k_first_text_column = 4;
constexpr int k_max_words = 64;  // query_words keeps at most 32
constexpr double k_k1 = 1.2;
constexpr double k_b = 0.75;
constexpr double k_idf_floor = 1e-6;  // what FTS5's bm25 gives a word held by half the documents or more

// Tokens in the text columns of the current row; -1 on an FTS5 error.
double text_length(const Fts5ExtensionApi* api, Fts5Context* fts) {
  double length = 0;
  for (int column = k_first_text_column; column < static_cast<int>(k_column_weight.size()); ++column) {
    int tokens = 0;
    if (api->xColumnSize(fts, column, &tokens) != SQLITE_OK) {
      return -1;
    }
    length += tokens;
  }
  return length;
}

void text_length_function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int /*argc*/,
                          sqlite3_value** /*argv*/) {
  const double length = text_length(api, fts);
  if (length < 0) {
    sqlite3_result_error(ctx, "skillrt_text_length: cannot read the row's column sizes", -1);
    return;
  }
  sqlite3_result_double(ctx, length);
}

void scoped_bm25_function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                          sqlite3_value** argv) {
  const int words = argc - 3;
  if (words < 1 || words > k_max_words) {
    sqlite3_result_error(ctx, "skillrt_bm25: expects FIRST, N, AVGDL and one document frequency per word", -1);
    return;
  }
  const int first = sqlite3_value_int(argv[0]);
  const double documents = sqlite3_value_double(argv[1]);
  const double average_length = sqlite3_value_double(argv[2]);
  if (first < 0 || first + words > api->xPhraseCount(fts)) {
    sqlite3_result_error(ctx, "skillrt_bm25: the phrases do not match the query's words", -1);
    return;
  }
  // Weighted frequency of each word in this row: one pass over its hits.
  std::array<double, k_max_words> frequency{};
  int hits = 0;
  if (api->xInstCount(fts, &hits) != SQLITE_OK) {
    sqlite3_result_error(ctx, "skillrt_bm25: cannot read the row's hits", -1);
    return;
  }
  for (int i = 0; i < hits; ++i) {
    int phrase = 0;
    int column = 0;
    int offset = 0;
    if (api->xInst(fts, i, &phrase, &column, &offset) != SQLITE_OK) {
      sqlite3_result_error(ctx, "skillrt_bm25: cannot read a hit", -1);
      return;
    }
    const int word = phrase - first;
    if (word >= 0 && word < words && column >= 0 && column < static_cast<int>(k_column_weight.size())) {
      frequency[static_cast<std::size_t>(word)] += k_column_weight[static_cast<std::size_t>(column)];
    }
  }
  const double length = text_length(api, fts);
  if (length < 0) {
    sqlite3_result_error(ctx, "skillrt_bm25: cannot read the row's column sizes", -1);
    return;
  }
  const double relative_length = average_length > 0 ? length / average_length : 1.0;
  double score = 0;
  for (int w = 0; w < words; ++w) {
    const double f = frequency[static_cast<std::size_t>(w)];
    if (f <= 0) {
      continue;
    }
    const double df = sqlite3_value_double(argv[3 + w]);
    double idf = std::log((documents - df + 0.5) / (df + 0.5));
    if (!(idf > 0)) {
      idf = k_idf_floor;
    }
    score += idf * (f * (k_k1 + 1.0)) / (f + k_k1 * (1.0 - k_b + k_b * relative_length));
  }
  sqlite3_result_double(ctx, -score);
}

// The fts5_api of `db` (documented way: SELECT fts5(?1) with a bound pointer).
fts5_api* fts5_api_of(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  return api;
}

}  // namespace

Result<void> register_scoped_ranking(Connection& conn) {
  fts5_api* api = fts5_api_of(conn.handle());
  if (api == nullptr || api->iVersion < 2) {
    return fail(ErrorCode::internal, "sqlite: this SQLite has no FTS5 (needed for search)");
  }
  if (api->xCreateFunction(api, "skillrt_bm25", nullptr, scoped_bm25_function, nullptr) != SQLITE_OK ||
      api->xCreateFunction(api, "skillrt_text_length", nullptr, text_length_function, nullptr) != SQLITE_OK) {
    return fail(ErrorCode::internal, "sqlite: could not register the search ranking functions");
  }
  return {};
}

}  // namespace skillrt::store::sqlite
