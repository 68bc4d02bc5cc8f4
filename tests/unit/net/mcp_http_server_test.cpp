// The Streamable HTTP transport end to end: real sockets on 127.0.0.1, the
// real mcp::Server over a temp home, the real SQLite token store, and a raw
// HTTP client (test_http_client.hpp) that can misbehave on purpose.
#include "net/mcp_http_server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "api/event_feed.hpp"
#include "net/auth_cache.hpp"
#include "net/token_authenticator.hpp"
#include "store/open_store.hpp"
#include "support/temp_tree.hpp"
#include "support/wait_until.hpp"
#include "unit/net/test_http_client.hpp"

namespace skillrt::net {
namespace {

using namespace std::chrono_literals;
using test::HttpReply;
using test::HttpTestClient;
using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr const char* k_initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},)"
    R"("clientInfo":{"name":"net-test","version":"1"}}})";
constexpr const char* k_initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
constexpr const char* k_tools_list = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
constexpr const char* k_skills_list =
    R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skills_list","arguments":{}}})";

std::string skill_md(const std::string& name, const std::string& description) {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n\n# " + name + "\n\nSteps.\n";
}

class McpHttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_tree.write("skills/devops/deploy/SKILL.md", skill_md("deploy", "Ship the service"));
    m_tree.write("skills/notes/SKILL.md", skill_md("notes", "Take notes"));
    m_tree.write("users/alice/skills/alice-secret/SKILL.md", skill_md("alice-secret", "Only for Alice"));
    m_ctx.home = m_tree.path();
    m_ctx.cwd = m_tree.path();
    m_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    auto tokens = store::open_token_store("", m_ctx);
    ASSERT_TRUE(tokens) << tokens.error().message;
    m_tokens = std::move(*tokens);
    auto alice = m_tokens->create_token("alice", "org1", "test");
    auto bob = m_tokens->create_token("bob", "org1", "test");
    ASSERT_TRUE(alice && bob);
    m_alice = alice->bearer;
    m_bob = bob->bearer;

    mcp::ServerOptions options;
    options.base = m_ctx;
    options.store = store::store_source("", m_ctx);
    options.transport = "http";
    options.watch = false;
    m_mcp = std::make_unique<mcp::Server>(std::move(options));
  }

  void TearDown() override {
    m_http.reset();
    m_mcp.reset();
  }

  HttpOptions options(bool anonymous = true) {
    HttpOptions options;
    options.listen_host = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    options.allow_anonymous = anonymous;
    return options;
  }

  void start(HttpOptions options) { start_with(std::move(options), token_store_authenticator(m_tokens)); }

  void start_with(HttpOptions options, Authenticator authenticate) {
    auto started = McpHttpServer::start(std::move(options), *m_mcp, std::move(authenticate));
    ASSERT_TRUE(started) << started.error().message;
    m_http = std::move(*started);
    m_port = m_http->bound_port();
    ASSERT_NE(m_port, 0);
  }

  static Headers post_headers(const std::string& bearer = {}, const std::string& session = {}) {
    Headers headers{{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
    if (!bearer.empty()) {
      headers.emplace_back("Authorization", "Bearer " + bearer);
    }
    if (!session.empty()) {
      headers.emplace_back("Mcp-Session-Id", session);
    }
    return headers;
  }

  // One request on `client`, its reply (a failed read is an empty reply).
  static HttpReply exchange(HttpTestClient& client, const std::string& method, const Headers& headers,
                            const std::string& body = {}, const std::string& target = "/mcp") {
    EXPECT_TRUE(client.send_request(method, target, headers, body));
    std::optional<HttpReply> reply = client.read_reply();
    EXPECT_TRUE(reply) << method << " " << target << ": no reply";
    return reply.value_or(HttpReply{});
  }

  HttpReply post(const std::string& body, const Headers& headers) {
    HttpTestClient client(m_port);
    return exchange(client, "POST", headers, body);
  }

  // The status of one POST on a new connection, 0 when refused or unanswered;
  // records no failure, for use inside wait_until.
  int status_of_post(const std::string& body, const Headers& headers) {
    HttpTestClient client(m_port);
    if (!client.send_request("POST", "/mcp", headers, body)) {
      return 0;
    }
    const std::optional<HttpReply> reply = client.read_reply(2000);
    return reply ? reply->status : 0;
  }

  // initialize + notifications/initialized on `client`; the session id.
  std::string open_session(HttpTestClient& client, const std::string& bearer = {}) {
    const HttpReply init = exchange(client, "POST", post_headers(bearer), k_initialize);
    EXPECT_EQ(init.status, 200) << init.body;
    const std::string id = init.header("mcp-session-id");
    EXPECT_EQ(exchange(client, "POST", post_headers(bearer, id), k_initialized).status, 202);
    return id;
  }

  std::string open_session(const std::string& bearer = {}) {
    HttpTestClient client(m_port);
    return open_session(client, bearer);
  }

  // A GET stream on its own connection, its head already read.
  std::unique_ptr<HttpTestClient> open_stream(const std::string& session, const std::string& bearer = {}) {
    auto client = std::make_unique<HttpTestClient>(m_port);
    Headers headers{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}};
    if (!bearer.empty()) {
      headers.emplace_back("Authorization", "Bearer " + bearer);
    }
    EXPECT_TRUE(client->send_request("GET", "/mcp", headers));
    const std::optional<HttpReply> head = client->read_head();
    EXPECT_TRUE(head);
    EXPECT_EQ(head.value_or(HttpReply{}).status, 200);
    EXPECT_EQ(head.value_or(HttpReply{}).header("content-type"), "text/event-stream");
    EXPECT_TRUE(client->read_stream_until(": stream open"));
    return client;
  }

  test::TempTree m_tree;
  core::Context m_ctx;
  std::shared_ptr<core::TokenStore> m_tokens;
  std::string m_alice;
  std::string m_bob;
  std::unique_ptr<mcp::Server> m_mcp;
  std::unique_ptr<McpHttpServer> m_http;
  std::uint16_t m_port = 0;
};

TEST_F(McpHttpServerTest, InitializeThenRequestsOnOneKeptAliveConnection) {
  start(options());
  HttpTestClient client(m_port);
  const HttpReply init = exchange(client, "POST", post_headers(), k_initialize);
  ASSERT_EQ(init.status, 200) << init.body;
  EXPECT_EQ(init.header("content-type"), "application/json");
  EXPECT_TRUE(std::regex_match(init.header("mcp-session-id"), std::regex("[0-9a-f]{32}")));
  EXPECT_NE(init.body.find("\"protocolVersion\":\"2025-11-25\""), std::string::npos) << init.body;
  const std::string session = init.header("mcp-session-id");

  const HttpReply initialized = exchange(client, "POST", post_headers({}, session), k_initialized);
  EXPECT_EQ(initialized.status, 202);
  EXPECT_TRUE(initialized.body.empty());

  const HttpReply tools = exchange(client, "POST", post_headers({}, session), k_tools_list);
  EXPECT_EQ(tools.status, 200);
  EXPECT_NE(tools.body.find("\"skill_view\""), std::string::npos) << tools.body;
  EXPECT_TRUE(tools.header("mcp-session-id").empty());

  // A supported older revision in the header is fine (2025-03-26 clients send it).
  Headers older = post_headers({}, session);
  older.emplace_back("MCP-Protocol-Version", "2025-03-26");
  EXPECT_EQ(exchange(client, "POST", older, k_tools_list).status, 200);
}

