// The TokenStore conformance suite (API tokens of `skillrt serve`): each case
// runs against SQLite and, when the test cluster is up, PostgreSQL. Plus the
// bearer helpers both adapters share (store/token_secret.hpp).
#include <algorithm>
#include <chrono>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/util/sha256.hpp"
#include "store/sqlite/sqlite_schema.hpp"
#include "store/token_secret.hpp"
#include "store_test_env.hpp"

namespace skillrt {
namespace {

using core::ApiToken;
using core::TokenStore;

const std::regex k_bearer_shape("^skrt_([a-z2-7]{12})_([A-Za-z0-9_-]{43})$");

// The secret part of a bearer (after "skrt_<id>_").
std::string secret_of(const std::string& bearer) {
  return bearer.substr(5 + 12 + 1);
}

// `bearer` with the character at `index` replaced by another of the same alphabet.
std::string flip(std::string bearer, std::size_t index) {
  bearer[index] = bearer[index] == 'a' ? 'b' : 'a';
  return bearer;
}

void expect_refused(const Result<ApiToken>& result, const std::string& what) {
  ASSERT_FALSE(result.has_value()) << what << " was accepted";
  EXPECT_EQ(result.error().code, ErrorCode::refused) << what;
  EXPECT_EQ(result.error().message, store::tokens::k_refused_message) << what;
}

class TokenConformance : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    std::string skip;
    env = test::make_store_env(GetParam(), skip);
    if (!env) {
      GTEST_SKIP() << skip;
    }
    auto opened = env->open_tokens();
    ASSERT_TRUE(opened) << opened.error().message;
    tokens = std::move(*opened);
  }

  core::IssuedToken issue(const std::string& user, const std::string& org, const std::string& label = "") {
    auto issued = tokens->create_token(user, org, label);
    EXPECT_TRUE(issued) << issued.error().message;
    return issued ? *issued : core::IssuedToken{};
  }

  std::unique_ptr<test::StoreEnv> env;
  std::unique_ptr<TokenStore> tokens;
};

TEST_P(TokenConformance, CreateThenAuthenticateRoundTrip) {
  const auto issued = issue("alice", "acme", "laptop");
  std::smatch parts;
  ASSERT_TRUE(std::regex_match(issued.bearer, parts, k_bearer_shape)) << issued.bearer;
  EXPECT_EQ(parts[1].str(), issued.token.id);
  EXPECT_EQ(issued.token.user_id, "alice");
  EXPECT_EQ(issued.token.org_id, "acme");
  EXPECT_EQ(issued.token.label, "laptop");
  EXPECT_EQ(issued.token.created_at.size(), std::string("2026-11-30T23:59:59.123Z").size()) << issued.token.created_at;
  EXPECT_FALSE(issued.token.last_used_at);
  EXPECT_FALSE(issued.token.revoked_at);

  auto who = tokens->authenticate(issued.bearer);
  ASSERT_TRUE(who) << who.error().message;
  EXPECT_EQ(who->id, issued.token.id);
  EXPECT_EQ(who->user_id, "alice");
  EXPECT_EQ(who->org_id, "acme");
  EXPECT_EQ(who->label, "laptop");
  ASSERT_TRUE(who->last_used_at);

  // Another connection (another process, in real life) sees the same token.
  auto other = env->open_tokens();
  ASSERT_TRUE(other) << other.error().message;
  auto again = (*other)->authenticate(issued.bearer);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->user_id, "alice");
}

TEST_P(TokenConformance, EveryBearerIsDifferent) {
  std::set<std::string> bearers;
  std::set<std::string> ids;
  for (int i = 0; i < 20; ++i) {
    const auto issued = issue("alice", "acme");
    bearers.insert(issued.bearer);
    ids.insert(issued.token.id);
  }
  EXPECT_EQ(bearers.size(), 20U);
  EXPECT_EQ(ids.size(), 20U);
}

TEST_P(TokenConformance, WrongSecretOrTamperedIdIsRefused) {
  const auto issued = issue("alice", "acme");
  const std::size_t secret_start = 5 + 12 + 1;
  expect_refused(tokens->authenticate(flip(issued.bearer, secret_start)), "first secret char changed");
  expect_refused(tokens->authenticate(flip(issued.bearer, issued.bearer.size() - 1)), "last secret char changed");
  expect_refused(tokens->authenticate(flip(issued.bearer, 5)), "id changed");
  // Alice's secret behind Bob's id.
  const auto bob = issue("bob", "acme");
  expect_refused(tokens->authenticate("skrt_" + bob.token.id + "_" + secret_of(issued.bearer)), "secret swapped");
  // The real one still works afterwards.
  EXPECT_TRUE(tokens->authenticate(issued.bearer));
}

