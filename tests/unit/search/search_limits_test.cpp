// The named limits of core/search, and the request checks that use them.
#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"
#include "core/search/search_skills.hpp"

namespace skillrt::test {
namespace {

TEST(SearchLimits, Values) {
  EXPECT_EQ(limits::k_search_default_limit, 5U);
  EXPECT_EQ(limits::k_search_max_limit, 50U);
  EXPECT_EQ(limits::k_max_search_query_bytes, 4096U);
  EXPECT_EQ(limits::k_search_max_indexed_bytes, 1024U * 1024U);
  EXPECT_EQ(limits::k_search_sync_batch_bytes, 8U * 1024U * 1024U);
  EXPECT_EQ(limits::k_search_racy_window_ns, 2'000'000'000);
  EXPECT_EQ(limits::k_search_max_candidates, 1000U);
}

TEST(SearchLimits, LimitMustBeOneToFifty) {
  EXPECT_TRUE(core::check_search_request("deploy", 1));
  EXPECT_TRUE(core::check_search_request("deploy", limits::k_search_max_limit));
  const auto zero = core::check_search_request("deploy", 0);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, ErrorCode::invalid_argument);
  const auto many = core::check_search_request("deploy", limits::k_search_max_limit + 1);
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().code, ErrorCode::invalid_argument);
}

TEST(SearchLimits, EmptyOrBlankQueryIsRefused) {
  for (const char* query : {"", " ", "\t\n  \r"}) {
    const auto checked = core::check_search_request(query, 5);
    ASSERT_FALSE(checked) << '[' << query << ']';
    EXPECT_EQ(checked.error().code, ErrorCode::invalid_argument);
  }
}

TEST(SearchLimits, QueryLengthIsBounded) {
  EXPECT_TRUE(core::check_search_request(std::string(limits::k_max_search_query_bytes, 'a'), 5));
  const auto longer = core::check_search_request(std::string(limits::k_max_search_query_bytes + 1, 'a'), 5);
  ASSERT_FALSE(longer);
  EXPECT_EQ(longer.error().code, ErrorCode::limit_exceeded);
}

}  // namespace
}  // namespace skillrt::test
