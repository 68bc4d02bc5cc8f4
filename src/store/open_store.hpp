// Picks and opens the SkillStore adapter for a location.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/context.hpp"
#include "core/events/change_log.hpp"
#include "core/store/session_store.hpp"
#include "core/store/skill_store.hpp"
#include "core/store/store_source.hpp"
#include "core/store/token_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// `location`: "postgres://…" or "postgresql://…" (a libpq URI) → PostgreSQL;
// "sqlite:PATH" or a plain path → SQLite at PATH; "" → SQLite at
// HOME/skillrt.db. Opening runs the pending migrations. Errors name the
// backend and never include a password from the URL.
Result<std::unique_ptr<core::SkillStore>> open_store(const std::string& location, const core::Context& ctx);

// The API tokens kept in the same database as `open_store(location, ctx)`
// (same location rules, same migrations). A separate connection, so token
// checks never wait behind a long skill write.
Result<std::unique_ptr<core::TokenStore>> open_token_store(const std::string& location, const core::Context& ctx);

// True for a PostgreSQL URL: the database replicas share, with a change log.
bool is_postgres_location(std::string_view location);

// The change log (core/events/change_log.hpp) of the database at `location`
// and the wake-up of its readers. PostgreSQL only: null for SQLite, where one
// host hears of every change through inotify and the database poll.
Result<std::unique_ptr<core::ChangeLog>> open_change_log(const std::string& location);
Result<std::unique_ptr<core::ChangeSignal>> make_change_signal(const std::string& location);
// The MCP sessions replicas share (core/store/session_store.hpp); PostgreSQL
// only, null for SQLite.
Result<std::unique_ptr<core::SessionStore>> open_session_store(const std::string& location);

// The store at `location` (rules as for open_store), opened on first use: what
// apps/ hands a server that must not open a database itself (mcp::Server).
// exists() is false only for the default HOME/skillrt.db while it is missing.
core::SkillStoreSource store_source(std::string location, core::Context ctx);

}  // namespace skillrt::store
