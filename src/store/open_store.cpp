// Picks the SkillStore / TokenStore adapter from a location (see open_store.hpp).
#include "store/open_store.hpp"

#include <system_error>
#include <variant>

#include "store/postgres/postgres_change_log.hpp"
#include "store/postgres/postgres_session_store.hpp"
#include "store/postgres/postgres_store.hpp"
#include "store/postgres/postgres_token_store.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "store/sqlite/sqlite_token_store.hpp"

namespace skillrt::store {
namespace {

namespace fs = std::filesystem;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

} // namespace

bool is_postgres_location(std::string_view location) {
  return starts_with(location, "postgres://") || starts_with(location, "postgresql://");
}

namespace {

// The embedded default when no location is given.
fs::path default_database(const core::Context& ctx) { return ctx.home / "skillrt.db"; }

struct PostgresUrl {
  std::string url;
};

// Where `location` points: a PostgreSQL URL or an SQLite file path (absolute).
Result<std::variant<PostgresUrl, fs::path>> resolve(const std::string& location, const core::Context& ctx) {
  if (is_postgres_location(location)) {
    return PostgresUrl{location};
  }
  std::string path_text = location;
  if (starts_with(path_text, "sqlite:")) {
    path_text.erase(0, std::string_view("sqlite:").size());
    if (path_text.empty()) {
      return fail(ErrorCode::invalid_argument, "sqlite: the location \"sqlite:\" names no file");
    }
  }
  if (path_text.empty()) {
    // The embedded default lives in the home, which may not exist yet.
    std::error_code ec;
    fs::create_directories(ctx.home, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "sqlite: cannot create " + ctx.home.string() + ": " + ec.message());
    }
    return default_database(ctx);
  }
  fs::path path(path_text);
  if (path.is_relative()) {
    path = ctx.cwd / path; // relative to where the command runs, not the process cwd
  }
  return path;
}

} // namespace

Result<std::unique_ptr<core::SkillStore>> open_store(const std::string& location, const core::Context& ctx) {
  auto where = resolve(location, ctx);
  if (!where) {
    return tl::unexpected(where.error());
  }
  if (const auto* pg = std::get_if<PostgresUrl>(&*where)) {
    return open_postgres_store(pg->url);
  }
  return open_sqlite_store(std::get<fs::path>(*where));
}

Result<std::unique_ptr<core::TokenStore>> open_token_store(const std::string& location, const core::Context& ctx) {
  auto where = resolve(location, ctx);
  if (!where) {
    return tl::unexpected(where.error());
  }
  if (const auto* pg = std::get_if<PostgresUrl>(&*where)) {
    return open_postgres_token_store(pg->url);
  }
  return open_sqlite_token_store(std::get<fs::path>(*where));
}

Result<std::unique_ptr<core::ChangeLog>> open_change_log(const std::string& location) {
  if (!is_postgres_location(location)) {
    return std::unique_ptr<core::ChangeLog>();
  }
  return open_postgres_change_log(location);
}

Result<std::unique_ptr<core::ChangeSignal>> make_change_signal(const std::string& location) {
  if (!is_postgres_location(location)) {
    return std::unique_ptr<core::ChangeSignal>();
  }
  return make_postgres_change_signal(location);
}

Result<std::unique_ptr<core::SessionStore>> open_session_store(const std::string& location) {
  if (!is_postgres_location(location)) {
    return std::unique_ptr<core::SessionStore>();
  }
  return open_postgres_session_store(location);
}

core::SkillStoreSource store_source(std::string location, core::Context ctx) {
  core::SkillStoreSource source;
  source.exists = [location, database = default_database(ctx)] {
    std::error_code ec;
    return !location.empty() || fs::exists(database, ec);
  };
  source.open = [location = std::move(location), ctx = std::move(ctx)] { return open_store(location, ctx); };
  return source;
}

} // namespace skillrt::store
