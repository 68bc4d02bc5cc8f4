// The PostgreSQL adapter of the SessionStore port (core/store/session_store.hpp):
// the mcp_sessions table (migration 4), keyed by the SHA-256 of the session id.
#pragma once

#include <memory>
#include <string>

#include "core/store/session_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// Its own connection; runs the pending migrations. Not for concurrent use.
Result<std::unique_ptr<core::SessionStore>> open_postgres_session_store(const std::string& url);

}  // namespace skillrt::store