TEST_P(TokenConformance, MalformedBearersGetTheSameRefusal) {
  const auto issued = issue("alice", "acme");
  const std::string& good = issued.bearer;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", ""},
      {"prefix only", "skrt_"},
      {"no prefix", good.substr(5)},
      {"other prefix", "sk_" + good.substr(5)},
      {"upper-case prefix", "SKRT_" + good.substr(5)},
      {"scheme included", "Bearer " + good},
      {"trailing newline", good + "\n"},
      {"trailing space", good + " "},
      {"truncated", good.substr(0, good.size() - 1)},
      {"extended", good + "A"},
      {"NUL inside", good.substr(0, 20) + std::string(1, '\0') + good.substr(21)},
      {"NUL appended", good + std::string(1, '\0')},
      {"huge", std::string(1 << 20, 'A')},
      {"huge with prefix", good + std::string(1 << 20, 'A')},
      {"non-ASCII", good.substr(0, good.size() - 2) + "\xc3\xa9"},
      {"separator missing", good.substr(0, 17) + "x" + good.substr(18)},
      {"SQL", "skrt_' OR 1=1 --_" + std::string(38, 'a')},
  };
  for (const auto& [what, bearer] : cases) {
    expect_refused(tokens->authenticate(bearer), what);
  }
}

TEST_P(TokenConformance, RevokedTokensFailAndRevokingIsIdempotent) {
  const auto issued = issue("alice", "acme");
  const auto kept = issue("alice", "acme");
  auto revoked = tokens->revoke_token(issued.token.id);
  ASSERT_TRUE(revoked) << revoked.error().message;
  ASSERT_TRUE(revoked->revoked_at);
  EXPECT_EQ(revoked->id, issued.token.id);
  expect_refused(tokens->authenticate(issued.bearer), "revoked token");
  // Other connections see the revocation at once (no cache to outlive it).
  auto other = env->open_tokens();
  ASSERT_TRUE(other);
  expect_refused((*other)->authenticate(issued.bearer), "revoked token, other connection");

  auto twice = tokens->revoke_token(issued.token.id);
  ASSERT_TRUE(twice) << twice.error().message;
  EXPECT_EQ(twice->revoked_at, revoked->revoked_at) << "the first revocation time stays";
  EXPECT_TRUE(tokens->authenticate(kept.bearer)) << "revoking one token leaves the others alone";

  auto listed = tokens->list_tokens(std::string_view("alice"));
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2U) << "revoked tokens stay listed";
}

TEST_P(TokenConformance, RevokingAnUnknownIdIsNotFound) {
  for (const std::string& id : {std::string("aaaaaaaaaaaa"), std::string(""), std::string("../x"),
                                std::string(1000, 'a'), std::string("abc\0def", 7)}) {
    auto revoked = tokens->revoke_token(id);
    ASSERT_FALSE(revoked);
    EXPECT_EQ(revoked.error().code, ErrorCode::not_found) << revoked.error().message;
    EXPECT_EQ(revoked.error().message.find('\0'), std::string::npos);
  }
}

TEST_P(TokenConformance, ListIsNewestFirstAndFiltersByUser) {
  const auto a1 = issue("alice", "acme", "one");
  const auto b1 = issue("bob", "globex", "bob's");
  const auto a2 = issue("alice", "acme", "two");

  auto all = tokens->list_tokens(std::nullopt);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 3U);
  EXPECT_EQ((*all)[0].id, a2.token.id);
  EXPECT_EQ((*all)[1].id, b1.token.id);
  EXPECT_EQ((*all)[2].id, a1.token.id);

  auto alice = tokens->list_tokens(std::string_view("alice"));
  ASSERT_TRUE(alice);
  ASSERT_EQ(alice->size(), 2U);
  EXPECT_EQ((*alice)[0].label, "two");
  EXPECT_EQ((*alice)[1].label, "one");
  for (const ApiToken& token : *alice) {
    EXPECT_EQ(token.user_id, "alice");
    EXPECT_EQ(token.org_id, "acme");
  }

  auto nobody = tokens->list_tokens(std::string_view("carol"));
  ASSERT_TRUE(nobody);
  EXPECT_TRUE(nobody->empty());
}

TEST_P(TokenConformance, EachBearerSpeaksForItsOwnUser) {
  const auto alice = issue("alice", "acme");
  const auto bob = issue("bob", "globex");
  auto as_alice = tokens->authenticate(alice.bearer);
  auto as_bob = tokens->authenticate(bob.bearer);
  ASSERT_TRUE(as_alice);
  ASSERT_TRUE(as_bob);
  EXPECT_EQ(as_alice->user_id, "alice");
  EXPECT_EQ(as_alice->org_id, "acme");
  EXPECT_EQ(as_bob->user_id, "bob");
  EXPECT_EQ(as_bob->org_id, "globex");
  ASSERT_TRUE(tokens->revoke_token(alice.token.id));
  EXPECT_TRUE(tokens->authenticate(bob.bearer)) << "revoking Alice's token leaves Bob's alone";
}

