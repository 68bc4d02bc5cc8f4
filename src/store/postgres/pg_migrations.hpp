// The versioned schema of the PostgreSQL adapter. Version numbers match the
// SQLite adapter's: version N means the same tables in both backends.
#pragma once

#include "skillrt/result.hpp"
#include "store/postgres/pg_connection.hpp"

namespace skillrt::store::pg {

// Applies every migration newer than the database's, in one transaction
// holding a transaction-level advisory lock, so processes that open the same
// database at once take turns and each version is applied exactly once.
Result<void> migrate(Connection& connection);

// The newest schema version this build knows.
int latest_schema_version();

}  // namespace skillrt::store::pg
