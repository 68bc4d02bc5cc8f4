// The database connections one MCP server (and the REST API beside it)
// shares among its requests. A store adapter holds one connection and is
// not for concurrent use, so a request takes a store for the time of its
// work and gives it back. At most `size` stores are opened (on first need,
// one at a time); a request waits at most `wait` for a free one, and when
// `max_waiting` requests are waiting already it is refused at once with
// ErrorCode::busy — back-pressure instead of a queue that grows with load.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/store/skill_store.hpp"
#include "core/store/store_source.hpp"
#include "skillrt/result.hpp"

namespace skillrt::mcp {

class StorePool {
 public:
  struct Options {
    std::size_t size = 1;                    // stores (database connections) at most
    std::chrono::milliseconds wait{2000};    // for a free one, before ErrorCode::busy
    std::size_t max_waiting = 256;           // requests waiting at once, beyond which busy at once
  };

  // A store taken from the pool; given back when the lease goes.
  class Lease {
   public:
    Lease(Lease&& other) noexcept : m_pool(std::exchange(other.m_pool, nullptr)), m_store(other.m_store) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    core::SkillStore& operator*() const { return *m_store; }

   private:
    friend class StorePool;
    Lease(StorePool& pool, core::SkillStore* store) : m_pool(&pool), m_store(store) {}
    StorePool* m_pool;
    core::SkillStore* m_store;
  };

  struct Stats {
    std::size_t open = 0;     // stores opened so far (never more than size)
    std::size_t in_use = 0;   // leased now
    std::size_t waiting = 0;  // requests waiting for one now
    std::uint64_t refused = 0;  // requests refused as busy since start
  };

  StorePool(core::SkillStoreSource source, Options options);
  StorePool(const StorePool&) = delete;
  StorePool& operator=(const StorePool&) = delete;

  // A free store: an idle one, else a newly opened one while fewer than
  // `size` are open, else the first to come free within `wait`. Fails with
  // the open error, or ErrorCode::busy.
  Result<Lease> acquire();
  // True once a store was opened (the database exists and was reached).
  bool any_open() const;
  Stats stats() const;
  const Options& options() const { return m_options; }

 private:
  void give_back(core::SkillStore* store);

  const core::SkillStoreSource m_source;
  const Options m_options;
  mutable std::mutex m_mutex;
  std::condition_variable m_freed;
  std::vector<std::unique_ptr<core::SkillStore>> m_stores;  // every opened store
  std::vector<core::SkillStore*> m_idle;
  std::size_t m_opening = 0;  // opens in progress (counted against size)
  std::size_t m_waiting = 0;
  std::uint64_t m_refused = 0;
  std::mutex m_open_mutex;  // one open at a time: migrations and first connects do not race
};

}  // namespace skillrt::mcp
