// The SQLite adapter of the SkillStore port: one file (HOME/skillrt.db by
// default), WAL, a 5 s busy timeout, one connection per store object with its
// prepared statements cached. The search index is an FTS5 table; queries are
// ranked with bm25 in memory, from each word's postings read out of FTS5 and
// kept between searches; database rows are indexed in the same transaction as
// their write.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::store {

// Opens (creating when missing) the store at `path` and runs the pending
// migrations. The folder must exist.
Result<std::unique_ptr<core::SkillStore>> open_sqlite_store(const std::filesystem::path& path);

// Inspection (tests, doctor): every row of hermes_skills of `user_id` named
// `name`, active or not, oldest first. Reads the file directly.
Result<std::vector<core::DbSkill>> sqlite_rows_named(const std::filesystem::path& path, std::string_view user_id,
                                                     std::string_view name);

// "ok" when PRAGMA integrity_check finds nothing wrong, else its report.
Result<std::string> sqlite_integrity_check(const std::filesystem::path& path);

} // namespace skillrt::store
