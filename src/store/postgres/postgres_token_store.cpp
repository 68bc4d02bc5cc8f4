#include "store/postgres/postgres_token_store.hpp"

#include <mutex>
#include <utility>

#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_migrations.hpp"
#include "store/token_secret.hpp"

namespace skillrt::store {
namespace {

using core::ApiToken;
using pg::Connection;
using pg::Param;
using pg::Rows;

// Timestamps leave the server in the port's format (UTC, milliseconds); NULL → "".
#define SKILLRT_PG_TIME(column)                                                                                        \
  "coalesce(to_char(" column " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), '')"
#define SKILLRT_PG_TOKEN_COLUMNS                                                                                       \
  "id, user_id, org_id, label, " SKILLRT_PG_TIME("created_at") ", " SKILLRT_PG_TIME(                                   \
      "last_used_at") ", " SKILLRT_PG_TIME("revoked_at")

tl::unexpected<Error> pass(const Error& error) {
  return tl::unexpected<Error>(error);
}

std::optional<std::string> optional_text(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  return std::string(text);
}

// The columns of SKILLRT_PG_TOKEN_COLUMNS starting at `first`.
ApiToken read_token(const Rows& rows, int row, int first = 0) {
  ApiToken token;
  token.id = rows.text(row, first);
  token.user_id = rows.text(row, first + 1);
  token.org_id = rows.text(row, first + 2);
  token.label = rows.text(row, first + 3);
  token.created_at = rows.text(row, first + 4);
  token.last_used_at = optional_text(rows.text(row, first + 5));
  token.revoked_at = optional_text(rows.text(row, first + 6));
  return token;
}

class PostgresTokenStore final : public core::TokenStore {
public:
  explicit PostgresTokenStore(Connection connection) : m_conn(std::move(connection)) {}

  Result<core::IssuedToken> create_token(std::string_view user_id, std::string_view org_id,
                                         std::string_view label) override {
    if (auto ok = tokens::check_new_token(user_id, org_id, label); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    // Ids are 60 random bits; a collision is only retried, never overwritten.
    Error last{ErrorCode::internal, "PostgreSQL: could not pick a free token id", {}};
    for (int attempt = 0; attempt < 3; ++attempt) {
      auto secret = tokens::make_secret();
      if (!secret) {
        return pass(secret.error());
      }
      auto rows = m_conn.exec("INSERT INTO api_tokens (id, user_id, org_id, label, salt, secret_hash)"
                              " VALUES ($1, $2, $3, $4, $5, $6) RETURNING " SKILLRT_PG_TOKEN_COLUMNS,
                              {secret->id, std::string(user_id), std::string(org_id), std::string(label),
                               secret->salt_hex, secret->hash_hex});
      if (rows && rows->count() == 1) {
        return core::IssuedToken{read_token(*rows, 0), secret->bearer()};
      }
      if (!rows && rows.error().code != ErrorCode::refused) {
        return pass(rows.error());
      }
      if (!rows) {
        last = rows.error();
      }
    }
    return pass(last);
  }

  Result<std::vector<ApiToken>> list_tokens(std::optional<std::string_view> user_id) override {
    std::lock_guard lock(m_mutex);
    auto rows =
        user_id ? m_conn.exec("SELECT " SKILLRT_PG_TOKEN_COLUMNS
                              " FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, seq DESC",
                              {std::string(*user_id)})
                : m_conn.exec("SELECT " SKILLRT_PG_TOKEN_COLUMNS " FROM api_tokens ORDER BY created_at DESC, seq DESC");
    if (!rows) {
      return pass(rows.error());
    }
    std::vector<ApiToken> out;
    out.reserve(static_cast<std::size_t>(rows->count()));
    for (int row = 0; row < rows->count(); ++row) {
      out.push_back(read_token(*rows, row));
    }
    return out;
  }

  Result<ApiToken> revoke_token(std::string_view id) override {
    if (!tokens::is_token_id(id)) {
      return tokens::not_found(id);
    }
    std::lock_guard lock(m_mutex);
    // coalesce keeps the first revocation's time when revoked twice.
    auto rows = m_conn.exec("UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1"
                            " RETURNING " SKILLRT_PG_TOKEN_COLUMNS,
                            {std::string(id)});
    if (!rows) {
      return pass(rows.error());
    }
    if (rows->count() == 0) {
      return tokens::not_found(id);
    }
    return read_token(*rows, 0);
  }

  Result<ApiToken> authenticate(std::string_view bearer) override {
    const auto parsed = tokens::parse_bearer(bearer);
    if (!parsed) {
      return tokens::refused();
    }
    std::lock_guard lock(m_mutex);
    auto rows =
        m_conn.exec("SELECT salt, secret_hash,"
                    " (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'), " SKILLRT_PG_TOKEN_COLUMNS
                    " FROM api_tokens WHERE id = $1",
                    {std::string(parsed->id)});
    if (!rows) {
      return pass(rows.error());
    }
    if (rows->count() != 1) {
      // Hash anyway, so an unknown id costs what a wrong secret does.
      (void)tokens::constant_time_equal(tokens::hash_secret(k_dummy_salt, parsed->secret), k_dummy_salt);
      return tokens::refused();
    }
    const bool matches =
        tokens::constant_time_equal(tokens::hash_secret(rows->text(0, 0), parsed->secret), rows->text(0, 1));
    const bool stale = rows->text(0, 2) == "t";
    ApiToken token = read_token(*rows, 0, 3);
    if (!matches || token.revoked_at) {
      return tokens::refused();
    }
    if (stale) {
      // Best effort: a failed touch must not refuse a valid token.
      auto touched = m_conn.exec(
          "UPDATE api_tokens SET last_used_at = now() WHERE id = $1 RETURNING " SKILLRT_PG_TIME("last_used_at"),
          {token.id});
      if (touched && touched->count() == 1) {
        token.last_used_at = std::string(touched->text(0, 0));
      }
    }
    return token;
  }

private:
  static constexpr std::string_view k_dummy_salt = "00000000000000000000000000000000";

  Connection m_conn;
  std::mutex m_mutex; // one connection, many threads
};

} // namespace

Result<std::unique_ptr<core::TokenStore>> open_postgres_token_store(const std::string& url) {
  auto connection = Connection::open(url);
  if (!connection) {
    return pass(connection.error());
  }
  if (auto migrated = pg::migrate(*connection); !migrated) {
    return pass(migrated.error());
  }
  return std::unique_ptr<core::TokenStore>(std::make_unique<PostgresTokenStore>(std::move(*connection)));
}

} // namespace skillrt::store