TEST_F(McpHttpServerTest, SessionIdRules) {
  start(options());
  // Under a 2025 revision only initialize may come without a session.
  Headers legacy = post_headers();
  legacy.emplace_back("MCP-Protocol-Version", "2025-11-25");
  const HttpReply missing = post(k_tools_list, legacy);
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find("\"id\":null"), std::string::npos) << missing.body;
  EXPECT_NE(missing.body.find("Mcp-Session-Id"), std::string::npos) << missing.body;
  // Without a version header it reads as the stateless 2026-07-28 revision,
  // whose envelope it lacks: 400, -32602, with the request's id.
  const HttpReply stateless = post(k_tools_list, post_headers());
  EXPECT_EQ(stateless.status, 400);
  EXPECT_NE(stateless.body.find("-32602"), std::string::npos) << stateless.body;
  EXPECT_EQ(stateless.body.find("\"id\":null"), std::string::npos) << stateless.body;
  EXPECT_EQ(post("{broken", post_headers()).status, 400);
  // Unknown session.
  EXPECT_EQ(post(k_tools_list, post_headers({}, "0123456789abcdef0123456789abcdef")).status, 404);
  // Deleted session.
  const std::string session = open_session();
  HttpTestClient client(m_port);
  Headers delete_headers{{"Mcp-Session-Id", session}};
  EXPECT_EQ(m_mcp->session_count(), 1u);
  EXPECT_EQ(exchange(client, "DELETE", delete_headers).status, 200);
  EXPECT_EQ(m_mcp->session_count(), 0u);
  EXPECT_EQ(exchange(client, "POST", post_headers({}, session), k_tools_list).status, 404);
  EXPECT_EQ(exchange(client, "DELETE", delete_headers).status, 404);
  EXPECT_EQ(exchange(client, "DELETE", {}).status, 400);
  EXPECT_EQ(exchange(client, "GET", {{"Accept", "text/event-stream"}}).status, 400);
}

TEST_F(McpHttpServerTest, FailedInitializeKeepsNoSession) {
  start(options());
  const HttpReply reply =
      post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":"not an object"})", post_headers());
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find("\"error\""), std::string::npos) << reply.body;
  EXPECT_TRUE(reply.header("mcp-session-id").empty());
  EXPECT_EQ(m_mcp->session_count(), 0u);
}

TEST_F(McpHttpServerTest, MediaTypesAndVersions) {
  start(options());
  const std::string session = open_session();
  HttpTestClient client(m_port);
  EXPECT_EQ(exchange(client, "POST", {{"Content-Type", "text/plain"}, {"Mcp-Session-Id", session}}, k_tools_list).status,
            415);
  EXPECT_EQ(exchange(client, "POST",
                     {{"Content-Type", "application/json"}, {"Accept", "text/html"}, {"Mcp-Session-Id", session}},
                     k_tools_list)
                .status,
            406);
  // No Accept, or */*: JSON.
  EXPECT_EQ(exchange(client, "POST", {{"Content-Type", "application/json"}, {"Mcp-Session-Id", session}}, k_tools_list)
                .header("content-type"),
            "application/json");
  // Only text/event-stream: one SSE event, then the response ends.
  const HttpReply sse = exchange(
      client, "POST",
      {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}},
      k_tools_list);
  EXPECT_EQ(sse.status, 200);
  EXPECT_EQ(sse.header("content-type"), "text/event-stream");
  EXPECT_EQ(sse.body.rfind("event: message\ndata: {", 0), 0u) << sse.body;
  EXPECT_NE(sse.body.find("\"skill_view\""), std::string::npos);
  EXPECT_EQ(sse.body.substr(sse.body.size() - 2), "\n\n");
  // Unsupported protocol revision.
  Headers future = post_headers({}, session);
  future.emplace_back("MCP-Protocol-Version", "2099-01-01");
  EXPECT_EQ(exchange(client, "POST", future, k_tools_list).status, 400);
  // GET without text/event-stream.
  EXPECT_EQ(exchange(client, "GET", {{"Accept", "application/json"}, {"Mcp-Session-Id", session}}).status, 406);
}

TEST_F(McpHttpServerTest, PathsAndMethods) {
  start(options());
  HttpTestClient client(m_port);
  EXPECT_EQ(exchange(client, "POST", post_headers(), k_initialize, "/other").status, 404);
  EXPECT_EQ(exchange(client, "POST", post_headers(), k_initialize, "/mcp/extra").status, 404);
  const HttpReply put = exchange(client, "PUT", post_headers(), k_initialize);
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("allow"), "GET, POST, DELETE");
  // A query string does not change the path.
  EXPECT_EQ(exchange(client, "POST", post_headers(), k_initialize, "/mcp?x=1").status, 200);
}

TEST_F(McpHttpServerTest, DnsRebindingIsRefusedBeforeAuthentication) {
  start(options(/*anonymous=*/false));
  Headers evil_host = post_headers();
  evil_host.emplace_back("Host", "evil.example.com");
  evil_host.emplace_back("Origin", "http://evil.example.com");
  const HttpReply refused = post(k_initialize, evil_host);
  EXPECT_EQ(refused.status, 403);  // not 401: checked first
  EXPECT_NE(refused.body.find("\"error\""), std::string::npos);

  Headers evil_origin = post_headers(m_alice);
  evil_origin.emplace_back("Host", "localhost:" + std::to_string(m_port));
  evil_origin.emplace_back("Origin", "http://evil.example.com");
  EXPECT_EQ(post(k_initialize, evil_origin).status, 403);

  Headers good = post_headers(m_alice);
  good.emplace_back("Host", "localhost:" + std::to_string(m_port));
  good.emplace_back("Origin", "http://localhost:" + std::to_string(m_port));
  EXPECT_EQ(post(k_initialize, good).status, 200);
}

TEST_F(McpHttpServerTest, AllowedHostsAreAccepted) {
  HttpOptions with_host = options();
  with_host.allowed_hosts = {"skills.test"};
  start(with_host);
  Headers headers = post_headers();
  headers.emplace_back("Host", "skills.test:8787");
  headers.emplace_back("Origin", "https://skills.test:8787");
  EXPECT_EQ(post(k_initialize, headers).status, 200);
}

TEST_F(McpHttpServerTest, BearerTokens) {
  start(options(/*anonymous=*/false));
  const HttpReply none = post(k_initialize, post_headers());
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.header("www-authenticate"), "Bearer realm=\"skillrt\"");
  EXPECT_EQ(post(k_initialize, post_headers("skrt_bogus_bogus")).status, 401);
  Headers basic = post_headers();
  basic.emplace_back("Authorization", "Basic YWxpY2U6eA==");
  EXPECT_EQ(post(k_initialize, basic).status, 401);
  EXPECT_EQ(post(k_initialize, post_headers(m_alice)).status, 200);
  // Refused from the head alone: the announced megabyte is never waited for.
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Content-Length: 1000000\r\n\r\n{"));
  const std::optional<HttpReply> early = client.read_reply(3000);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->status, 401);
  EXPECT_EQ(early->header("connection"), "close");
}

