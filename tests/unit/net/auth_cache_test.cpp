#include "net/auth_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "net/token_authenticator.hpp"
#include "store/open_store.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::net {
namespace {

using namespace std::chrono_literals;

class AuthCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_ctx.home = m_tree.path();
    m_ctx.cwd = m_tree.path();
    auto tokens = store::open_token_store("", m_ctx);
    ASSERT_TRUE(tokens) << tokens.error().message;
    m_tokens = std::move(*tokens);
    auto issued = m_tokens->create_token("alice", "org1", "test");
    ASSERT_TRUE(issued) << issued.error().message;
    m_bearer = issued->bearer;
    m_token_id = issued->token.id;
  }

  // The real token check, counting how often the database is asked.
  Authenticator counted() {
    Authenticator real = token_store_authenticator(m_tokens);
    return [this, real](const std::string& bearer) {
      ++m_lookups;
      return real(bearer);
    };
  }

  test::TempTree m_tree;
  core::Context m_ctx;
  std::shared_ptr<core::TokenStore> m_tokens;
  std::string m_bearer;
  std::string m_token_id;
  std::atomic<int> m_lookups{0};
};

TEST_F(AuthCacheTest, TokenStoreAuthenticatorMapsTheTokenToItsCaller) {
  const Authenticator check = token_store_authenticator(m_tokens);
  const Result<mcp::Caller> caller = check(m_bearer);
  ASSERT_TRUE(caller);
  EXPECT_EQ(caller->user_id, "alice");
  EXPECT_EQ(caller->org_id, "org1");
  ASSERT_FALSE(check(m_bearer + "x"));
  EXPECT_EQ(check(m_bearer + "x").error().code, ErrorCode::refused) << "not valid, as opposed to cannot check now";
  EXPECT_FALSE(check(""));
}

TEST_F(AuthCacheTest, SuccessesAreReusedFailuresAreNot) {
  const Authenticator check = cache_authentications(counted(), 60s);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(check(m_bearer));
  }
  EXPECT_EQ(m_lookups.load(), 1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(check("skrt_nope_nope"));
  }
  EXPECT_EQ(m_lookups.load(), 4);
}

TEST_F(AuthCacheTest, RevokedTokenStopsWorkingWithinTheTtl) {
  const Authenticator check = cache_authentications(counted(), 300ms);
  ASSERT_TRUE(check(m_bearer));
  ASSERT_TRUE(m_tokens->revoke_token(m_token_id));
  // Still remembered (the documented window) ...
  EXPECT_TRUE(check(m_bearer));
  std::this_thread::sleep_for(400ms);
  // ... and refused once it expired.
  EXPECT_FALSE(check(m_bearer));
}

TEST_F(AuthCacheTest, BoundedSize) {
  const Authenticator check = cache_authentications(counted(), 60s, 1);
  auto second = m_tokens->create_token("bob", "org1", "test");
  ASSERT_TRUE(second);
  ASSERT_TRUE(check(m_bearer));
  ASSERT_TRUE(check(second->bearer));
  ASSERT_TRUE(check(m_bearer));
  EXPECT_EQ(m_lookups.load(), 3);  // the one slot was reused each time
}

}  // namespace
}  // namespace skillrt::net
