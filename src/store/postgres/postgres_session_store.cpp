#include "store/postgres/postgres_session_store.hpp"

#include <charconv>
#include <utility>

#include "core/util/sha256.hpp"
#include "skillrt/try.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_migrations.hpp"

namespace skillrt::store {
namespace {

using pg::Connection;
using pg::Param;

// Subscriptions as one text value: "<bytes>:<uri><bytes>:<file>" per pair.
// Length-prefixed, so no character of a URI or a path needs escaping.
std::string encode(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [uri, file] : pairs) {
    for (const std::string* part : {&uri, &file}) {
      out += std::to_string(part->size());
      out += ':';
      out += *part;
    }
  }
  return out;
}

// nullopt for text that encode() did not write.
std::optional<std::vector<std::pair<std::string, std::string>>> decode(std::string_view text) {
  std::vector<std::string> parts;
  while (!text.empty()) {
    std::size_t size = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), size);
    if (ec != std::errc() || end == text.data() + text.size() || *end != ':') {
      return std::nullopt;
    }
    text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
    if (size > text.size()) {
      return std::nullopt;
    }
    parts.emplace_back(text.substr(0, size));
    text.remove_prefix(size);
  }
  if (parts.size() % 2 != 0) {
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < parts.size(); i += 2) {
    pairs.emplace_back(std::move(parts[i]), std::move(parts[i + 1]));
  }
  return pairs;
}

class PostgresSessionStore final : public core::SessionStore {
 public:
  explicit PostgresSessionStore(Connection connection) : m_db(std::move(connection)) {}

  Result<void> save(const core::StoredSession& session) override {
    SKILLRT_TRY(m_db.exec(
        "INSERT INTO mcp_sessions (id_hash, user_id, org_id, anonymous, protocol_version, log_level, subscriptions)"
        " VALUES ($1, $2, $3, $4::boolean, $5, $6::integer, $7)"
        " ON CONFLICT (id_hash) DO UPDATE SET user_id = EXCLUDED.user_id, org_id = EXCLUDED.org_id,"
        " anonymous = EXCLUDED.anonymous, protocol_version = EXCLUDED.protocol_version,"
        " log_level = EXCLUDED.log_level, subscriptions = EXCLUDED.subscriptions, last_used_at = now()",
        {core::sha256_hex(session.id), session.user_id ? Param(*session.user_id) : Param(), session.org_id,
         session.anonymous ? "true" : "false", session.protocol_version, std::to_string(session.log_level),
         encode(session.subscriptions)}));
    return {};
  }

  Result<std::optional<core::StoredSession>> load(std::string_view id) override {
    SKILLRT_TRY_ASSIGN(auto rows,
                       m_db.exec("SELECT user_id IS NULL, user_id, org_id, anonymous, protocol_version, log_level,"
                                 " subscriptions FROM mcp_sessions WHERE id_hash = $1",
                                 {core::sha256_hex(id)}));
    if (rows.count() == 0) {
      return std::optional<core::StoredSession>();
    }
    core::StoredSession session;
    session.id = std::string(id);
    if (rows.text(0, 0) != "t") {
      session.user_id = std::string(rows.text(0, 1));
    }
    session.org_id = std::string(rows.text(0, 2));
    session.anonymous = rows.text(0, 3) == "t";
    session.protocol_version = std::string(rows.text(0, 4));
    const std::string_view level = rows.text(0, 5);
    std::from_chars(level.data(), level.data() + level.size(), session.log_level);
    auto subscriptions = decode(rows.text(0, 6));
    if (!subscriptions) {
      return fail(ErrorCode::parse_error, "PostgreSQL: a stored MCP session's subscriptions are malformed");
    }
    session.subscriptions = std::move(*subscriptions);
    return std::optional<core::StoredSession>(std::move(session));
  }

  Result<void> touch(std::string_view id) override {
    SKILLRT_TRY(m_db.exec("UPDATE mcp_sessions SET last_used_at = now() WHERE id_hash = $1", {core::sha256_hex(id)}));
    return {};
  }

  Result<void> remove(std::string_view id) override {
    SKILLRT_TRY(m_db.exec("DELETE FROM mcp_sessions WHERE id_hash = $1", {core::sha256_hex(id)}));
    return {};
  }

  Result<std::size_t> prune(std::chrono::seconds idle) override {
    SKILLRT_TRY_ASSIGN(auto rows, m_db.exec("WITH gone AS (DELETE FROM mcp_sessions WHERE last_used_at < now() - "
                                            "make_interval(secs => $1::double precision) RETURNING 1)"
                                            " SELECT count(*) FROM gone",
                                            {std::to_string(idle.count())}));
    std::size_t removed = 0;
    const std::string_view text = rows.text(0, 0);
    std::from_chars(text.data(), text.data() + text.size(), removed);
    return removed;
  }

 private:
  Connection m_db;
};

}  // namespace

Result<std::unique_ptr<core::SessionStore>> open_postgres_session_store(const std::string& url) {
  auto connection = Connection::open(url);
  if (!connection) {
    return tl::unexpected(connection.error());
  }
  if (auto migrated = pg::migrate(*connection); !migrated) {
    return tl::unexpected(migrated.error());
  }
  return std::unique_ptr<core::SessionStore>(std::make_unique<PostgresSessionStore>(std::move(*connection)));
}

}  // namespace skillrt::store
