// The OpenAI-compatible proxy: its rules without sockets (proxy_rules), what
// it reads from a request body (read_proxy_call), and the relay end to end:
// real sockets on 127.0.0.1, the real server with the real SQLite token
// store, a keep-alive upstream that answers whatever bytes a test scripts
// (fake_upstream.hpp), and the raw client of test_http_client.hpp.
#include "net/openai_proxy.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/mcp_http_server.hpp"
#include "net/proxy_rules.hpp"
#include "net/token_authenticator.hpp"
#include "store/open_store.hpp"
#include "support/temp_tree.hpp"
#include "support/wait_until.hpp"
#include "unit/net/fake_upstream.hpp"
#include "unit/net/test_http_client.hpp"

namespace skillrt::net {
namespace {

using namespace std::chrono_literals;
using test::FakeUpstream;
using test::HttpReply;
using test::HttpTestClient;
using test::UpstreamRequest;
using Headers = std::vector<std::pair<std::string, std::string>>;

// --- proxy_rules ----------------------------------------------------------

TEST(ProxyRules, ParsesUpstreamUrls) {
  auto url = parse_upstream_url("http://127.0.0.1:9000/v1/");
  ASSERT_TRUE(url) << url.error().message;
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 9000);
  EXPECT_EQ(url->base_path, "/v1");
  EXPECT_EQ(url->authority, "127.0.0.1:9000");

  url = parse_upstream_url("HTTP://Models.Example.org");
  ASSERT_TRUE(url) << url.error().message;
  EXPECT_EQ(url->host, "models.example.org");
  EXPECT_EQ(url->port, 80);
  EXPECT_EQ(url->base_path, "");
  EXPECT_EQ(url->authority, "models.example.org");

  url = parse_upstream_url("http://[::1]:8080/openai/v1");
  ASSERT_TRUE(url) << url.error().message;
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->authority, "[::1]:8080");
  EXPECT_EQ(url->base_path, "/openai/v1");
}

TEST(ProxyRules, RefusesUpstreamUrlsItCannotUse) {
  const auto https = parse_upstream_url("https://api.openai.com/v1");
  ASSERT_FALSE(https);
  EXPECT_NE(https.error().message.find("http://"), std::string::npos) << https.error().message;
  for (const char* bad : {"ftp://host/v1", "http://", "http://:80/v1", "http://host:0", "http://host:65536",
                          "http://host:", "http://host:8x", "http://user:pw@host/v1", "http://host/v1?key=1",
                          "http://host/v1#top", "http://::1/v1", "http://host/a b", "http://ho\r\nst/v1",
                          "http://[::1/v1", "host:80"}) {
    const auto url = parse_upstream_url(bad);
    EXPECT_FALSE(url) << bad;
    if (!url) {
      EXPECT_EQ(url.error().code, ErrorCode::invalid_argument) << bad;
    }
  }
}

TEST(ProxyRules, MapsTargetsOntoTheBasePath) {
  UpstreamUrl url;
  url.base_path = "/v1";
  EXPECT_EQ(upstream_target(url, "/v1/chat/completions"), "/v1/chat/completions");
  url.base_path = "/openai/deployments/gpt";
  EXPECT_EQ(upstream_target(url, "/v1/chat/completions?api-version=2024"),
            "/openai/deployments/gpt/chat/completions?api-version=2024");
  url.base_path = "";
  EXPECT_EQ(upstream_target(url, "/v1/models"), "/models");
}

TEST(ProxyRules, ForwardsEndToEndHeadersOnly) {
  for (const char* kept : {"Content-Type", "Accept", "User-Agent", "X-Stainless-Lang", "OpenAI-Beta",
                           "Idempotency-Key", "X-Request-Id"}) {
    EXPECT_TRUE(forwarded_request_header(kept)) << kept;
  }
  for (const char* dropped : {"Host", "Authorization", "AUTHORIZATION", "Cookie", "Api-Key", "Connection",
                              "Keep-Alive", "Transfer-Encoding", "Content-Length", "Expect", "Accept-Encoding",
                              "OpenAI-Organization", "OpenAI-Project", "X-Skillrt-Conversation-Id",
                              "Proxy-Authorization", "Upgrade", "TE", "Trailer", "Origin"}) {
    EXPECT_FALSE(forwarded_request_header(dropped)) << dropped;
  }
}