TEST_P(TokenConformance, TheDatabaseHoldsASaltedHashNotTheSecret) {
  const auto issued = issue("alice", "acme");
  const std::string secret = secret_of(issued.bearer);
  const std::string where = " FROM api_tokens WHERE id = '" + issued.token.id + "'"; // id: [a-z2-7] only
  const auto hash = env->scalar("SELECT secret_hash" + where);
  const auto salt = env->scalar("SELECT salt" + where);
  ASSERT_TRUE(hash);
  ASSERT_TRUE(salt);
  EXPECT_TRUE(std::regex_match(*hash, std::regex("^[0-9a-f]{64}$"))) << *hash;
  EXPECT_TRUE(std::regex_match(*salt, std::regex("^[0-9a-f]{32}$"))) << *salt;
  EXPECT_NE(*hash, secret);
  EXPECT_NE(*hash, core::sha256_hex(secret)) << "the hash must be salted";
  EXPECT_NE(*hash, core::sha256_hex(issued.bearer));
  // Nothing in the row contains the secret or the bearer.
  EXPECT_EQ(env->scalar("SELECT count(*) FROM api_tokens WHERE id || user_id || org_id || label || salt || "
                        "secret_hash LIKE '%" +
                        secret + "%'"),
            "0");
  // Two tokens never share a salt.
  const auto second = issue("alice", "acme");
  EXPECT_NE(env->scalar("SELECT salt FROM api_tokens WHERE id = '" + second.token.id + "'"), salt);
}

TEST_P(TokenConformance, BadUserOrgOrLabelIsRefusedBeforeWriting) {
  const std::vector<std::tuple<std::string, std::string, std::string>> bad = {
      {"", "acme", ""},
      {"../etc", "acme", ""},
      {"alice", "", ""},
      {"alice", "a b", ""},
      {std::string(65, 'u'), "acme", ""},
      {std::string("al\0ce", 5), "acme", ""},
      {"alice", "acme", "two\nlines"},
      {"alice", "acme", std::string(201, 'l')},
      {"alice", "acme", "\xff\xfe"},
  };
  for (const auto& [user, org, label] : bad) {
    auto issued = tokens->create_token(user, org, label);
    ASSERT_FALSE(issued) << user << "/" << org << "/" << label;
    EXPECT_EQ(issued.error().code, ErrorCode::invalid_argument);
  }
  EXPECT_EQ(env->scalar("SELECT count(*) FROM api_tokens"), "0");
  EXPECT_TRUE(tokens->create_token("alice", "0", "ünïcode label"));
}

TEST_P(TokenConformance, LastUsedIsWrittenAtMostOncePerMinute) {
  const auto issued = issue("alice", "acme");
  auto first = tokens->authenticate(issued.bearer);
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->last_used_at);
  const std::string where = " FROM api_tokens WHERE id = '" + issued.token.id + "'";
  const auto stored = env->scalar("SELECT last_used_at" + where);
  ASSERT_TRUE(stored);
  // A back-dated mark that is still within the minute must not be rewritten.
  const bool postgres = GetParam() == "postgres";
  const std::string recent =
      postgres ? "now() - interval '30 seconds'"
               : "'" + store::tokens::iso_utc(std::chrono::system_clock::now() - std::chrono::seconds(30)) + "'";
  ASSERT_TRUE(env->scalar("UPDATE api_tokens SET last_used_at = " + recent + where.substr(16) + " RETURNING id"));
  const auto marked = env->scalar("SELECT last_used_at" + where);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(tokens->authenticate(issued.bearer));
  }
  EXPECT_EQ(env->scalar("SELECT last_used_at" + where), marked) << "re-written within the minute";

  // Once it is older than a minute, the next use refreshes it.
  const std::string old = postgres ? "now() - interval '2 minutes'" : "'2000-01-01T00:00:00.000Z'";
  ASSERT_TRUE(env->scalar("UPDATE api_tokens SET last_used_at = " + old + where.substr(16) + " RETURNING id"));
  const auto stale = env->scalar("SELECT last_used_at" + where);
  auto later = tokens->authenticate(issued.bearer);
  ASSERT_TRUE(later);
  EXPECT_NE(env->scalar("SELECT last_used_at" + where), stale);
  ASSERT_TRUE(later->last_used_at);
  EXPECT_GT(*later->last_used_at, "2026-01-01") << *later->last_used_at;
}

