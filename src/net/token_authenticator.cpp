#include "net/token_authenticator.hpp"

#include <mutex>
#include <string>
#include <utility>

namespace skillrt::net {

Authenticator token_store_authenticator(std::shared_ptr<core::TokenStore> tokens) {
  auto mutex = std::make_shared<std::mutex>();
  return [tokens = std::move(tokens), mutex](const std::string& bearer) -> Result<mcp::Caller> {
    std::lock_guard lock(*mutex);
    Result<core::ApiToken> token = tokens->authenticate(bearer);
    if (!token) {
      return tl::unexpected(token.error());  // refused, or the database could not be asked
    }
    return mcp::Caller{token->user_id, token->org_id};
  };
}

}  // namespace skillrt::net