TEST_F(McpHttpServerTest, AnonymousStillRefusesBadTokens) {
  start(options(/*anonymous=*/true));
  EXPECT_EQ(post(k_initialize, post_headers()).status, 200);
  EXPECT_EQ(post(k_initialize, post_headers("skrt_bogus_bogus")).status, 401);
}

TEST_F(McpHttpServerTest, SessionIsBoundToItsCaller) {
  start(options(/*anonymous=*/true));
  const std::string alice_session = open_session(m_alice);
  ASSERT_FALSE(alice_session.empty());
  HttpTestClient client(m_port);
  // Bob, or an anonymous caller, holding Alice's session id get nothing.
  EXPECT_EQ(exchange(client, "POST", post_headers(m_bob, alice_session), k_skills_list).status, 404);
  EXPECT_EQ(exchange(client, "POST", post_headers({}, alice_session), k_skills_list).status, 404);
  EXPECT_EQ(exchange(client, "GET",
                     {{"Accept", "text/event-stream"},
                      {"Mcp-Session-Id", alice_session},
                      {"Authorization", "Bearer " + m_bob}})
                .status,
            404);
  EXPECT_EQ(exchange(client, "DELETE", {{"Mcp-Session-Id", alice_session}, {"Authorization", "Bearer " + m_bob}}).status,
            404);
  // ... and Alice's session is untouched.
  EXPECT_EQ(exchange(client, "POST", post_headers(m_alice, alice_session), k_skills_list).status, 200);
}

TEST_F(McpHttpServerTest, TwoUsersSeeTheirOwnSkills) {
  start(options(/*anonymous=*/false));
  const std::string alice_session = open_session(m_alice);
  const std::string bob_session = open_session(m_bob);
  const HttpReply alice = post(k_skills_list, post_headers(m_alice, alice_session));
  const HttpReply bob = post(k_skills_list, post_headers(m_bob, bob_session));
  ASSERT_EQ(alice.status, 200);
  ASSERT_EQ(bob.status, 200);
  EXPECT_NE(alice.body.find("alice-secret"), std::string::npos) << alice.body;
  EXPECT_NE(alice.body.find("deploy"), std::string::npos);
  EXPECT_EQ(bob.body.find("alice-secret"), std::string::npos) << bob.body;
  EXPECT_NE(bob.body.find("deploy"), std::string::npos);
}

TEST_F(McpHttpServerTest, EventStreamCarriesNotifications) {
  start(options());
  const std::string session = open_session();
  auto stream = open_stream(session);
  m_mcp->notify_changed({});
  const std::optional<std::string> events = stream->read_stream_until("list_changed");
  ASSERT_TRUE(events);
  EXPECT_NE(events->find("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/"), std::string::npos)
      << *events;
  // DELETE ends the stream cleanly (the terminal chunk).
  HttpTestClient client(m_port);
  EXPECT_EQ(exchange(client, "DELETE", {{"Mcp-Session-Id", session}}).status, 200);
  std::optional<std::string> chunk;
  do {
    chunk = stream->read_chunk(5000);
  } while (chunk && !chunk->empty());
  EXPECT_TRUE(chunk && chunk->empty());
}

// 2025 revisions: a GET stream that reconnects with Last-Event-ID gets what
// was sent after that event, also what was published while no stream was
// open; an id the server cannot replay from (another replica's) brings both
// list_changed at once, so the client re-reads.
TEST_F(McpHttpServerTest, StreamsResumeAfterTheLastEventId) {
  start(options());
  const std::string session = open_session();
  std::string last_id;
  {
    auto stream = open_stream(session);
    m_mcp->notify_changed({});
    const std::optional<std::string> events = stream->read_stream_until("prompts/list_changed");
    ASSERT_TRUE(events);
    const std::size_t at = events->rfind("id: ");
    ASSERT_NE(at, std::string::npos) << *events;
    last_id = events->substr(at + 4, events->find('\n', at) - at - 4);
  }  // the client goes away
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server notices the closed socket
  m_mcp->notify_changed({});  // sent while no stream is open
  auto resumed = std::make_unique<HttpTestClient>(m_port);
  ASSERT_TRUE(resumed->send_request(
      "GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}, {"Last-Event-ID", last_id}}));
  ASSERT_EQ(resumed->read_head().value_or(HttpReply{}).status, 200);
  const std::optional<std::string> missed = resumed->read_stream_until("prompts/list_changed", 5000);
  ASSERT_TRUE(missed) << "the messages sent while no stream was open were not replayed";
  EXPECT_NE(missed->find("resources/list_changed"), std::string::npos) << *missed;

  auto foreign = std::make_unique<HttpTestClient>(m_port);
  ASSERT_TRUE(foreign->send_request("GET", "/mcp",
                                    {{"Accept", "text/event-stream"},
                                     {"Mcp-Session-Id", session},
                                     {"Last-Event-ID", "0123456789abcdef-7"}}));
  ASSERT_EQ(foreign->read_head().value_or(HttpReply{}).status, 200);
  EXPECT_TRUE(foreign->read_stream_until("list_changed", 5000)) << "no resync for an id from elsewhere";
}

TEST_F(McpHttpServerTest, EachNotificationGoesToOneStream) {
  start(options());
  const std::string session = open_session();
  auto first = open_stream(session);
  auto second = open_stream(session);
  m_mcp->notify_changed({});  // resources/list_changed + prompts/list_changed
  const auto a = first->read_stream_until("list_changed", 5000);
  const auto b = second->read_stream_until("list_changed", 5000);
  ASSERT_TRUE(a && b);
  const std::string both = *a + *b;
  auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = both.find(needle); at != std::string::npos; at = both.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("notifications/resources/list_changed"), 1u) << both;
  EXPECT_EQ(count("notifications/prompts/list_changed"), 1u) << both;
}

TEST_F(McpHttpServerTest, KeepaliveComments) {
  HttpOptions fast = options();
  fast.sse_keepalive_ms = 100;
  start(fast);
  auto stream = open_stream(open_session());
  EXPECT_TRUE(stream->read_stream_until(": keepalive", 3000));
}

TEST_F(McpHttpServerTest, LaggingStreamIsClosedSessionSurvives) {
  HttpOptions small = options();
  small.sse_queue_bytes = 64;  // smaller than one notification: the first one overflows
  start(small);
  const std::string session = open_session();
  auto stream = open_stream(session);
  m_mcp->notify_changed({});
  EXPECT_TRUE(stream->closed_by_peer(5000));
  EXPECT_EQ(post(k_tools_list, post_headers({}, session)).status, 200);
  // A new stream works again.
  auto again = open_stream(session);
  EXPECT_TRUE(again->connected());
}

TEST_F(McpHttpServerTest, ClientThatStopsReadingIsCutOff) {
  HttpOptions modest = options();
  modest.sse_queue_bytes = 16 * 1024;
  start(modest);
  const std::string session = open_session();
  // A client with a tiny receive window that never reads its stream.
  auto stream = std::make_unique<HttpTestClient>(m_port, /*receive_buffer=*/2048);
  ASSERT_TRUE(stream->send_request("GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}}));
  ASSERT_TRUE(stream->read_head());
  // Far more than the socket buffers (the server bounds its side at
  // sse_socket_buffer_bytes) and the 16 KiB queue can hold, sent
  // while the client reads nothing.
  for (int i = 0; i < 20'000; ++i) {
    m_mcp->notify_changed({});
  }
  // Reading now drains what the kernel buffered, then meets the end: the
  // server gave up on the stream instead of queueing without bound.
  EXPECT_TRUE(stream->closed_by_peer(5000));
  EXPECT_EQ(post(k_tools_list, post_headers({}, session)).status, 200);
}

TEST_F(McpHttpServerTest, ClientVanishingMidStreamIsHarmless) {
  start(options());
  const std::string session = open_session();
  {
    auto stream = open_stream(session);
  }  // closed by the client
  {
    // Half a request, then gone.
    HttpTestClient client(m_port);
    client.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"");
  }
  std::this_thread::sleep_for(100ms);
  m_mcp->notify_changed({});
  m_mcp->notify_changed({});
  EXPECT_EQ(post(k_tools_list, post_headers({}, session)).status, 200);
}

TEST_F(McpHttpServerTest, SlowRequestTimesOut) {
  HttpOptions quick = options();
  quick.read_timeout_ms = 300;
  start(quick);
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"));  // and nothing more
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.closed_by_peer(5000));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 3s);
  // The server is still fine.
  EXPECT_EQ(post(k_initialize, post_headers()).status, 200);
}

