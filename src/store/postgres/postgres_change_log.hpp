// The PostgreSQL adapter of the change log port (core/events/change_log.hpp):
// the `skill_changes` table (migration 3) and its wake-up, NOTIFY on the
// channel `skillrt_changes` with the row's sequence number only, far below
// PostgreSQL's 8,000-byte payload limit.
#pragma once

#include <memory>
#include <string>

#include "core/events/change_log.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

inline constexpr const char* k_change_channel = "skillrt_changes";

// Its own connection; runs the pending migrations. Not for concurrent use.
Result<std::unique_ptr<core::ChangeLog>> open_postgres_change_log(const std::string& url);

// A dedicated connection that LISTENs on k_change_channel. It needs a
// session of its own: a direct connection or a session-mode pooler, never a
// transaction-mode pooler, which hands the session to other clients between
// transactions and drops the LISTEN (docs/deploy.md).
Result<std::unique_ptr<core::ChangeSignal>> make_postgres_change_signal(const std::string& url);

}  // namespace skillrt::store
