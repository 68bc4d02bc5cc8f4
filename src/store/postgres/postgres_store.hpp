// The PostgreSQL adapter of the SkillStore port (core/store/skill_store.hpp).
// libpq stays behind this header: only the .cpp files of this folder include
// libpq-fe.h.
#pragma once

#include <memory>
#include <string>

#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// `url`: a libpq connection URI ("postgres://…" or "postgresql://…").
// Connects, then applies the pending schema migrations under an advisory lock
// (safe when several processes open the same database at once). Errors name
// the host and port but never the password.
Result<std::unique_ptr<core::SkillStore>> open_postgres_store(const std::string& url);

}  // namespace skillrt::store