TEST_F(McpHttpServerTest, TwoHostHeadersAre400) {
  start(options());
  // RFC 9112 §3.2: more than one Host field is answered 400, whichever is allowed.
  for (const char* hosts : {"Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n", "Host: 127.0.0.1\r\nHost: evil.example\r\n",
                            "Host: evil.example\r\nHost: 127.0.0.1\r\n"}) {
    HttpTestClient client(m_port);
    ASSERT_TRUE(client.send_raw(std::string("POST /mcp HTTP/1.1\r\n") + hosts +
                                "Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: " +
                                std::to_string(std::string(k_initialize).size()) + "\r\n\r\n" + k_initialize));
    const std::optional<HttpReply> reply = client.read_reply(5000);
    ASSERT_TRUE(reply) << hosts;
    EXPECT_EQ(reply->status, 400) << hosts;
    EXPECT_NE(reply->body.find("more than one Host"), std::string::npos) << reply->body;
    EXPECT_TRUE(client.closed_by_peer(3000));
  }
  // One Host is still fine.
  EXPECT_EQ(post(k_initialize, post_headers()).status, 200);
}

TEST_F(McpHttpServerTest, BodyTimeoutIsANamedLimit) {
  EXPECT_EQ(limits::k_http_body_timeout_ms, 15'000U);
  EXPECT_EQ(HttpOptions{}.body_timeout_ms, limits::k_http_body_timeout_ms);
  EXPECT_LE(limits::k_http_body_timeout_ms, HttpOptions{}.read_timeout_ms);
}

TEST_F(McpHttpServerTest, TricklingAuthenticatedBodyIsCutOff) {
  HttpOptions quick = options(false);
  quick.body_timeout_ms = 400;  // read_timeout_ms stays 30 s
  start(quick);
  HttpTestClient client(m_port);
  const std::string body = k_initialize;
  ASSERT_TRUE(client.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_alice +
                              "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                              "Content-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n"));
  // One byte every 50 ms: each arrives well within any idle timer, but the
  // body as a whole would take far longer than the deadline.
  const auto begin = std::chrono::steady_clock::now();
  bool closed = false;
  for (std::size_t i = 0; i < body.size() && !closed && std::chrono::steady_clock::now() - begin < 5s; ++i) {
    closed = !client.send_raw(body.substr(i, 1));
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(closed || client.closed_by_peer(3000));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 4s);
  // A body sent at once is still read and answered.
  EXPECT_EQ(post(k_initialize, post_headers(m_alice)).status, 200);
}

TEST_F(McpHttpServerTest, OversizeBodyIs413BeforeItIsRead) {
  HttpOptions limited = options();
  limited.max_body_bytes = 1024;
  start(limited);
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n"));
  const std::optional<HttpReply> reply = client.read_reply();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 413);
  EXPECT_TRUE(client.closed_by_peer(3000));
  // The body already on its way (no Expect: 100-continue): the 413 still arrives.
  HttpTestClient eager(m_port);
  ASSERT_TRUE(eager.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Content-Length: 200000\r\n\r\n" +
                             std::string(200000, ' ')));
  const std::optional<HttpReply> eager_reply = eager.read_reply();
  ASSERT_TRUE(eager_reply);
  EXPECT_EQ(eager_reply->status, 413);
  // Just under the limit is read and answered.
  std::string body = k_initialize;
  EXPECT_EQ(post(body, post_headers()).status, 200);
}

TEST_F(McpHttpServerTest, ChunkedBodies) {
  HttpOptions limited = options();
  limited.max_body_bytes = 1024;
  start(limited);
  auto chunked = [](const std::string& body) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx", body.size());
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "Transfer-Encoding: chunked\r\n\r\n" +
           std::string(size) + "\r\n" + body + "\r\n0\r\n\r\n";
  };
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw(chunked(k_initialize)));
  const std::optional<HttpReply> reply = client.read_reply();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  // Chunks past the limit are cut off as they arrive.
  HttpTestClient big(m_port);
  ASSERT_TRUE(big.send_raw(chunked(std::string(5000, ' '))));
  const std::optional<HttpReply> refused = big.read_reply();
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 413);
}

TEST_F(McpHttpServerTest, MalformedHttpIs400AndClosed) {
  start(options());
  for (const char* garbage : {"GARBAGE\r\n\r\n", "POST /mcp HTTP/9.9\r\nHost: x\r\n\r\n",
                              "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n"}) {
    HttpTestClient client(m_port);
    ASSERT_TRUE(client.send_raw(garbage));
    const std::optional<HttpReply> reply = client.read_reply();
    ASSERT_TRUE(reply) << garbage;
    EXPECT_EQ(reply->status, 400) << garbage;
    EXPECT_TRUE(client.closed_by_peer(3000)) << garbage;
  }
  HttpTestClient huge_header(m_port);
  ASSERT_TRUE(huge_header.send_raw("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(20000, 'a') +
                                   "\r\n\r\n"));
  const std::optional<HttpReply> reply = huge_header.read_reply();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 431);
}

TEST_F(McpHttpServerTest, IdleSessionsAreReaped) {
  HttpOptions short_lived = options();
  short_lived.idle_session_timeout_s = 1;
  start(short_lived);
  const std::string idle = open_session();
  const std::string streaming = open_session();
  auto stream = open_stream(streaming);  // an open stream keeps its session
  // The reaper drops the idle session after 1 s (asking the server about it
  // would keep it alive, so watch the count).
  EXPECT_TRUE(test::wait_until([&] { return m_mcp->session_count() == 1; }, 10s));
  EXPECT_EQ(post(k_tools_list, post_headers({}, idle)).status, 404);
  EXPECT_EQ(post(k_tools_list, post_headers({}, streaming)).status, 200);
  EXPECT_EQ(m_mcp->session_count(), 1u);
}

TEST_F(McpHttpServerTest, SessionLimit) {
  HttpOptions two = options();
  two.max_sessions = 2;
  start(two);
  open_session();
  open_session();
  EXPECT_EQ(post(k_initialize, post_headers()).status, 503);
}