TEST(ProxyRules, RelaysAnswerHeadersButNotTheFraming) {
  for (const char* kept : {"Content-Type", "Retry-After", "retry-after-ms", "x-should-retry", "x-request-id",
                           "x-ratelimit-remaining-requests", "openai-processing-ms", "Cache-Control"}) {
    EXPECT_TRUE(relayed_response_header(kept)) << kept;
  }
  for (const char* dropped : {"Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Set-Cookie",
                              "WWW-Authenticate", "Alt-Svc", "Proxy-Authenticate", "Upgrade"}) {
    EXPECT_FALSE(relayed_response_header(dropped)) << dropped;
  }
}

TEST(ProxyRules, ReusesIdleConnectionsInsideTheKeepAliveWindow) {
  const auto fallback = std::chrono::milliseconds(4000);
  EXPECT_EQ(keep_alive_reuse_window(std::nullopt, fallback), fallback);
  EXPECT_EQ(keep_alive_reuse_window("timeout=5", fallback), 4000ms);
  EXPECT_EQ(keep_alive_reuse_window("timeout=5, max=1000", fallback), 4000ms);
  EXPECT_EQ(keep_alive_reuse_window("max=3, Timeout=60", fallback), 59000ms);
  EXPECT_EQ(keep_alive_reuse_window("timeout=1", fallback), 500ms);
  EXPECT_EQ(keep_alive_reuse_window("timeout=0", fallback), 500ms);
  EXPECT_EQ(keep_alive_reuse_window("timeout=soon", fallback), fallback);
  EXPECT_EQ(keep_alive_reuse_window("", fallback), fallback);
}

TEST(ProxyRules, RecognisesEventStreams) {
  EXPECT_TRUE(is_event_stream("text/event-stream"));
  EXPECT_TRUE(is_event_stream("Text/Event-Stream; charset=utf-8"));
  EXPECT_FALSE(is_event_stream("application/json"));
  EXPECT_FALSE(is_event_stream(""));
}

TEST(ProxyRules, FramesChunks) {
  std::string out;
  append_http_chunk(out, "hello");
  EXPECT_EQ(out, "5\r\nhello\r\n");
  append_http_chunk(out, "");
  EXPECT_EQ(out, "5\r\nhello\r\n") << "an empty chunk would end the body";
  out.clear();
  append_http_chunk(out, std::string(26, 'x'));
  EXPECT_EQ(out, "1a\r\n" + std::string(26, 'x') + "\r\n");
}

// --- read_proxy_call and the error body ---------------------------------------

TEST(ReadProxyCall, ReadsMessagesModelAndStream) {
  const auto call = read_proxy_call(
      R"({"model":"gpt-x","stream":true,"tools":[{"type":"function","function":{"name":"t","parameters":{}}}],)"
      R"("messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],"temperature":0})");
  ASSERT_TRUE(call) << call.error().message;
  EXPECT_EQ(call->model, "gpt-x");
  EXPECT_TRUE(call->stream);
  ASSERT_EQ(call->messages.size(), 2u);
  EXPECT_EQ(call->messages[0].role, core::ChatRole::system);
  EXPECT_EQ(call->messages[1].content, "Hi");
  EXPECT_TRUE(call->user_turn);
  EXPECT_TRUE(call->conversation_id.empty());
}

TEST(ReadProxyCall, KnowsWhenAUserTurnBegins) {
  const auto continued = read_proxy_call(
      R"({"model":"m","messages":[{"role":"user","content":"Deploy"},)"
      R"({"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",)"
      R"("function":{"name":"terminal","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]})");
  ASSERT_TRUE(continued) << continued.error().message;
  EXPECT_FALSE(continued->user_turn) << "a tool result continues the turn";
  EXPECT_FALSE(continued->stream);
  const auto empty = read_proxy_call(R"({"model":"m","messages":[]})");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->user_turn);
}

