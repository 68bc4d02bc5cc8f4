// The SQLite adapter of the TokenStore port: the api_tokens table of the same
// file as the skill store (migration 2), on its own connection.
#pragma once

#include <filesystem>
#include <memory>

#include "core/store/token_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// Opens (creating when missing) the database at `path` and runs the pending
// migrations. The folder must exist.
Result<std::unique_ptr<core::TokenStore>> open_sqlite_token_store(const std::filesystem::path& path);

} // namespace skillrt::store
