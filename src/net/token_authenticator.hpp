// The Authenticator of `skillrt serve`: bearer → caller through the API token
// table (core::TokenStore; issued by `skillrt token create`).
#pragma once

#include <memory>

#include "core/store/token_store.hpp"
#include "net/mcp_http_server.hpp"

namespace skillrt::net {

// Checks bearers with `tokens->authenticate`, one check at a time (a store is
// one database connection). Thread-safe. Every failure is nullopt (401).
Authenticator token_store_authenticator(std::shared_ptr<core::TokenStore> tokens);

}  // namespace skillrt::net