TEST(ReadProxyCall, RefusesWhatIsNotAChatRequest) {
  for (const char* bad : {"not json", "[]", R"({"model":"m"})", R"({"messages":7})",
                          R"({"messages":[{"role":"user","content":5}]})", R"({"messages":[],"messages":[]})"}) {
    EXPECT_FALSE(read_proxy_call(bad)) << bad;
  }
}

TEST(OpenAiErrorBody, HasOpenAisShape) {
  const auto body = nlohmann::json::parse(openai_error_body("No \"token\"", "invalid_request_error", "invalid_api_key"));
  EXPECT_EQ(body["error"]["message"], "No \"token\"");
  EXPECT_EQ(body["error"]["type"], "invalid_request_error");
  EXPECT_TRUE(body["error"]["param"].is_null());
  EXPECT_EQ(body["error"]["code"], "invalid_api_key");
  EXPECT_TRUE(nlohmann::json::parse(openai_error_body("x", "server_error"))["error"]["code"].is_null());
}

// --- the relay ------------------------------------------------------------------

constexpr const char* k_user_turn =
    R"({"model":"agent-model","messages":[{"role":"system","content":"You deploy."},)"
    R"({"role":"user","content":"Deploy the app."}]})";

constexpr const char* k_tool_reply =
    R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"agent-model","choices":[{"index":0,)"
    R"("message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",)"
    R"("function":{"name":"skill_view","arguments":"{\"name\":\"deploy\"}"}}]},"finish_reason":"tool_calls"}],)"
    R"("usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}})";

// What the observer was told, for the tests to wait on.
struct Recorded {
  std::mutex mutex;
  std::vector<ProxyCall> started;
  std::vector<std::pair<ProxyCall, ProxyOutcome>> finished;

  std::size_t finished_count() {
    std::lock_guard lock(mutex);
    return finished.size();
  }
};

class OpenAiProxyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_ctx.home = m_tree.path();
    m_ctx.cwd = m_tree.path();
    m_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    auto tokens = store::open_token_store("", m_ctx);
    ASSERT_TRUE(tokens) << tokens.error().message;
    m_tokens = std::move(*tokens);
    auto alice = m_tokens->create_token("alice", "org1", "test");
    ASSERT_TRUE(alice);
    m_alice = alice->bearer;
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

  // Starts the server with the proxy relaying to `upstream_url`; `adjust`
  // changes the proxy options before.
  void start(const std::string& upstream_url, const std::function<void(ProxyOptions&)>& adjust = {}) {
    ProxyOptions proxy;
    proxy.upstream_url = upstream_url;
    proxy.api_key = "sk-upstream";
    proxy.observer.turn_started = [this](const ProxyCall& call) {
      if (m_turn_started_hook) {
        m_turn_started_hook();
      }
      std::lock_guard lock(m_recorded.mutex);
      m_recorded.started.push_back(call);
    };
    proxy.observer.finished = [this](ProxyCall call, ProxyOutcome outcome) {
      std::lock_guard lock(m_recorded.mutex);
      m_recorded.finished.emplace_back(std::move(call), std::move(outcome));
    };
    if (adjust) {
      adjust(proxy);
    }
    HttpOptions options;
    options.listen_host = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    options.proxy = std::move(proxy);
    auto started = McpHttpServer::start(std::move(options), *m_mcp, token_store_authenticator(m_tokens));
    ASSERT_TRUE(started) << started.error().message;
    m_http = std::move(*started);
    m_port = m_http->bound_port();
  }

  Headers chat_headers(const std::string& bearer) const {
    Headers headers{{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    if (!bearer.empty()) {
      headers.emplace_back("Authorization", "Bearer " + bearer);
    }
    return headers;
  }

  static HttpReply exchange(HttpTestClient& client, const std::string& method, const std::string& target,
                            const Headers& headers, const std::string& body = {}) {
    EXPECT_TRUE(client.send_request(method, target, headers, body));
    std::optional<HttpReply> reply = client.read_reply();
    EXPECT_TRUE(reply) << method << " " << target << ": no reply";
    return reply.value_or(HttpReply{});
  }

  HttpReply chat(const std::string& body, const Headers& headers) {
    HttpTestClient client(m_port);
    return exchange(client, "POST", "/v1/chat/completions", headers, body);
  }

  test::TempTree m_tree;
  core::Context m_ctx;
  std::shared_ptr<core::TokenStore> m_tokens;
  std::string m_alice;
  std::unique_ptr<mcp::Server> m_mcp;
  std::unique_ptr<McpHttpServer> m_http;
  std::uint16_t m_port = 0;
  Recorded m_recorded;
  std::function<void()> m_turn_started_hook;
};

TEST_F(OpenAiProxyTest, RelaysTheAnswerUnchangedAndSendsTheUpstreamKey) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply,
                                                "x-request-id: req_1\r\nSet-Cookie: upstream=1\r\n"
                                                "Keep-Alive: timeout=5\r\n"));
  });
  start(upstream.base_url());
  Headers headers = chat_headers(m_alice);
  headers.emplace_back("X-Skillrt-Conversation-Id", "conv-1");
  headers.emplace_back("User-Agent", "proxy-test/1");
  headers.emplace_back("Accept-Encoding", "gzip");
  const HttpReply reply = chat(k_user_turn, headers);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, k_tool_reply);
  EXPECT_EQ(reply.header("content-type"), "application/json");
  EXPECT_EQ(reply.header("content-length"), std::to_string(std::string_view(k_tool_reply).size()));
  EXPECT_EQ(reply.header("x-request-id"), "req_1");
  EXPECT_TRUE(reply.header("set-cookie").empty());

  const std::vector<UpstreamRequest> sent = upstream.requests();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].method, "POST");
  EXPECT_EQ(sent[0].target, "/v1/chat/completions");
  EXPECT_EQ(sent[0].body, k_user_turn) << "the body goes upstream byte for byte";
  EXPECT_EQ(sent[0].header("authorization"), "Bearer sk-upstream");
  EXPECT_EQ(sent[0].header("host"), "127.0.0.1:" + std::to_string(upstream.port()));
  EXPECT_EQ(sent[0].header("user-agent"), "proxy-test/1");
  EXPECT_EQ(sent[0].header("content-type"), "application/json");
  EXPECT_FALSE(sent[0].has_header("accept-encoding"));
  EXPECT_FALSE(sent[0].has_header("x-skillrt-conversation-id"));
  for (const auto& [name, value] : sent[0].headers) {
    EXPECT_EQ(value.find(m_alice), std::string::npos) << "the skillrt token leaked in " << name;
  }

  ASSERT_TRUE(test::wait_until([&] { return m_recorded.finished_count() == 1; }, 10s));
  std::lock_guard lock(m_recorded.mutex);
  ASSERT_EQ(m_recorded.started.size(), 1u) << "the request began a user turn";
  const auto& [call, outcome] = m_recorded.finished[0];
  EXPECT_EQ(call.caller.user_id, "alice");
  EXPECT_EQ(call.conversation_id, "conv-1");
  EXPECT_EQ(call.model, "agent-model");
  EXPECT_EQ(call.messages.size(), 2u);
  EXPECT_TRUE(call.user_turn);
  EXPECT_EQ(outcome.status, 200u);
  EXPECT_TRUE(outcome.complete);
  ASSERT_TRUE(outcome.reply) << outcome.reply_error;
  ASSERT_EQ(outcome.reply->message.tool_calls.size(), 1u);
  EXPECT_EQ(outcome.reply->message.tool_calls[0].name, "skill_view");
}

TEST_F(OpenAiProxyTest, RefusesToStartWithAnUpstreamItCannotUse) {
  for (const auto& [url, key] : {std::pair<std::string, std::string>{"https://api.openai.com/v1", "sk"},
                                 {"http://127.0.0.1:9/v1", "sk\r\nX-Injected: 1"}}) {
    HttpOptions options;
    options.port = 0;
    options.proxy = ProxyOptions{};
    options.proxy->upstream_url = url;
    options.proxy->api_key = key;
    const auto started = McpHttpServer::start(std::move(options), *m_mcp, token_store_authenticator(m_tokens));
    ASSERT_FALSE(started) << url;
    EXPECT_EQ(started.error().code, ErrorCode::invalid_argument);
  }
}

