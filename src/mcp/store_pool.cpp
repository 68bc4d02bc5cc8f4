#include "mcp/store_pool.hpp"

#include <string>
#include <utility>

namespace skillrt::mcp {

StorePool::Lease::~Lease() {
  if (m_pool != nullptr) {
    m_pool->give_back(m_store);
  }
}

namespace {

StorePool::Options normalized(StorePool::Options options) {
  options.size = options.size == 0 ? 1 : options.size;  // a pool of none could serve nothing
  return options;
}

}  // namespace

StorePool::StorePool(core::SkillStoreSource source, Options options)
    : m_source(std::move(source)), m_options(normalized(options)) {}

Result<StorePool::Lease> StorePool::acquire() {
  std::unique_lock lock(m_mutex);
  const auto deadline = std::chrono::steady_clock::now() + m_options.wait;
  bool counted = false;
  while (true) {
    if (!m_idle.empty()) {
      core::SkillStore* store = m_idle.back();
      m_idle.pop_back();
      if (counted) {
        --m_waiting;
      }
      return Lease(*this, store);
    }
    if (m_stores.size() + m_opening < m_options.size) {
      if (counted) {
        --m_waiting;
      }
      ++m_opening;
      lock.unlock();
      Result<std::unique_ptr<core::SkillStore>> opened =
          fail(ErrorCode::io_error, "no database is configured for this server");
      if (m_source.open) {
        std::lock_guard open_lock(m_open_mutex);
        opened = m_source.open();
      }
      lock.lock();
      --m_opening;
      if (!opened) {
        m_freed.notify_one();  // the slot it held is free again
        return tl::unexpected(opened.error());
      }
      m_stores.push_back(std::move(*opened));
      return Lease(*this, m_stores.back().get());
    }
    if (!counted) {
      if (m_waiting >= m_options.max_waiting) {
        ++m_refused;
        return fail(ErrorCode::busy, "the database is busy: all " + std::to_string(m_options.size) +
                                         " connections are in use and " + std::to_string(m_waiting) +
                                         " requests wait for one; try again");
      }
      ++m_waiting;
      counted = true;
    }
    if (m_freed.wait_until(lock, deadline) == std::cv_status::timeout && m_idle.empty() &&
        m_stores.size() + m_opening >= m_options.size) {
      --m_waiting;
      ++m_refused;
      return fail(ErrorCode::busy, "the database is busy: no connection came free within " +
                                       std::to_string(m_options.wait.count()) + " ms (" +
                                       std::to_string(m_options.size) + " in the pool); try again");
    }
  }
}

void StorePool::give_back(core::SkillStore* store) {
  {
    std::lock_guard lock(m_mutex);
    m_idle.push_back(store);
  }
  m_freed.notify_one();
}

bool StorePool::any_open() const {
  std::lock_guard lock(m_mutex);
  return !m_stores.empty();
}

StorePool::Stats StorePool::stats() const {
  std::lock_guard lock(m_mutex);
  return Stats{m_stores.size(), m_stores.size() - m_idle.size(), m_waiting, m_refused};
}

}  // namespace skillrt::mcp
