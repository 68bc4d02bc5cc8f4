// The PostgreSQL adapter of the TokenStore port: the api_tokens table of the
// same database as the skill store (migration 2), on its own connection.
#pragma once

#include <memory>
#include <string>

#include "core/store/token_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// `url`: a libpq connection URI. Connects and applies pending migrations.
Result<std::unique_ptr<core::TokenStore>> open_postgres_token_store(const std::string& url);

} // namespace skillrt::store