TEST_F(OpenAiProxyTest, KeepsTheUpstreamConnectionForTheNextRequests) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
  });
  start(upstream.base_url());
  {
    HttpTestClient client(m_port);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn).status, 200);
    }
  }
  EXPECT_EQ(chat(k_user_turn, chat_headers(m_alice)).status, 200);
  EXPECT_EQ(chat(k_user_turn, chat_headers(m_alice)).status, 200);
  EXPECT_EQ(upstream.request_count(), 5u);
  EXPECT_EQ(upstream.connections(), 1) << "one pooled upstream connection serves callers one after another";
}

TEST_F(OpenAiProxyTest, DropsAnIdleConnectionTheUpstreamClosed) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
    return false;  // closes after answering, without saying so
  });
  start(upstream.base_url());
  HttpTestClient client(m_port);
  EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn).status, 200);
  EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn).status, 200);
  EXPECT_EQ(upstream.connections(), 2);
}

TEST_F(OpenAiProxyTest, RelaysEachEventOfAStreamAsItArrives) {
  const std::string first = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                            "\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,"
                            "\"id\":\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"skill_manage\","
                            "\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n";
  const std::string rest = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                           "\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]},"
                           "\"finish_reason\":null}]}\n\n"
                           "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                           "\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
  test::Latch go_on;
  FakeUpstream upstream([&](int fd, const UpstreamRequest&) {
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n";
    append_http_chunk(head, first);
    test::send_all(fd, head);
    go_on.wait(20s);
    std::string tail;
    append_http_chunk(tail, rest.substr(0, 7));  // cut inside a line
    append_http_chunk(tail, rest.substr(7));
    tail += "0\r\n\r\n";
    return test::send_all(fd, tail);
  });
  start(upstream.base_url());
  HttpTestClient client(m_port);
  std::string body = k_user_turn;
  body.insert(1, "\"stream\":true,");
  ASSERT_TRUE(client.send_request("POST", "/v1/chat/completions", chat_headers(m_alice), body));
  const std::optional<HttpReply> head = client.read_head();
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->header("content-type"), "text/event-stream; charset=utf-8");
  EXPECT_EQ(head->header("transfer-encoding"), "chunked");
  // The first event reaches the caller while the upstream still holds the rest.
  const std::optional<std::string> early = client.read_stream_until("skill_manage");
  go_on.open();
  ASSERT_TRUE(early) << "the first event was held back";
  const std::optional<std::string> later = client.read_stream_until("[DONE]");
  ASSERT_TRUE(later);
  EXPECT_EQ(*early + *later, first + rest);
  EXPECT_EQ(client.read_chunk(), "") << "the stream ends with its last chunk";

  ASSERT_TRUE(test::wait_until([&] { return m_recorded.finished_count() == 1; }, 10s));
  std::lock_guard lock(m_recorded.mutex);
  const auto& [call, outcome] = m_recorded.finished[0];
  EXPECT_TRUE(call.stream);
  EXPECT_TRUE(outcome.complete);
  ASSERT_TRUE(outcome.reply) << outcome.reply_error;
  ASSERT_EQ(outcome.reply->message.tool_calls.size(), 1u);
  EXPECT_EQ(outcome.reply->message.tool_calls[0].name, "skill_manage");
  EXPECT_EQ(outcome.reply->message.tool_calls[0].arguments, "{}");
}

TEST_F(OpenAiProxyTest, RelaysAnAnswerThatEndsWhenTheUpstreamCloses) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    test::send_all(fd, std::string("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n") +
                           k_tool_reply);
    return false;
  });
  start(upstream.base_url());
  HttpTestClient client(m_port);
  const HttpReply reply = exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("transfer-encoding"), "chunked");
  EXPECT_EQ(reply.body, k_tool_reply);
  // The caller's connection stays usable.
  EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn).status, 200);
}

TEST_F(OpenAiProxyTest, SkipsInterimAnswers) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" +
                                  test::http_answer(200, "application/json", k_tool_reply));
  });
  start(upstream.base_url());
  HttpTestClient client(m_port);
  const HttpReply reply = exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, k_tool_reply);
  EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn).status, 200);
}

