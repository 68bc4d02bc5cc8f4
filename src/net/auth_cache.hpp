// A short memory of successful bearer-token checks, so a busy client does not
// cost a database lookup per request. Keys are SHA-256 digests of the bearer
// (the secret itself is not kept); failures are never remembered. A revoked
// token therefore keeps working for at most `ttl` after revocation.
#pragma once

#include <chrono>
#include <cstddef>

#include "net/mcp_http_server.hpp"

namespace skillrt::net {

// Wraps `authenticate`: a success is reused for `ttl`; at most `max_entries`
// are kept. The wrapper is thread-safe; `authenticate` is called without any
// lock of the wrapper held (it must be thread-safe itself).
Authenticator cache_authentications(Authenticator authenticate, std::chrono::milliseconds ttl,
                                    std::size_t max_entries = 4096);

}  // namespace skillrt::net
