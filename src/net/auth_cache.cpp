#include "net/auth_cache.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/util/sha256.hpp"

namespace skillrt::net {
namespace {

struct CachedCaller {
  mcp::Caller caller;
  std::chrono::steady_clock::time_point expires;
};

struct AuthCache {
  Authenticator authenticate;
  std::chrono::milliseconds ttl;
  std::size_t max_entries;
  std::mutex mutex;
  std::unordered_map<std::string, CachedCaller> entries;

  Result<mcp::Caller> check(const std::string& bearer) {
    const std::string key = core::sha256_hex(bearer);
    const auto now = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(mutex);
      const auto it = entries.find(key);
      if (it != entries.end()) {
        if (it->second.expires > now) {
          return it->second.caller;
        }
        entries.erase(it);
      }
    }
    Result<mcp::Caller> caller = authenticate(bearer);
    if (caller) {
      std::lock_guard lock(mutex);
      if (entries.size() >= max_entries) {
        std::erase_if(entries, [&](const auto& entry) { return entry.second.expires <= now; });
        if (entries.size() >= max_entries) {
          entries.clear();  // many live tokens at once: start over rather than grow
        }
      }
      entries.insert_or_assign(key, CachedCaller{*caller, now + ttl});
    }
    return caller;
  }
};

}  // namespace

Authenticator cache_authentications(Authenticator authenticate, std::chrono::milliseconds ttl,
                                    std::size_t max_entries) {
  auto cache = std::make_shared<AuthCache>();
  cache->authenticate = std::move(authenticate);
  cache->ttl = ttl;
  cache->max_entries = max_entries == 0 ? 1 : max_entries;
  return [cache](const std::string& bearer) { return cache->check(bearer); };
}

}  // namespace skillrt::net
