#include "net/web_sessions.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace skillrt::net {
namespace {

mcp::Caller alice() { return mcp::Caller{.user_id = "alice", .org_id = "org1", .anonymous = false}; }

TEST(CookieValue, FindsTheNamedCookieAmongOthers) {
  EXPECT_EQ(cookie_value("skillrt_session=abc", "skillrt_session").value(), "abc");
  EXPECT_EQ(cookie_value("a=1; skillrt_session=abc ; b=2", "skillrt_session").value(), "abc");
  EXPECT_EQ(cookie_value("a=1;skillrt_session=\"abc\"", "skillrt_session").value(), "abc");
  EXPECT_FALSE(cookie_value("xskillrt_session=abc", "skillrt_session"));
  EXPECT_FALSE(cookie_value("skillrt_session", "skillrt_session"));
  EXPECT_FALSE(cookie_value("", "skillrt_session"));
}

TEST(SecretsEqual, ComparesWholeValues) {
  EXPECT_TRUE(secrets_equal("abc", "abc"));
  EXPECT_FALSE(secrets_equal("abc", "abd"));
  EXPECT_FALSE(secrets_equal("abc", "ab"));
  EXPECT_FALSE(secrets_equal("", "a"));
}

TEST(WebSessions, OpenFindClose) {
  WebSessions sessions(std::chrono::seconds(60), std::chrono::seconds(600), 10);
  const auto opened = sessions.open("skrt_token", alice());
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->id.size(), 64u);
  EXPECT_EQ(opened->csrf.size(), 32u);
  EXPECT_NE(opened->id.substr(0, 32), opened->csrf);
  const auto found = sessions.find(opened->id);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->bearer, "skrt_token");
  EXPECT_EQ(found->csrf, opened->csrf);
  EXPECT_EQ(found->caller.user_id, "alice");
  EXPECT_FALSE(sessions.find(opened->id.substr(1)));
  EXPECT_FALSE(sessions.find(""));
  sessions.close(opened->id);
  EXPECT_FALSE(sessions.find(opened->id));
}

TEST(WebSessions, EachSignInIsItsOwnSession) {
  WebSessions sessions(std::chrono::seconds(60), std::chrono::seconds(600), 10);
  const auto a = sessions.open("t", alice());
  const auto b = sessions.open("t", alice());
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->id, b->id);
  EXPECT_NE(a->csrf, b->csrf);
  sessions.close(a->id);
  EXPECT_TRUE(sessions.find(b->id));
}

TEST(WebSessions, IdleSessionsEnd) {
  WebSessions sessions(std::chrono::seconds(0), std::chrono::seconds(600), 10);
  const auto opened = sessions.open("t", alice());
  ASSERT_TRUE(opened);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past an idle limit of 0
  EXPECT_FALSE(sessions.find(opened->id));
  EXPECT_EQ(sessions.size(), 0u);
}

TEST(WebSessions, PastTheCapTheLeastRecentlyUsedEnds) {
  WebSessions sessions(std::chrono::seconds(60), std::chrono::seconds(600), 2);
  const auto first = sessions.open("t1", alice());
  const auto second = sessions.open("t2", alice());
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_TRUE(sessions.find(first->id));  // first is now the more recently used
  const auto third = sessions.open("t3", alice());
  EXPECT_EQ(sessions.size(), 2u);
  EXPECT_TRUE(sessions.find(first->id));
  EXPECT_FALSE(sessions.find(second->id));
  EXPECT_TRUE(sessions.find(third->id));
}

}  // namespace
}  // namespace skillrt::net
