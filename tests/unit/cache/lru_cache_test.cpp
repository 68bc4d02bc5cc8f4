// The in-process LRU behind the index cache (spec §2.16 rule 2).
#include "core/cache/lru_cache.hpp"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace skillrt::test {
namespace {

TEST(LruCache, EvictsTheLeastRecentlyUsed) {
  core::LruCache<std::string, int> cache(2);
  cache.put("a", 1);
  cache.put("b", 2);
  EXPECT_EQ(cache.get("a"), 1); // a is now the most recent
  cache.put("c", 3);            // evicts b
  EXPECT_FALSE(cache.get("b").has_value());
  EXPECT_EQ(cache.get("a"), 1);
  EXPECT_EQ(cache.get("c"), 3);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(LruCache, PutReplacesAndRefreshes) {
  core::LruCache<std::string, int> cache(2);
  cache.put("a", 1);
  cache.put("b", 2);
  cache.put("a", 10);
  cache.put("c", 3); // b is the oldest now
  EXPECT_EQ(cache.get("a"), 10);
  EXPECT_FALSE(cache.get("b").has_value());
}

TEST(LruCache, ClearEmpties) {
  core::LruCache<int, int> cache(32);
  for (int i = 0; i < 40; ++i) {
    cache.put(i, i);
  }
  EXPECT_EQ(cache.size(), 32u);
  EXPECT_FALSE(cache.get(7).has_value());
  EXPECT_EQ(cache.get(39), 39);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
}

TEST(LruCache, ManyThreadsStayConsistent) {
  core::LruCache<int, std::string> cache(32);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 5000; ++i) {
        const int key = (i * 7 + t) % 64;
        if (auto hit = cache.get(key)) {
          EXPECT_EQ(*hit, std::to_string(key));
        } else {
          cache.put(key, std::to_string(key));
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_LE(cache.size(), 32u);
}

} // namespace
} // namespace skillrt::test