TEST_F(McpHttpServerTest, StartRefusals) {
  HttpOptions exposed = options(/*anonymous=*/true);
  exposed.listen_host = "0.0.0.0";
  auto refused = McpHttpServer::start(exposed, *m_mcp, token_store_authenticator(m_tokens));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("loopback"), std::string::npos);

  start(options());
  HttpOptions same_port = options();
  same_port.port = m_port;
  auto taken = McpHttpServer::start(same_port, *m_mcp, token_store_authenticator(m_tokens));
  ASSERT_FALSE(taken);
  EXPECT_NE(taken.error().message.find(std::to_string(m_port)), std::string::npos) << taken.error().message;
}

TEST_F(McpHttpServerTest, StopEndsOpenStreams) {
  start(options());
  auto stream = open_stream(open_session());
  std::thread stopper([this] { m_http->stop(); });
  m_http->wait();
  stopper.join();
  m_http.reset();
  EXPECT_TRUE(stream->closed_by_peer(3000));
}

TEST_F(McpHttpServerTest, ParallelPostsOnOneSession) {
  start(options());
  const std::string session = open_session();
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&] {
      HttpTestClient client(m_port);
      for (int i = 0; i < 50; ++i) {
        client.send_request("POST", "/mcp", post_headers({}, session), k_tools_list);
        const std::optional<HttpReply> reply = client.read_reply();
        if (reply && reply->status == 200) {
          ++ok;
        }
      }
    });
  }
  for (auto& thread : clients) {
    thread.join();
  }
  EXPECT_EQ(ok.load(), 200);
}

// --- Resource limits: one tenant or one unauthenticated peer must not be able
// to take what everyone shares (session slots, sockets, a revoked token's stream).

TEST_F(McpHttpServerTest, PerCallerQuotaEvictsOnlyThatCallersOldestSessions) {
  HttpOptions limited = options(/*anonymous=*/false);
  limited.max_sessions = 50;           // without a quota, Bob alone would fill it
  limited.max_sessions_per_caller = 8;
  start(limited);
  const std::string alice_first = open_session(m_alice);
  std::vector<std::string> bob;
  for (int i = 0; i < 100; ++i) {
    bob.push_back(open_session(m_bob));
    ASSERT_FALSE(bob.back().empty()) << "Bob's session " << i;
  }
  // Alice lost nothing and can still open another.
  EXPECT_EQ(post(k_tools_list, post_headers(m_alice, alice_first)).status, 200);
  EXPECT_FALSE(open_session(m_alice).empty());
  // Bob keeps his 8 most recent sessions; the older ones are gone.
  for (std::size_t i = 0; i < bob.size(); ++i) {
    const int expected = i + 8 >= bob.size() ? 200 : 404;
    EXPECT_EQ(post(k_tools_list, post_headers(m_bob, bob[i])).status, expected) << "Bob's session " << i;
  }
  EXPECT_EQ(m_mcp->session_count(), 8u + 2u);
}

TEST_F(McpHttpServerTest, EvictedSessionEndsItsStream) {
  HttpOptions limited = options();
  limited.max_sessions_per_caller = 1;
  start(limited);
  auto stream = open_stream(open_session());
  open_session();  // the anonymous caller's second session evicts the first
  EXPECT_TRUE(stream->closed_by_peer(3000));
}

TEST_F(McpHttpServerTest, GlobalConnectionCap) {
  HttpOptions capped = options();
  capped.max_connections = 3;
  start(capped);
  std::vector<std::unique_ptr<HttpTestClient>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<HttpTestClient>(m_port));
    ASSERT_TRUE(held.back()->connected());
    // An answered request proves the server accepted (and counts) it.
    EXPECT_EQ(exchange(*held.back(), "POST", post_headers(), k_initialize).status, 200);
  }
  HttpTestClient over(m_port);
  EXPECT_TRUE(over.closed_by_peer(2000));  // closed before it could send anything
  held.pop_back();
  // The slot frees once the server has seen the close.
  EXPECT_TRUE(test::wait_until([&] { return status_of_post(k_initialize, post_headers()) == 200; }, 5s));
}

TEST_F(McpHttpServerTest, PerPeerConnectionCap) {
  HttpOptions capped = options();
  capped.max_connections_per_ip = 2;
  start(capped);
  // The session is opened on the connection that stays: a connection opened
  // and closed only for it could still hold its slot when the cap is probed.
  HttpTestClient second(m_port);
  ASSERT_TRUE(second.connected());
  const std::string session = open_session(second);
  auto stream = open_stream(session);  // a GET stream holds its slot too
  // An answered request proves the server accepted (and counts) it.
  EXPECT_EQ(exchange(second, "POST", post_headers({}, session), k_tools_list).status, 200);
  HttpTestClient third(m_port);
  EXPECT_TRUE(third.closed_by_peer(2000));
  second.close();
  // The slot frees once the server has seen the close.
  EXPECT_TRUE(test::wait_until([&] { return status_of_post(k_tools_list, post_headers({}, session)) == 200; }, 5s));
}

TEST_F(McpHttpServerTest, RequestHeadHasItsOwnShortTimeout) {
  HttpOptions quick = options();
  quick.header_timeout_ms = 300;  // read_timeout_ms stays 30 s
  start(quick);
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.closed_by_peer(5000));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 3s);
  // An idle keep-alive connection is dropped after the same time.
  HttpTestClient idle(m_port);
  EXPECT_EQ(exchange(idle, "POST", post_headers(), k_initialize).status, 200);
  EXPECT_TRUE(idle.closed_by_peer(3000));
}