TEST_P(TokenConformance, ConcurrentAuthenticationsAgree) {
  const auto alice = issue("alice", "acme");
  const auto bob = issue("bob", "acme");
  constexpr int k_threads = 4;
  std::vector<int> wrong(k_threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const bool as_alice = (i + t) % 2 == 0;
        auto who = tokens->authenticate(as_alice ? alice.bearer : bob.bearer);
        if (!who || who->user_id != (as_alice ? "alice" : "bob")) {
          ++wrong[static_cast<std::size_t>(t)];
        }
        if (tokens->authenticate(flip(alice.bearer, 30))) {
          ++wrong[static_cast<std::size_t>(t)];
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (int count : wrong) {
    EXPECT_EQ(count, 0);
  }
}

TEST_P(TokenConformance, ADatabaseFromBeforeTokensIsUpgradedInPlace) {
  // A version-1 database (issue 3/5: skills, no api_tokens) with a skill in it.
  tokens.reset();
  auto skills = env->open();
  ASSERT_TRUE(skills) << skills.error().message;
  core::NewDbSkill skill;
  skill.name = "kept";
  skill.content = "---\nname: kept\ndescription: d\n---\nbody\n";
  ASSERT_TRUE((*skills)->create_skill("alice", skill));
  skills->reset();
  env->scalar("DROP TABLE api_tokens");
  env->scalar("DROP TABLE skill_changes");  // a database of schema version 1 had none of these
  env->scalar("DROP TABLE mcp_sessions");
  // PostgreSQL's migration 5 (search generations); SQLite has nothing to undo.
  env->scalar("DROP TABLE skill_search_changes");
  env->scalar("DROP TABLE skill_search_generation");
  env->scalar("DROP FUNCTION skill_search_bump() CASCADE");
  env->scalar("DROP FUNCTION skill_search_fill() CASCADE");
  env->scalar("ALTER TABLE skill_search DROP COLUMN doc_id, DROP COLUMN text_length");
  env->scalar("DROP FUNCTION skill_search_text_length(tsvector)");
  ASSERT_TRUE(env->scalar("DELETE FROM schema_migrations WHERE version >= 2 RETURNING version"));
  EXPECT_EQ(env->scalar("SELECT max(version) FROM schema_migrations"), "1");

  auto reopened = env->open_tokens();
  ASSERT_TRUE(reopened) << reopened.error().message;
  EXPECT_EQ(env->scalar("SELECT max(version) FROM schema_migrations"),
            std::to_string(store::sqlite::latest_schema_version())); // the same numbers in both backends
  auto issued = (*reopened)->create_token("alice", "acme", "");
  ASSERT_TRUE(issued) << issued.error().message;
  EXPECT_TRUE((*reopened)->authenticate(issued->bearer));
  EXPECT_EQ(env->scalar("SELECT count(*) FROM hermes_skills WHERE name = 'kept'"), "1") << "skills untouched";
}

INSTANTIATE_TEST_SUITE_P(Backends, TokenConformance, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

TEST(TokenSecret, MadeSecretsHaveTheDocumentedShape) {
  auto made = store::tokens::make_secret();
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_TRUE(std::regex_match(made->bearer(), k_bearer_shape)) << made->bearer();
  EXPECT_EQ(made->salt_hex.size(), 32U);
  EXPECT_EQ(made->hash_hex, store::tokens::hash_secret(made->salt_hex, made->secret));
  const std::string bearer = made->bearer(); // parse_bearer's views point into it
  auto parsed = store::tokens::parse_bearer(bearer);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->id, made->id);
  EXPECT_EQ(parsed->secret, made->secret);
}

TEST(TokenSecret, HashIsSha256OfSaltBytesThenSecret) {
  // SHA-256 of the bytes 0x00 0x01 followed by "s": a fixed vector, computed independently.
  EXPECT_EQ(store::tokens::hash_secret("0001", "s"), core::sha256_hex(std::string("\x00\x01s", 3)));
  EXPECT_EQ(store::tokens::hash_secret("zz", "s"), "") << "a salt that is not hex hashes to nothing";
  EXPECT_EQ(store::tokens::hash_secret("abc", "s"), "");
}

TEST(TokenSecret, ConstantTimeEqual) {
  EXPECT_TRUE(store::tokens::constant_time_equal("", ""));
  EXPECT_TRUE(store::tokens::constant_time_equal("abc", "abc"));
  EXPECT_FALSE(store::tokens::constant_time_equal("abc", "abd"));
  EXPECT_FALSE(store::tokens::constant_time_equal("abc", "ab"));
  EXPECT_FALSE(store::tokens::constant_time_equal("xbc", "abc"));
}

TEST(TokenSecret, RandomBytesDiffer) {
  auto a = store::tokens::random_bytes(32);
  auto b = store::tokens::random_bytes(32);
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_EQ(a->size(), 32U);
  EXPECT_NE(*a, *b);
}

} // namespace
} // namespace skillrt
