// Versioned migrations of the SQLite store. `schema_migrations(version,
// applied_at)` records each applied step; a step runs once, inside the same
// transaction as its record. A file whose schema is newer than this binary
// knows is refused rather than guessed at.
#pragma once

#include "skillrt/result.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace skillrt::store::sqlite {

// The newest schema version this binary writes.
int latest_schema_version();

// Applies every pending migration (one transaction for all of them).
Result<void> migrate(Connection& conn);

// "2026-11-30T23:59:59.123Z": now, UTC, milliseconds.
std::string utc_now_iso();

} // namespace skillrt::store::sqlite