TEST_F(McpHttpServerTest, TricklingClientCannotStretchTheLinger) {
  HttpOptions quick = options();
  quick.linger_ms = 400;
  start(quick);
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_raw("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  ASSERT_TRUE(client.read_reply());
  // One byte every 100 ms: each used to restart the linger timer. Once the
  // server has fully closed, a send meets a reset and then fails.
  const auto begin = std::chrono::steady_clock::now();
  bool closed = false;
  while (!closed && std::chrono::steady_clock::now() - begin < 4s) {
    closed = !client.send_raw("x");
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(closed);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
}

TEST_F(McpHttpServerTest, StreamsPerSessionAreCapped) {
  HttpOptions capped = options();
  capped.max_streams_per_session = 2;
  start(capped);
  const std::string session = open_session();
  auto first = open_stream(session);
  auto second = open_stream(session);
  auto third = open_stream(session);  // the oldest makes room
  EXPECT_TRUE(first->closed_by_peer(3000));
  EXPECT_FALSE(second->closed_by_peer(300));
  EXPECT_FALSE(third->closed_by_peer(300));
  m_mcp->notify_changed({});
  m_mcp->notify_changed({});
  EXPECT_TRUE(second->read_stream_until("list_changed", 3000));
  EXPECT_TRUE(third->read_stream_until("list_changed", 3000));
}

TEST_F(McpHttpServerTest, RevokedTokenEndsItsOpenStream) {
  HttpOptions fast = options(/*anonymous=*/false);
  fast.sse_keepalive_ms = 100;
  constexpr auto k_ttl = 300ms;
  start_with(fast, cache_authentications(token_store_authenticator(m_tokens), k_ttl));
  auto carol = m_tokens->create_token("carol", "org1", "test");
  ASSERT_TRUE(carol);
  auto carol_stream = open_stream(open_session(carol->bearer), carol->bearer);
  auto bob_stream = open_stream(open_session(m_bob), m_bob);
  EXPECT_TRUE(carol_stream->read_stream_until(": keepalive", 3000));  // it was authorized all along
  ASSERT_TRUE(m_tokens->revoke_token(carol->token.id));
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_TRUE(carol_stream->closed_by_peer(3000));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, k_ttl + 100ms + 1s);  // TTL + keepalive + slack
  EXPECT_FALSE(bob_stream->closed_by_peer(500));
  EXPECT_TRUE(bob_stream->read_stream_until(": keepalive", 3000));
}


// --- the web UI's door and the events WebSocket ---------------------------

// The handshake of /api/v1/events (RFC 6455 §4.1) with extra headers.
bool send_upgrade(HttpTestClient& client, const Headers& extra) {
  Headers headers{{"Connection", "Upgrade"}, {"Upgrade", "websocket"}, {"Sec-WebSocket-Version", "13"},
                  {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
  headers.insert(headers.end(), extra.begin(), extra.end());
  return client.send_request("GET", "/api/v1/events", headers);
}

// An API handler that names its caller, so a test sees who the server decided it was.
api::ApiHandler echo_caller() {
  return [](const api::ApiRequest& request) {
    return api::ApiResponse{200, "{\"user\":\"" + request.caller.user_id.value_or("-") + "\",\"method\":\"" +
                                     request.method + "\"}",
                            "application/json", {}};
  };
}

struct SignedIn {
  std::string cookie;  // "skillrt_session=…"
  std::string csrf;
};

std::optional<SignedIn> sign_in(std::uint16_t port, const std::string& bearer) {
  HttpTestClient client(port);
  if (!client.send_request("POST", "/api/v1/session", {{"Content-Type", "application/json"}},
                           "{\"token\":\"" + bearer + "\"}")) {
    return std::nullopt;
  }
  const std::optional<HttpReply> reply = client.read_reply();
  if (!reply || reply->status != 200) {
    return std::nullopt;
  }
  const std::string set_cookie = reply->header("set-cookie");
  std::smatch csrf;
  if (!std::regex_search(reply->body, csrf, std::regex("\"csrf_token\":\"([0-9a-f]+)\""))) {
    return std::nullopt;
  }
  return SignedIn{set_cookie.substr(0, set_cookie.find(';')), csrf[1]};
}

TEST_F(McpHttpServerTest, SignInTradesATokenForAStrictHttpOnlyCookie) {
  HttpOptions web = options(/*anonymous=*/false);
  web.api = echo_caller();
  start(web);
  HttpTestClient bad(m_port);
  EXPECT_EQ(exchange(bad, "POST", {{"Content-Type", "application/json"}}, R"({"token":"skrt_nope_nope"})",
                     "/api/v1/session")
                .status,
            401);
  HttpTestClient client(m_port);
  const HttpReply reply = exchange(client, "POST", {{"Content-Type", "application/json"}},
                                   "{\"token\":\"" + m_alice + "\"}", "/api/v1/session");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::string cookie = reply.header("set-cookie");
  EXPECT_TRUE(std::regex_search(cookie, std::regex("^skillrt_session=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict")))
      << cookie;
  EXPECT_EQ(cookie.find(m_alice), std::string::npos);
  EXPECT_NE(reply.body.find("\"user_id\":\"alice\""), std::string::npos) << reply.body;
  EXPECT_EQ(reply.body.find(m_alice), std::string::npos);  // the token is not echoed
}

TEST_F(McpHttpServerTest, CookieReadsAndCsrfCheckedWrites) {
  HttpOptions web = options(/*anonymous=*/false);
  web.api = echo_caller();
  start(web);
  const std::optional<SignedIn> alice = sign_in(m_port, m_alice);
  ASSERT_TRUE(alice);
  const std::string origin = "http://127.0.0.1:" + std::to_string(m_port);
  const auto call = [&](const std::string& method, const Headers& headers) {
    HttpTestClient client(m_port);
    Headers all = headers;
    all.emplace_back("Content-Type", "application/json");
    return exchange(client, method, all, method == "GET" ? "" : "{}", "/api/v1/skills");
  };
  HttpReply read = call("GET", {{"Cookie", alice->cookie}});
  EXPECT_EQ(read.status, 200);
  EXPECT_NE(read.body.find("\"user\":\"alice\""), std::string::npos) << read.body;
  EXPECT_EQ(call("POST", {{"Cookie", alice->cookie}, {"Origin", origin}}).status, 403);  // no CSRF token
  EXPECT_EQ(call("POST", {{"Cookie", alice->cookie}, {"X-CSRF-Token", alice->csrf}}).status, 403);  // no Origin
  EXPECT_EQ(call("POST", {{"Cookie", alice->cookie}, {"Origin", origin}, {"X-CSRF-Token", std::string(32, '0')}}).status,
            403);
  EXPECT_EQ(call("POST", {{"Cookie", alice->cookie}, {"Origin", "http://evil.example"}, {"X-CSRF-Token", alice->csrf}})
                .status,
            403);
  const HttpReply write = call("PUT", {{"Cookie", alice->cookie}, {"Origin", origin}, {"X-CSRF-Token", alice->csrf}});
  EXPECT_EQ(write.status, 200);
  EXPECT_NE(write.body.find("\"user\":\"alice\",\"method\":\"PUT\""), std::string::npos) << write.body;
  // Another session's CSRF token does not fit this session.
  const std::optional<SignedIn> bob = sign_in(m_port, m_bob);
  ASSERT_TRUE(bob);
  EXPECT_EQ(call("POST", {{"Cookie", alice->cookie}, {"Origin", origin}, {"X-CSRF-Token", bob->csrf}}).status, 403);
  EXPECT_EQ(call("GET", {{"Cookie", "skillrt_session=" + std::string(64, 'a')}}).status, 401);
}

TEST_F(McpHttpServerTest, UiFilesCarryTheirPolicyAndRevalidate) {
  HttpOptions web = options(/*anonymous=*/false);
  web.api = echo_caller();
  start(web);
  HttpTestClient client(m_port);
  const HttpReply page = exchange(client, "GET", {}, {}, "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(page.header("content-security-policy").find("script-src 'self'"), std::string::npos);
  EXPECT_EQ(page.header("content-security-policy").find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(page.header("x-content-type-options"), "nosniff");
  EXPECT_EQ(page.header("x-frame-options"), "DENY");
  const std::string etag = page.header("etag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(exchange(client, "GET", {{"If-None-Match", etag}}, {}, "/").status, 304);
  EXPECT_EQ(exchange(client, "GET", {}, {}, "/ui/app.js").header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(exchange(client, "GET", {}, {}, "/ui/nothing.js").status, 404);
  EXPECT_EQ(exchange(client, "GET", {}, {}, "/ui/..%2fskillrt.db").status, 404);
  EXPECT_EQ(exchange(client, "POST", {{"Content-Type", "application/json"}}, "{}", "/").status, 405);
  // A page on another site cannot even load them through a rebound name.
  EXPECT_EQ(exchange(client, "GET", {{"Host", "evil.example"}}, {}, "/").status, 403);
}

TEST_F(McpHttpServerTest, SignedInSocketClosesOnSignOut) {
  api::EventFeed feed(m_mcp->events(), 64);
  HttpOptions web = options(/*anonymous=*/false);
  web.api = echo_caller();
  web.events = &feed;
  web.events_recheck_ms = 50;
  start(web);
  const std::optional<SignedIn> alice = sign_in(m_port, m_alice);
  ASSERT_TRUE(alice);
  const std::string origin = "http://127.0.0.1:" + std::to_string(m_port);
  HttpTestClient refused(m_port);
  ASSERT_TRUE(send_upgrade(refused, {{"Origin", origin}}));
  EXPECT_EQ(refused.read_reply().value_or(HttpReply{}).status, 401);
  HttpTestClient foreign(m_port);
  ASSERT_TRUE(send_upgrade(foreign, {{"Cookie", alice->cookie}, {"Origin", "http://evil.example"}}));
  EXPECT_EQ(foreign.read_reply().value_or(HttpReply{}).status, 403);

  HttpTestClient socket(m_port);
  ASSERT_TRUE(send_upgrade(socket, {{"Cookie", alice->cookie}, {"Origin", origin}}));
  ASSERT_EQ(socket.read_head().value_or(HttpReply{}).status, 101);
  const auto hello = socket.read_ws_frame();
  ASSERT_TRUE(hello);
  EXPECT_NE(hello->payload.find("\"type\":\"hello\""), std::string::npos);
  core::SkillEvent event;
  event.layer = core::Layer::user;
  event.owner = "alice";
  event.name = "for-alice";
  m_mcp->events().publish(event);
  const auto delivered = socket.read_ws_frame();
  ASSERT_TRUE(delivered);
  EXPECT_NE(delivered->payload.find("\"name\":\"for-alice\""), std::string::npos) << delivered->payload;

  HttpTestClient out(m_port);
  EXPECT_EQ(exchange(out, "DELETE", {{"Cookie", alice->cookie}, {"X-CSRF-Token", alice->csrf}}, {}, "/api/v1/session")
                .status,
            200);
  std::optional<HttpTestClient::WsFrame> frame;
  while ((frame = socket.read_ws_frame(3000)) && frame->opcode != 8) {
  }
  ASSERT_TRUE(frame) << "no close frame after sign-out";
  ASSERT_GE(frame->payload.size(), 2u);
  EXPECT_EQ((static_cast<unsigned char>(frame->payload[0]) << 8) | static_cast<unsigned char>(frame->payload[1]), 4001);
}

// While the token database cannot be asked (a PostgreSQL restart), an open
// socket stays open, a new request gets 503 with Retry-After (not 401), and a
// revocation found once the database answers again still closes the socket.
TEST_F(McpHttpServerTest, AnUnreachableTokenDatabaseKeepsOpenSocketsAndAnswersNewRequests503) {
  api::EventFeed feed(m_mcp->events(), 64);
  HttpOptions web = options(/*anonymous=*/false);
  web.events = &feed;
  web.events_recheck_ms = 50;
  enum Mode { real, unreachable, revoked };
  auto mode = std::make_shared<std::atomic<int>>(real);
  Authenticator check = token_store_authenticator(m_tokens);
  start_with(web, [mode, check](const std::string& bearer) -> Result<mcp::Caller> {
    switch (mode->load()) {
    case unreachable:
      return fail(ErrorCode::io_error, "PostgreSQL: lost the connection to 127.0.0.1:5432/skillrt");
    case revoked:
      return fail(ErrorCode::refused, "not a valid token");
    default:
      return check(bearer);
    }
  });
  HttpTestClient socket(m_port);
  ASSERT_TRUE(send_upgrade(socket, {{"Authorization", "Bearer " + m_alice}}));
  ASSERT_EQ(socket.read_head().value_or(HttpReply{}).status, 101);
  ASSERT_TRUE(socket.read_ws_frame());  // hello

  mode->store(unreachable);
  HttpTestClient fresh(m_port);
  const HttpReply refused = exchange(fresh, "POST", post_headers(m_alice), k_initialize);
  EXPECT_EQ(refused.status, 503) << refused.body;
  EXPECT_EQ(refused.header("retry-after"), "1");
  EXPECT_NE(refused.body.find("cannot be checked right now"), std::string::npos) << refused.body;
  EXPECT_FALSE(socket.closed_by_peer(400)) << "rechecks during the outage must not end the socket";
  core::SkillEvent event;
  event.layer = core::Layer::user;
  event.owner = "alice";
  event.name = "during-outage";
  m_mcp->events().publish(event);
  const auto delivered = socket.read_ws_frame();
  ASSERT_TRUE(delivered);
  EXPECT_NE(delivered->payload.find("during-outage"), std::string::npos) << delivered->payload;

  mode->store(revoked);
  std::optional<HttpTestClient::WsFrame> frame;
  while ((frame = socket.read_ws_frame(3000)) && frame->opcode != 8) {
  }
  ASSERT_TRUE(frame) << "no close frame once the database says the token is gone";
  ASSERT_GE(frame->payload.size(), 2u);
  EXPECT_EQ((static_cast<unsigned char>(frame->payload[0]) << 8) | static_cast<unsigned char>(frame->payload[1]), 4001);
}

// SIGTERM on a replica: a request in flight finishes (told to close its
// connection), nothing new gets in, MCP streams end and event sockets close
// with 1001 so their clients reconnect to another replica.
TEST_F(McpHttpServerTest, DrainLetsRequestsInFlightFinishAndSendsEveryoneElseAway) {
  api::EventFeed feed(m_mcp->events(), 64);
  HttpOptions web = options(/*anonymous=*/false);
  web.events = &feed;
  web.events_recheck_ms = 50;
  web.api = [](const api::ApiRequest& request) {
    if (request.target.find("slow") != std::string::npos) {
      std::this_thread::sleep_for(700ms);
    }
    return api::ApiResponse{200, R"({"done":true})", "application/json", {}};
  };
  start(web);
  HttpTestClient socket(m_port);
  ASSERT_TRUE(send_upgrade(socket, {{"Authorization", "Bearer " + m_alice}}));
  ASSERT_EQ(socket.read_head().value_or(HttpReply{}).status, 101);
  ASSERT_TRUE(socket.read_ws_frame());  // hello
  auto stream = open_stream(open_session(m_alice), m_alice);
  HttpTestClient idle(m_port);  // a keep-alive connection between requests
  EXPECT_EQ(exchange(idle, "GET", {{"Authorization", "Bearer " + m_alice}}, {}, "/api/v1/quick").status, 200);

  std::optional<HttpReply> slow;
  std::thread slow_client([&] {
    HttpTestClient client(m_port);
    if (client.send_request("GET", "/api/v1/slow", {{"Authorization", "Bearer " + m_alice}}, {})) {
      slow = client.read_reply();
    }
  });
  std::this_thread::sleep_for(200ms);  // the slow request is in its handler
  const auto begin = std::chrono::steady_clock::now();
  m_http->drain(10s);
  const auto took = std::chrono::steady_clock::now() - begin;
  slow_client.join();
  ASSERT_TRUE(slow) << "the request in flight got no answer";
  EXPECT_EQ(slow->status, 200);
  EXPECT_EQ(slow->header("connection"), "close");
  EXPECT_GE(took, 300ms) << "drain returned before the request in flight finished";
  EXPECT_LT(took, 5s);

  HttpTestClient late(m_port);
  EXPECT_TRUE(!late.connected() || late.closed_by_peer(1000)) << "a new connection was accepted while draining";
  // A keep-alive connection that was idle is still served until stop(), and told to close.
  const HttpReply last = exchange(idle, "GET", {{"Authorization", "Bearer " + m_alice}}, {}, "/api/v1/quick");
  EXPECT_EQ(last.status, 200);
  EXPECT_EQ(last.header("connection"), "close");
  EXPECT_TRUE(stream->closed_by_peer(1000)) << "the MCP stream stayed open";
  std::optional<HttpTestClient::WsFrame> frame;
  while ((frame = socket.read_ws_frame(2000)) && frame->opcode != 8) {
  }
  ASSERT_TRUE(frame) << "no close frame";
  ASSERT_GE(frame->payload.size(), 2u);
  EXPECT_EQ((static_cast<unsigned char>(frame->payload[0]) << 8) | static_cast<unsigned char>(frame->payload[1]), 1001);
}

TEST_F(McpHttpServerTest, SlowEventConsumerIsCutOffWith4008AndItsQueueFreed) {
  api::EventFeed feed(m_mcp->events(), 64);
  HttpOptions small = options(/*anonymous=*/false);
  small.events = &feed;
  small.events_queue_bytes = 16 * 1024;
  small.sse_socket_buffer_bytes = 4 * 1024;
  start(small);
  // A client with a tiny receive window that stops reading after the hello.
  HttpTestClient socket(m_port, /*receive_buffer=*/2048);
  ASSERT_TRUE(send_upgrade(socket, {{"Authorization", "Bearer " + m_alice}}));
  ASSERT_EQ(socket.read_head().value_or(HttpReply{}).status, 101);
  ASSERT_TRUE(socket.read_ws_frame());
  ASSERT_EQ(feed.subscriber_count(), 1u);
  // Far more than the queue and every socket buffer hold: about 2 MB.
  core::SkillEvent event;
  event.layer = core::Layer::user;
  event.owner = "alice";
  event.name = std::string(2000, 'x');
  for (int i = 0; i < 1000 && feed.subscriber_count() == 1; ++i) {
    m_mcp->events().publish(event);
  }
  // The server gave up on the socket: its queue is gone at once, however
  // long the client takes to notice.
  EXPECT_TRUE(test::wait_until([&] { return feed.subscriber_count() == 0; }, 5s));
  // Reading again drains what the kernel held, then finds the close frame.
  std::optional<HttpTestClient::WsFrame> frame;
  int messages = 0;
  while ((frame = socket.read_ws_frame(5000)) && frame->opcode != 8) {
    ++messages;
  }
  ASSERT_TRUE(frame) << "no close frame after " << messages << " messages";
  ASSERT_GE(frame->payload.size(), 2u);
  EXPECT_EQ((static_cast<unsigned char>(frame->payload[0]) << 8) | static_cast<unsigned char>(frame->payload[1]), 4008);
  EXPECT_NE(frame->payload.find("slow consumer"), std::string::npos);
  EXPECT_LT(messages, 1000);
}

TEST_F(McpHttpServerTest, ProbesAnswerWithoutATokenAndReadinessFollowsItsCheck) {
  HttpOptions probed = options(/*anonymous=*/false);
  std::atomic<bool> database_up{true};
  probed.readiness = [&database_up]() -> Result<void> {
    if (!database_up) {
      return fail(ErrorCode::io_error, "connection refused (secret detail)");
    }
    return {};
  };
  start(probed);
  HttpTestClient client(m_port);
  HttpReply up = exchange(client, "GET", {}, {}, "/healthz");
  EXPECT_EQ(up.status, 200);
  EXPECT_EQ(up.body, R"({"status":"up"})");
  EXPECT_EQ(exchange(client, "GET", {}, {}, "/readyz").status, 200);
  database_up = false;
  const HttpReply down = exchange(client, "GET", {}, {}, "/readyz");
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(down.body.find("secret detail"), std::string::npos) << down.body;
  EXPECT_EQ(exchange(client, "GET", {}, {}, "/healthz").status, 200);  // up, not ready
  // A load balancer addresses the replica by its IP: no Host check here.
  EXPECT_EQ(exchange(client, "GET", {{"Host", "10.0.0.7:8787"}}, {}, "/healthz").status, 200);
  EXPECT_EQ(exchange(client, "POST", {{"Content-Type", "application/json"}}, "{}", "/healthz").status, 405);
}

// The stateless 2026-07-28 revision over HTTP: answered without a session,
// a subscriptions/listen POST becomes an event stream that starts with the
// acknowledgement and carries only the caller's notifications, and drain()
// ends it; GET under the 2026 header is 405.
TEST_F(McpHttpServerTest, StatelessRevisionAndListenStreams) {
  start(options(/*anonymous=*/false));
  const std::string meta =
      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
  auto modern_headers = [&](const std::string& bearer, const std::string& method) {
    Headers headers = post_headers(bearer);
    headers.emplace_back("MCP-Protocol-Version", "2026-07-28");
    headers.emplace_back("Mcp-Method", method);
    return headers;
  };
  HttpTestClient client(m_port);
  const HttpReply discovered = exchange(client, "POST", modern_headers(m_alice, "server/discover"),
                                        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)" + meta + "}}");
  EXPECT_EQ(discovered.status, 200) << discovered.body;
  EXPECT_TRUE(discovered.header("mcp-session-id").empty());
  EXPECT_NE(discovered.body.find(R"("supportedVersions":["2026-07-28")"), std::string::npos) << discovered.body;
  const HttpReply removed =
      exchange(client, "POST", modern_headers(m_alice, "ping"), R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{)" + meta + "}}");
  EXPECT_EQ(removed.status, 404);
  EXPECT_EQ(exchange(client, "GET", {{"Authorization", "Bearer " + m_alice}, {"Accept", "text/event-stream"},
                                     {"MCP-Protocol-Version", "2026-07-28"}})
                .status,
            405);

  auto listen = [&](const std::string& bearer) {
    auto stream = std::make_unique<HttpTestClient>(m_port);
    const std::string body = R"({"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},)" +
                             meta + "}}";
    EXPECT_TRUE(stream->send_request("POST", "/mcp", modern_headers(bearer, "subscriptions/listen"), body));
    const std::optional<HttpReply> head = stream->read_head();
    EXPECT_EQ(head.value_or(HttpReply{}).status, 200);
    EXPECT_EQ(head.value_or(HttpReply{}).header("content-type"), "text/event-stream");
    EXPECT_TRUE(stream->read_stream_until("notifications/subscriptions/acknowledged"));
    return stream;
  };
  auto alice = listen(m_alice);
  auto bob = listen(m_bob);
  m_mcp->notify_changed({m_tree.path() / "users" / "alice" / "skills" / "alice-secret" / "SKILL.md"});
  const std::optional<std::string> heard = alice->read_stream_until("list_changed", 5000);
  ASSERT_TRUE(heard);
  EXPECT_NE(heard->find(R"("io.modelcontextprotocol/subscriptionId":"sub")"), std::string::npos) << *heard;
  EXPECT_EQ(heard->find("prompts/list_changed"), std::string::npos) << *heard;  // not asked for
  EXPECT_FALSE(bob->read_stream_until("list_changed", 300)) << "bob heard of alice's change";

  m_http->drain(2s);
  std::optional<std::string> chunk;
  do {
    chunk = alice->read_chunk(5000);
  } while (chunk && !chunk->empty());
  EXPECT_TRUE(chunk && chunk->empty()) << "drain did not end the listen stream";
}

}  // namespace
}  // namespace skillrt::net
