// API tokens for the HTTP server (issue 4/5): who a bearer token speaks for.
// Only a salted hash of each secret is stored; the secret is shown once, at
// creation. Adapters: src/store/sqlite and src/store/postgres (the same
// database as the skill store).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

struct ApiToken {
  std::string id;          // public, random; also the token's prefix, so lookups need no scan
  std::string user_id;
  std::string org_id;
  std::string label;       // free text from `token create --label`
  std::string created_at;  // ISO-8601 UTC
  std::optional<std::string> last_used_at;
  std::optional<std::string> revoked_at;
};

// What `create_token` hands back once: the row and the full bearer value
// ("skrt_<id>_<secret>"), which is never stored.
struct IssuedToken {
  ApiToken token;
  std::string bearer;
};

class TokenStore {
 public:
  virtual ~TokenStore() = default;

  // invalid_argument when user_id/org_id break tenancy/user_id.hpp rules.
  virtual Result<IssuedToken> create_token(std::string_view user_id, std::string_view org_id,
                                           std::string_view label) = 0;
  // Every token (revoked ones too), newest first; only `user_id`'s when given.
  virtual Result<std::vector<ApiToken>> list_tokens(std::optional<std::string_view> user_id) = 0;
  // Marks it revoked; not_found for an unknown id; revoking twice is ok.
  virtual Result<ApiToken> revoke_token(std::string_view id) = 0;
  // The live token a bearer value belongs to. Every failure (unknown id,
  // wrong secret, revoked, malformed) is ErrorCode::refused with one and the
  // same message, so callers cannot probe which it was.
  // Compares in constant time. Updates last_used_at at most once a minute.
  virtual Result<ApiToken> authenticate(std::string_view bearer) = 0;
};

}  // namespace skillrt::core
