#include "store/sqlite/scoped_ranking.hpp"

#include <sqlite3.h>

#include <array>

namespace skillrt::store::sqlite {
namespace {

// skill_search's columns: key, owner, source, scope (bookkeeping, weight 0),
// then name, description, tags, triggers, body.
constexpr std::array<double, 9> k_column_weight = {0.0, 0.0, 0.0, 0.0, 10.0, 4.0, 4.0, 4.0, 1.0};
constexpr int k_first_text_column = 4;

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

void term_weight_function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                          sqlite3_value** argv) {
  if (argc != 1) {
    sqlite3_result_error(ctx, "skillrt_term_weight: expects the phrase number of the word", -1);
    return;
  }
  const int phrase = sqlite3_value_int(argv[0]);
  if (phrase < 0 || phrase >= api->xPhraseCount(fts)) {
    sqlite3_result_error(ctx, "skillrt_term_weight: no such phrase in the MATCH expression", -1);
    return;
  }
  int hits = 0;
  if (api->xInstCount(fts, &hits) != SQLITE_OK) {
    sqlite3_result_error(ctx, "skillrt_term_weight: cannot read the row's hits", -1);
    return;
  }
  double weight = 0;
  for (int i = 0; i < hits; ++i) {
    int hit_phrase = 0;
    int column = 0;
    int offset = 0;
    if (api->xInst(fts, i, &hit_phrase, &column, &offset) != SQLITE_OK) {
      sqlite3_result_error(ctx, "skillrt_term_weight: cannot read a hit", -1);
      return;
    }
    if (hit_phrase == phrase && column >= 0 && column < static_cast<int>(k_column_weight.size())) {
      weight += k_column_weight[static_cast<std::size_t>(column)];
    }
  }
  sqlite3_result_double(ctx, weight);
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
  if (api->xCreateFunction(api, "skillrt_term_weight", nullptr, term_weight_function, nullptr) != SQLITE_OK ||
      api->xCreateFunction(api, "skillrt_text_length", nullptr, text_length_function, nullptr) != SQLITE_OK) {
    return fail(ErrorCode::internal, "sqlite: could not register the search ranking functions");
  }
  return {};
}

}  // namespace skillrt::store::sqlite
