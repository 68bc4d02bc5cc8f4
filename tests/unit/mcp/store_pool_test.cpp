// The pool of database connections over the real SQLite store: stores are
// opened on first need up to the size and reused; a request beyond the size
// waits for one to come free, and is refused as busy when none does in time
// or when too many already wait (back-pressure, not an unbounded queue).
#include "mcp/store_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "store/open_store.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {
namespace {

using namespace std::chrono_literals;

class StorePoolTest : public ::testing::Test {
 protected:
  StorePoolTest() {
    m_ctx.home = m_tree.path();
    m_ctx.cwd = m_tree.path();
    m_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  }
  core::SkillStoreSource source() {
    core::SkillStoreSource counted = store::store_source("", m_ctx);
    auto open = counted.open;
    counted.open = [this, open] {
      ++m_opened;
      return open();
    };
    return counted;
  }

  TempTree m_tree;
  core::Context m_ctx;
  std::atomic<int> m_opened{0};
};

TEST_F(StorePoolTest, OpensOnFirstNeedAndReusesWhatWasGivenBack) {
  mcp::StorePool pool(source(), {2, 500ms, 8});
  EXPECT_FALSE(pool.any_open());
  core::SkillStore* first = nullptr;
  {
    auto lease = pool.acquire();
    ASSERT_TRUE(lease) << lease.error().message;
    first = &**lease;
    EXPECT_TRUE((**lease).user_change_stamps().has_value());  // a real, working store
  }
  auto again = pool.acquire();
  ASSERT_TRUE(again);
  EXPECT_EQ(&**again, first);
  EXPECT_EQ(m_opened.load(), 1);
  auto second = pool.acquire();  // the first is taken: a second store is opened
  ASSERT_TRUE(second);
  EXPECT_NE(&**second, first);
  EXPECT_EQ(m_opened.load(), 2);
  EXPECT_EQ(pool.stats().open, 2u);
  EXPECT_EQ(pool.stats().in_use, 2u);
}

TEST_F(StorePoolTest, AWaitingRequestGetsTheStoreGivenBack) {
  mcp::StorePool pool(source(), {1, 5000ms, 8});
  auto held = std::make_optional(pool.acquire());
  ASSERT_TRUE(*held);
  std::atomic<bool> served{false};
  std::thread waiter([&] {
    auto lease = pool.acquire();
    served = lease.has_value();
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(served.load());
  EXPECT_EQ(pool.stats().waiting, 1u);
  held.reset();  // give it back
  waiter.join();
  EXPECT_TRUE(served.load());
  EXPECT_EQ(m_opened.load(), 1);
}

TEST_F(StorePoolTest, BusyWhenNoneComesFreeInTimeOrTooManyWait) {
  mcp::StorePool pool(source(), {1, 100ms, 1});
  auto held = pool.acquire();
  ASSERT_TRUE(held);
  const auto begin = std::chrono::steady_clock::now();
  auto late = pool.acquire();
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::busy);
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 100ms);
  // One request already waits (the limit): the next is refused at once.
  std::thread waiter([&] { (void)pool.acquire(); });
  while (pool.stats().waiting == 0) {
    std::this_thread::sleep_for(1ms);
  }
  const auto refused_at = std::chrono::steady_clock::now();
  auto refused = pool.acquire();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::busy);
  EXPECT_LT(std::chrono::steady_clock::now() - refused_at, 50ms);
  waiter.join();
  EXPECT_GE(pool.stats().refused, 2u);
}

TEST_F(StorePoolTest, AFailedOpenIsReportedAndFreesItsSlot) {
  core::SkillStoreSource broken;
  broken.open = [] () -> Result<std::unique_ptr<core::SkillStore>> {
    return fail(ErrorCode::io_error, "database unreachable");
  };
  mcp::StorePool pool(broken, {1, 100ms, 8});
  for (int i = 0; i < 2; ++i) {
    auto lease = pool.acquire();
    ASSERT_FALSE(lease);
    EXPECT_EQ(lease.error().code, ErrorCode::io_error);  // not busy: the slot was given back
  }
  mcp::StorePool none(core::SkillStoreSource{}, {1, 100ms, 8});
  EXPECT_EQ(none.acquire().error().code, ErrorCode::io_error);
}

}  // namespace
}  // namespace skillrt::test