TEST_F(OpenAiProxyTest, PassesErrorsThroughWithRetryAfter) {
  const std::string error = R"({"error":{"message":"Rate limit reached","type":"rate_limit_error","code":null}})";
  FakeUpstream upstream([&](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(429, "application/json", error, "Retry-After: 7\r\n"));
  });
  start(upstream.base_url());
  const HttpReply reply = chat(k_user_turn, chat_headers(m_alice));
  EXPECT_EQ(reply.status, 429);
  EXPECT_EQ(reply.header("retry-after"), "7");
  EXPECT_EQ(reply.body, error);
  ASSERT_TRUE(test::wait_until([&] { return m_recorded.finished_count() == 1; }, 10s));
  std::lock_guard lock(m_recorded.mutex);
  EXPECT_EQ(m_recorded.finished[0].second.status, 429u);
  EXPECT_FALSE(m_recorded.finished[0].second.reply);
}

TEST_F(OpenAiProxyTest, RefusesCallersWithoutAValidTokenBeforeTheUpstream) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
  });
  start(upstream.base_url());
  for (const std::string& bearer : {std::string(), std::string("not-a-token")}) {
    const HttpReply reply = chat(k_user_turn, chat_headers(bearer));
    EXPECT_EQ(reply.status, 401);
    const auto body = nlohmann::json::parse(reply.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << reply.body;
    EXPECT_EQ(body["error"]["code"], "invalid_api_key");
    EXPECT_TRUE(body["error"]["message"].is_string());
  }
  HttpTestClient client(m_port);
  const HttpReply unknown = exchange(client, "POST", "/v1/embeddings", chat_headers(m_alice), "{}");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_TRUE(nlohmann::json::parse(unknown.body)["error"].is_object()) << unknown.body;
  EXPECT_EQ(exchange(client, "GET", "/v1/chat/completions", chat_headers(m_alice)).status, 405);
  Headers text = chat_headers(m_alice);
  text[0].second = "text/plain";
  EXPECT_EQ(exchange(client, "POST", "/v1/chat/completions", text, k_user_turn).status, 415);
  EXPECT_EQ(upstream.request_count(), 0u) << "the upstream saw none of it";
}

TEST_F(OpenAiProxyTest, RefusesBodiesPastItsLimit) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
  });
  start(upstream.base_url(), [](ProxyOptions& proxy) { proxy.max_request_bytes = 1024; });
  const HttpReply reply = chat(std::string(R"({"messages":[],"pad":")") + std::string(2000, 'x') + "\"}",
                               chat_headers(m_alice));
  EXPECT_EQ(reply.status, 413);
  EXPECT_TRUE(nlohmann::json::parse(reply.body)["error"].is_object()) << reply.body;
  EXPECT_EQ(chat(k_user_turn, chat_headers(m_alice)).status, 200);
  EXPECT_EQ(upstream.request_count(), 1u);
}

TEST_F(OpenAiProxyTest, PassesTheModelListThrough) {
  const std::string models = R"({"object":"list","data":[{"id":"m1","object":"model"}]})";
  FakeUpstream upstream([&](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", models));
  });
  start(upstream.base_url());
  HttpTestClient client(m_port);
  const HttpReply reply = exchange(client, "GET", "/v1/models", chat_headers(m_alice));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, models);
  ASSERT_EQ(upstream.request_count(), 1u);
  EXPECT_EQ(upstream.requests()[0].target, "/v1/models");
  EXPECT_EQ(upstream.requests()[0].method, "GET");
  EXPECT_EQ(m_recorded.finished_count(), 0u) << "only chat completions are observed";
}

TEST_F(OpenAiProxyTest, AnswersBadGatewayWhenTheUpstreamIsDown) {
  // A port nobody listens on: bound, then closed.
  std::uint16_t port = 0;
  {
    FakeUpstream gone([](int, const UpstreamRequest&) { return false; });
    port = gone.port();
  }
  start("http://127.0.0.1:" + std::to_string(port) + "/v1");
  const HttpReply reply = chat(k_user_turn, chat_headers(m_alice));
  EXPECT_EQ(reply.status, 502);
  const auto body = nlohmann::json::parse(reply.body, nullptr, false);
  ASSERT_TRUE(body.is_object()) << reply.body;
  EXPECT_EQ(body["error"]["code"], "upstream_unreachable");
}

