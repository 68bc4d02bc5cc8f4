#include "net/http_rules.hpp"

#include <gtest/gtest.h>

#include <set>

namespace skillrt::net {
namespace {

TEST(HttpRules, LoopbackHostNames) {
  for (const char* host : {"127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"}) {
    EXPECT_TRUE(is_loopback_host(host)) << host;
  }
  for (const char* host : {"0.0.0.0", "10.0.0.1", "127.0.0", "127.0.0.1.evil.com", "127.0.0.256", "localhost.evil.com",
                           "", "::", "evil.example.com"}) {
    EXPECT_FALSE(is_loopback_host(host)) << host;
  }
}

TEST(HttpRules, HostOfAuthority) {
  EXPECT_EQ(host_of_authority("localhost:8787"), "localhost");
  EXPECT_EQ(host_of_authority("LocalHost"), "localhost");
  EXPECT_EQ(host_of_authority("[::1]:80"), "[::1]");
  EXPECT_EQ(host_of_authority("[::1]"), "[::1]");
  EXPECT_EQ(host_of_authority("127.0.0.1:0"), "127.0.0.1");
  EXPECT_EQ(host_of_authority(""), "");
  EXPECT_EQ(host_of_authority("localhost:80x"), "");
  EXPECT_EQ(host_of_authority("user@localhost"), "");
  EXPECT_EQ(host_of_authority("localhost/path"), "");
  EXPECT_EQ(host_of_authority("[::1"), "");
}

TEST(HttpRules, DnsRebindingOnLoopbackListener) {
  const std::vector<std::string> none;
  EXPECT_TRUE(request_origin_allowed("localhost:8787", std::nullopt, true, none));
  EXPECT_TRUE(request_origin_allowed("127.0.0.1:1", std::nullopt, true, none));
  EXPECT_TRUE(request_origin_allowed("[::1]:9", std::nullopt, true, none));
  EXPECT_TRUE(request_origin_allowed("localhost:8787", std::string_view("http://localhost:8787"), true, none));
  EXPECT_TRUE(request_origin_allowed("localhost:8787", std::string_view("https://127.0.0.1"), true, none));
  // The attack: a name the attacker's DNS points at 127.0.0.1.
  EXPECT_FALSE(request_origin_allowed("evil.example.com", std::nullopt, true, none));
  EXPECT_FALSE(request_origin_allowed("evil.example.com:8787", std::string_view("http://evil.example.com:8787"), true,
                                      none));
  EXPECT_FALSE(request_origin_allowed("localhost:8787", std::string_view("http://evil.example.com"), true, none));
  EXPECT_FALSE(request_origin_allowed("localhost:8787", std::string_view("null"), true, none));
  EXPECT_FALSE(request_origin_allowed("localhost:8787", std::string_view("file://localhost"), true, none));
  EXPECT_FALSE(request_origin_allowed("", std::nullopt, true, none));
  // An operator-allowed name.
  const std::vector<std::string> allowed{"skills.internal"};
  EXPECT_TRUE(request_origin_allowed("Skills.Internal:8787", std::string_view("https://skills.internal"), true,
                                     allowed));
  EXPECT_FALSE(request_origin_allowed("other.internal", std::nullopt, true, allowed));
}

TEST(HttpRules, DnsRebindingOnExposedListener) {
  const std::vector<std::string> none;
  // Exposed without a host list: any Host, but Origins must be same-origin.
  EXPECT_TRUE(request_origin_allowed("10.1.2.3:8787", std::nullopt, false, none));
  EXPECT_TRUE(request_origin_allowed("skills.corp:8787", std::string_view("https://skills.corp"), false, none));
  EXPECT_FALSE(request_origin_allowed("skills.corp:8787", std::string_view("https://evil.example.com"), false, none));
  // With a host list, only those (and loopback names).
  const std::vector<std::string> allowed{"skills.corp"};
  EXPECT_TRUE(request_origin_allowed("skills.corp", std::nullopt, false, allowed));
  EXPECT_FALSE(request_origin_allowed("10.1.2.3", std::nullopt, false, allowed));
}

TEST(HttpRules, AcceptMatching) {
  EXPECT_TRUE(accept_allows("", "application/json"));
  EXPECT_TRUE(accept_allows("*/*", "application/json"));
  EXPECT_TRUE(accept_allows("application/json, text/event-stream", "text/event-stream"));
  EXPECT_TRUE(accept_allows("text/event-stream, application/json", "application/json"));
  EXPECT_TRUE(accept_allows("application/*;q=0.5", "application/json"));
  EXPECT_TRUE(accept_allows("Application/JSON", "application/json"));
  EXPECT_FALSE(accept_allows("text/event-stream", "application/json"));
  EXPECT_FALSE(accept_allows("text/html", "application/json"));
  EXPECT_FALSE(accept_allows("application/json;q=0", "application/json"));
  EXPECT_FALSE(accept_allows("application/json; q=0.000", "application/json"));
  EXPECT_TRUE(accept_allows("application/json; q=0.001", "application/json"));
  EXPECT_FALSE(accept_allows("application/jsonx", "application/json"));
}

TEST(HttpRules, ContentType) {
  EXPECT_TRUE(is_json_content_type("application/json"));
  EXPECT_TRUE(is_json_content_type("application/json; charset=utf-8"));
  EXPECT_TRUE(is_json_content_type("Application/Json"));
  EXPECT_FALSE(is_json_content_type("text/plain"));
  EXPECT_FALSE(is_json_content_type(""));
  EXPECT_FALSE(is_json_content_type("application/json-seq"));
}

TEST(HttpRules, BearerToken) {
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer  skrt_x_y "), "skrt_x_y");
  EXPECT_EQ(bearer_token("Basic dXNlcjpwYXNz"), std::nullopt);
  EXPECT_EQ(bearer_token("Bearer"), std::nullopt);
  EXPECT_EQ(bearer_token("Bearer "), std::nullopt);
  EXPECT_EQ(bearer_token("Bearer a b"), std::nullopt);
  EXPECT_EQ(bearer_token("Bearerabc"), std::nullopt);
}

TEST(HttpRules, SessionIdsAreRandomHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::optional<std::string> id = new_session_id();
    ASSERT_TRUE(id);
    ASSERT_EQ(id->size(), 32u);
    EXPECT_EQ(id->find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(*id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(HttpRules, InitializeDetection) {
  EXPECT_TRUE(is_initialize_request(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"));
  EXPECT_FALSE(is_initialize_request(R"({"jsonrpc":"2.0","method":"initialize"})"));  // a notification
  EXPECT_FALSE(is_initialize_request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  EXPECT_FALSE(is_initialize_request(R"([{"jsonrpc":"2.0","id":1,"method":"initialize"}])"));
  EXPECT_FALSE(is_initialize_request("{not json"));
  EXPECT_FALSE(is_initialize_request(""));
}

TEST(HttpRules, ErrorBodyAndSseFrame) {
  EXPECT_EQ(jsonrpc_error_body(-32000, "Bad \"thing\""),
            R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad \"thing\""},"id":null})");
  EXPECT_EQ(sse_event(R"({"a":1})"), "event: message\ndata: {\"a\":1}\n\n");
  EXPECT_EQ(sse_event("one\r\ntwo"), "event: message\ndata: one\ndata: two\n\n");
}

TEST(HttpRules, ProtocolVersions) {
  EXPECT_TRUE(protocol_version_supported("2025-11-25"));
  EXPECT_TRUE(protocol_version_supported("2025-06-18"));
  EXPECT_TRUE(protocol_version_supported("2025-03-26"));
  EXPECT_FALSE(protocol_version_supported("2024-11-05x"));
  EXPECT_FALSE(protocol_version_supported(""));
}

}  // namespace
}  // namespace skillrt::net
