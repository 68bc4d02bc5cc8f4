#include "store/sqlite/sqlite_token_store.hpp"

#include <chrono>
#include <mutex>
#include <utility>

#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_schema.hpp"
#include "store/token_secret.hpp"

namespace skillrt::store {
namespace {

using core::ApiToken;
using sqlite::Connection;
using sqlite::Statement;

constexpr const char* k_token_columns =
    "id, user_id, org_id, label, created_at, coalesce(last_used_at, ''), coalesce(revoked_at, '')";

tl::unexpected<Error> pass(const Error& error) {
  return tl::unexpected<Error>(error);
}
using tokens::not_found;

std::optional<std::string> optional_text(std::string text) {
  if (text.empty()) {
    return std::nullopt;
  }
  return text;
}

// The columns of k_token_columns starting at `first`.
ApiToken read_token(const Statement& q, int first = 0) {
  ApiToken token;
  token.id = q.text(first);
  token.user_id = q.text(first + 1);
  token.org_id = q.text(first + 2);
  token.label = q.text(first + 3);
  token.created_at = q.text(first + 4);
  token.last_used_at = optional_text(q.text(first + 5));
  token.revoked_at = optional_text(q.text(first + 6));
  return token;
}

class SqliteTokenStore final : public core::TokenStore {
public:
  explicit SqliteTokenStore(std::unique_ptr<Connection> conn) : m_conn(std::move(conn)) {}

  Result<core::IssuedToken> create_token(std::string_view user_id, std::string_view org_id,
                                         std::string_view label) override {
    if (auto ok = tokens::check_new_token(user_id, org_id, label); !ok) {
      return pass(ok.error());
    }
    std::lock_guard lock(m_mutex);
    // Ids are 60 random bits; a collision is only retried, never overwritten.
    Error last{ErrorCode::internal, "sqlite: could not pick a free token id", {}};
    for (int attempt = 0; attempt < 3; ++attempt) {
      auto secret = tokens::make_secret();
      if (!secret) {
        return pass(secret.error());
      }
      ApiToken token{secret->id,   std::string(user_id), std::string(org_id), std::string(label), sqlite::utc_now_iso(),
                     std::nullopt, std::nullopt};
      auto q = m_conn->prepare("INSERT INTO api_tokens (id, user_id, org_id, label, salt, secret_hash, created_at)"
                               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
      if (!q) {
        return pass(q.error());
      }
      q->bind(1, token.id)
          .bind(2, token.user_id)
          .bind(3, token.org_id)
          .bind(4, token.label)
          .bind(5, secret->salt_hex)
          .bind(6, secret->hash_hex)
          .bind(7, token.created_at);
      auto done = q->run();
      if (done) {
        return core::IssuedToken{std::move(token), secret->bearer()};
      }
      if (done.error().code != ErrorCode::refused) {
        return pass(done.error());
      }
      last = done.error();
    }
    return pass(last);
  }

  Result<std::vector<ApiToken>> list_tokens(std::optional<std::string_view> user_id) override {
    std::lock_guard lock(m_mutex);
    const std::string order = " ORDER BY created_at DESC, rowid DESC";
    auto q =
        user_id
            ? m_conn->prepare(std::string("SELECT ") + k_token_columns + " FROM api_tokens WHERE user_id = ?1" + order)
            : m_conn->prepare(std::string("SELECT ") + k_token_columns + " FROM api_tokens" + order);
    if (!q) {
      return pass(q.error());
    }
    if (user_id) {
      q->bind(1, *user_id);
    }
    std::vector<ApiToken> out;
    if (auto done = q->each_row([&](sqlite::Statement& row) { out.push_back(read_token(row)); }); !done) {
      return pass(done.error());
    }
    return out;
  }

  Result<ApiToken> revoke_token(std::string_view id) override {
    if (!tokens::is_token_id(id)) {
      return not_found(id);
    }
    std::lock_guard lock(m_mutex);
    {
      auto q = m_conn->prepare("UPDATE api_tokens SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL");
      if (!q) {
        return pass(q.error());
      }
      if (auto done = q->bind(1, id).bind(2, sqlite::utc_now_iso()).run(); !done) {
        return pass(done.error());
      }
    }
    auto q = m_conn->prepare(std::string("SELECT ") + k_token_columns + " FROM api_tokens WHERE id = ?1");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, id);
    auto row = q->step();
    if (!row) {
      return pass(row.error());
    }
    if (!*row) {
      return not_found(id);
    }
    return read_token(*q);
  }

  Result<ApiToken> authenticate(std::string_view bearer) override {
    const auto parsed = tokens::parse_bearer(bearer);
    if (!parsed) {
      return tokens::refused();
    }
    std::lock_guard lock(m_mutex);
    auto q =
        m_conn->prepare(std::string("SELECT salt, secret_hash, ") + k_token_columns + " FROM api_tokens WHERE id = ?1");
    if (!q) {
      return pass(q.error());
    }
    q->bind(1, parsed->id);
    auto row = q->step();
    if (!row) {
      return pass(row.error());
    }
    if (!*row) {
      // Hash anyway, so an unknown id costs what a wrong secret does.
      (void)tokens::constant_time_equal(tokens::hash_secret(k_dummy_salt, parsed->secret), k_dummy_salt);
      return tokens::refused();
    }
    const bool matches = tokens::constant_time_equal(tokens::hash_secret(q->text(0), parsed->secret), q->text(1));
    ApiToken token = read_token(*q, 2);
    if (!matches || token.revoked_at) {
      return tokens::refused();
    }
    const auto now = std::chrono::system_clock::now();
    if (!token.last_used_at || *token.last_used_at < tokens::iso_utc(now - tokens::k_last_used_resolution)) {
      token.last_used_at = tokens::iso_utc(now);
      // Best effort: a stale last_used_at must not refuse a valid token
      // (a read-only or busy database still authenticates).
      if (auto touch = m_conn->prepare("UPDATE api_tokens SET last_used_at = ?2 WHERE id = ?1")) {
        (void)touch->bind(1, token.id).bind(2, *token.last_used_at).run();
      }
    }
    return token;
  }

private:
  static constexpr std::string_view k_dummy_salt = "00000000000000000000000000000000";

  std::unique_ptr<Connection> m_conn;
  std::mutex m_mutex; // one connection, many threads
};

} // namespace

Result<std::unique_ptr<core::TokenStore>> open_sqlite_token_store(const std::filesystem::path& path) {
  auto conn = Connection::open(path);
  if (!conn) {
    return pass(conn.error());
  }
  if (auto migrated = sqlite::migrate(**conn); !migrated) {
    return pass(migrated.error());
  }
  return std::unique_ptr<core::TokenStore>(std::make_unique<SqliteTokenStore>(std::move(*conn)));
}

} // namespace skillrt::store