TEST_F(OpenAiProxyTest, AnswersGatewayTimeoutWhenTheUpstreamIsSilent) {
  std::atomic<bool> cancelled{false};
  FakeUpstream upstream([&](int fd, const UpstreamRequest&) {
    cancelled = test::peer_closed_within(fd, 20s);
    return false;
  });
  start(upstream.base_url(), [](ProxyOptions& proxy) { proxy.response_timeout_ms = 300; });
  const HttpReply reply = chat(k_user_turn, chat_headers(m_alice));
  EXPECT_EQ(reply.status, 504);
  EXPECT_EQ(nlohmann::json::parse(reply.body)["error"]["code"], "upstream_timeout") << reply.body;
  EXPECT_TRUE(test::wait_until([&] { return cancelled.load(); }, 10s)) << "the upstream request was not dropped";
}

TEST_F(OpenAiProxyTest, CancelsTheUpstreamRequestWhenTheCallerLeaves) {
  std::atomic<bool> cancelled{false};
  FakeUpstream upstream([&](int fd, const UpstreamRequest&) {
    cancelled = test::peer_closed_within(fd, 20s);
    return false;
  });
  start(upstream.base_url());
  {
    HttpTestClient client(m_port);
    ASSERT_TRUE(client.send_request("POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn));
    ASSERT_TRUE(test::wait_until([&] { return upstream.request_count() == 1; }, 10s));
  }  // the caller hangs up while the upstream thinks
  EXPECT_TRUE(test::wait_until([&] { return cancelled.load(); }, 10s));
  ASSERT_TRUE(test::wait_until([&] { return m_recorded.finished_count() == 1; }, 10s));
  std::lock_guard lock(m_recorded.mutex);
  EXPECT_FALSE(m_recorded.finished[0].second.complete);
}

TEST_F(OpenAiProxyTest, RelaysTheAnswerOfANewTurnOnlyAfterTurnStartedReturned) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
  });
  test::Latch release;
  m_turn_started_hook = [&] { release.wait(20s); };
  start(upstream.base_url());
  HttpTestClient client(m_port);
  ASSERT_TRUE(client.send_request("POST", "/v1/chat/completions", chat_headers(m_alice), k_user_turn));
  ASSERT_TRUE(test::wait_until([&] { return upstream.request_count() == 1; }, 10s))
      << "the request goes upstream at once";
  // A window in which the answer must not arrive: turn_started still runs.
  EXPECT_FALSE(client.read_head(300));
  release.open();
  const std::optional<HttpReply> reply = client.read_reply();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
}

TEST_F(OpenAiProxyTest, ReadsTheRequestAfterTheAnswerWhenTurnStartedHasNothingToDo) {
  FakeUpstream upstream([](int fd, const UpstreamRequest&) {
    return test::send_all(fd, test::http_answer(200, "application/json", k_tool_reply));
  });
  std::atomic<int> asked{0};
  start(upstream.base_url(), [&](ProxyOptions& proxy) {
    proxy.observer.turn_started_needed = [&] {
      ++asked;
      return false;
    };
  });
  EXPECT_EQ(chat(k_user_turn, chat_headers(m_alice)).status, 200);
  EXPECT_EQ(chat("{\"not\": \"a chat request\"}", chat_headers(m_alice)).status, 200);
  ASSERT_TRUE(test::wait_until([&] { return m_recorded.finished_count() == 1; }, 10s));
  EXPECT_EQ(asked.load(), 2);
  std::lock_guard lock(m_recorded.mutex);
  EXPECT_TRUE(m_recorded.started.empty()) << "turn_started is not called when it has nothing to do";
  const auto& [call, outcome] = m_recorded.finished[0];
  EXPECT_EQ(call.caller.user_id, "alice");
  EXPECT_TRUE(call.user_turn);
  EXPECT_EQ(call.messages.size(), 2u);
  ASSERT_TRUE(outcome.reply) << outcome.reply_error;
  EXPECT_EQ(outcome.reply->message.tool_calls.size(), 1u);
}

}  // namespace
}  // namespace skillrt::net
