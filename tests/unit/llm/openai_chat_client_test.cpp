// OpenAiChatClient against a real HTTP server: the scripted chat-completions
// upstream (tests/support/scripted_upstream, the same wire format the
// official openai client accepts), one server process per test. What the
// client sent is read back from the server's request log.
#include "llm/openai_chat_client.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "support/scripted_upstream/scripted_upstream.hpp"
#include "support/temp_tree.hpp"
#include "support/wait_until.hpp"

namespace skillrt::llm {
namespace {

using core::ChatMessage;
using core::ChatRequest;
using core::ChatRole;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

ChatRequest review_request() {
  ChatRequest request;
  request.model = "gpt-test";
  request.messages.push_back(ChatMessage{ChatRole::system, "You review conversations.", {}, {}, {}});
  request.messages.push_back(ChatMessage{ChatRole::user, "Deploy the app.", {}, {}, {}});
  request.messages.push_back(ChatMessage{ChatRole::assistant, std::nullopt, {{"call_0", "skills_list", "{}"}}, {}, {}});
  request.messages.push_back(ChatMessage{ChatRole::tool, R"({"skills":["deploy"]})", {}, "call_0", {}});
  request.tools.push_back({"skill_view", "Read a skill",
                           R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"});
  request.tools.push_back({"skills_list", "List skills", ""});
  request.temperature = 0.25;
  return request;
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - since).count();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class OpenAiChatClientTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_node = test::scripted_upstream_node();
    if (!m_node) {
      if (test::node_tools_required()) {
        FAIL() << "SKILLRT_REQUIRE_NODE_TOOLS=1 but the pinned node is missing (run scripts/npm-tools)";
      }
      GTEST_SKIP() << "the pinned node of tests/tools is missing (run scripts/npm-tools)";
    }
  }

  // Starts the scripted upstream on `steps` (a JSON array of steps).
  test::ScriptedUpstream& upstream(const std::string& steps) {
    m_upstream = std::make_unique<test::ScriptedUpstream>(*m_node, m_tree.path(), R"({"steps":)" + steps + "}");
    return *m_upstream;
  }

  OpenAiChatOptions options() const {
    OpenAiChatOptions out;
    out.base_url = m_upstream->base_url();
    out.api_key = "sk-test-secret";
    out.connect_timeout_ms = 5000;
    out.request_timeout_ms = 20000;
    return out;
  }

  nlohmann::json request_log(std::size_t index) const {
    const auto lines = m_upstream->requests();
    if (index >= lines.size()) {
      ADD_FAILURE() << "request " << index << " was not logged (" << lines.size() << " were)";
      return nlohmann::json();
    }
    return nlohmann::json::parse(lines[index]);
  }

  std::optional<std::filesystem::path> m_node;
  test::TempTree m_tree;
  std::unique_ptr<test::ScriptedUpstream> m_upstream;
};

TEST_F(OpenAiChatClientTest, ParsesToolCallsAndSendsMessagesAndTools) {
  upstream(R"([{"type": "completion", "content": null,
      "tool_calls": [{"id": "call_1", "name": "skill_view", "arguments": "{\"name\":\"deploy\"}"}],
      "usage": {"prompt_tokens": 42, "completion_tokens": 7}}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.role, ChatRole::assistant);
  EXPECT_FALSE(reply->message.content.has_value());
  ASSERT_EQ(reply->message.tool_calls.size(), 1u);
  EXPECT_EQ(reply->message.tool_calls[0].id, "call_1");
  EXPECT_EQ(reply->message.tool_calls[0].name, "skill_view");
  EXPECT_EQ(reply->message.tool_calls[0].arguments, R"({"name":"deploy"})");
  EXPECT_EQ(reply->finish_reason, "tool_calls");
  EXPECT_EQ(reply->usage.prompt_tokens, 42u);
  EXPECT_EQ(reply->usage.completion_tokens, 7u);
  EXPECT_EQ(reply->usage.total_tokens, 49u);

  const nlohmann::json sent = request_log(0);
  EXPECT_EQ(sent["method"], "POST");
  EXPECT_EQ(sent["path"], "/v1/chat/completions");
  EXPECT_EQ(sent["headers"]["authorization"], "Bearer sk-test-secret");
  EXPECT_EQ(sent["headers"]["content-type"], "application/json");
  EXPECT_EQ(sent["headers"]["user-agent"], "skillrt");
  const nlohmann::json& body = sent["body"];
  EXPECT_EQ(body["model"], "gpt-test");
  EXPECT_FALSE(body.contains("stream"));
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.25);
  ASSERT_EQ(body["messages"].size(), 4u);
  EXPECT_EQ(body["messages"][0], (nlohmann::json{{"role", "system"}, {"content", "You review conversations."}}));
  EXPECT_EQ(body["messages"][1], (nlohmann::json{{"role", "user"}, {"content", "Deploy the app."}}));
  EXPECT_EQ(body["messages"][2]["content"], nullptr);
  EXPECT_EQ(body["messages"][2]["tool_calls"],
            nlohmann::json::parse(
                R"([{"id":"call_0","type":"function","function":{"name":"skills_list","arguments":"{}"}}])"));
  EXPECT_EQ(body["messages"][3],
            (nlohmann::json{{"role", "tool"}, {"content", R"({"skills":["deploy"]})"}, {"tool_call_id", "call_0"}}));
  ASSERT_EQ(body["tools"].size(), 2u);
  EXPECT_EQ(body["tools"][0], nlohmann::json::parse(R"({"type":"function","function":{"name":"skill_view",
      "description":"Read a skill","parameters":{"type":"object","properties":{"name":{"type":"string"}},
      "required":["name"]}}})"));
  EXPECT_EQ(body["tools"][1]["function"]["parameters"], nlohmann::json::parse(R"({"type":"object","properties":{}})"));
}

TEST_F(OpenAiChatClientTest, WaitsForRetryAfterOn429ThenSucceeds) {
  upstream(R"([{"type": "error", "status": 429, "retry_after": "1",
                "body": {"error": {"message": "Rate limit reached", "type": "requests"}}},
               {"type": "completion", "content": "after the wait"}])");
  OpenAiChatClient client(options());
  const auto started = Clock::now();
  auto reply = client.complete(review_request(), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.content, "after the wait");
  EXPECT_EQ(reply->finish_reason, "stop");
  EXPECT_GE(elapsed_ms(started), 950) << "the second attempt came before the 1 s Retry-After";
  EXPECT_EQ(m_upstream->requests().size(), 2u);
}

TEST_F(OpenAiChatClientTest, RetriesA500WithBackoffThenSucceeds) {
  upstream(R"([{"type": "error", "status": 500}, {"type": "error", "status": 502, "body": "Bad Gateway"},
               {"type": "completion", "content": "third time"}])");
  OpenAiChatClient client(options());
  const auto started = Clock::now();
  auto reply = client.complete(review_request(), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.content, "third time");
  EXPECT_EQ(m_upstream->requests().size(), 3u);
  EXPECT_GE(elapsed_ms(started), 1400) << "backoff is 500 ms, then 1 s";
}

TEST_F(OpenAiChatClientTest, GivesUpAfterMaxAttemptsNamingTheLastFailure) {
  upstream(R"([{"type": "error", "status": 503, "times": 3,
                "body": {"error": {"message": "The engine is currently overloaded"}}}])");
  auto settings = options();
  settings.max_attempts = 2;
  OpenAiChatClient client(settings);
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 503")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "The engine is currently overloaded")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "after 2 attempts")) << reply.error().message;
  EXPECT_EQ(m_upstream->requests().size(), 2u);
}

TEST_F(OpenAiChatClientTest, RetryAfterLongerThanTheCapFailsAtOnce) {
  upstream(R"([{"type": "error", "status": 429, "retry_after": "120"}, {"type": "completion"}])");
  auto settings = options();
  settings.max_retry_wait_ms = 5000;
  OpenAiChatClient client(settings);
  const auto started = Clock::now();
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 429")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "asked to wait 120 s")) << reply.error().message;
  EXPECT_LT(elapsed_ms(started), 4000);
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, ReadsRetryAfterAsAnHttpDate) {
  // An hour ahead: past the cap, so the call fails at once naming the wait,
  // which proves the date was read (an unread header would mean backoff).
  const std::time_t later = std::time(nullptr) + 3600;
  std::tm parts{};
  ::gmtime_r(&later, &parts);
  char date[64];
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &parts);
  upstream(R"([{"type": "error", "status": 503, "retry_after": ")" + std::string(date) + R"("}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 503")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "asked to wait 3600 s") ||
              contains(reply.error().message, "asked to wait 3599 s"))
      << reply.error().message;
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, A400IsNotRetriedAndNamesTheServersMessage) {
  upstream(R"([{"type": "error", "status": 400, "body": {"error": {"message": "Invalid 'messages[1].role': 'robot'",
               "type": "invalid_request_error", "param": "messages[1].role", "code": null}}},
               {"type": "completion"}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::invalid_argument);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 400 from http://127.0.0.1:")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "Invalid 'messages[1].role': 'robot'")) << reply.error().message;
  EXPECT_FALSE(contains(reply.error().message, "sk-test-secret")) << reply.error().message;
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, UnauthorizedIsRefused) {
  upstream(R"([{"type": "error", "status": 401, "body": {"error": {"message": "Incorrect API key provided"}}}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::refused);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 401")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "Incorrect API key provided")) << reply.error().message;
}

TEST_F(OpenAiChatClientTest, MalformedJsonIsAParseError) {
  upstream(R"([{"type": "malformed"}, {"type": "completion"}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::parse_error);
  EXPECT_TRUE(contains(reply.error().message, "malformed reply from http://127.0.0.1:")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "not valid JSON")) << reply.error().message;
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, AnErrorBodyWithStatus200CarriesItsMessage) {
  upstream(R"([{"type": "raw", "status": 200, "headers": {"content-type": "application/json"},
               "body": "{\"error\": {\"message\": \"model overloaded, try later\"}}"}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(reply.error().message, "model overloaded, try later")) << reply.error().message;
}

TEST_F(OpenAiChatClientTest, ASlowServerTimesOut) {
  upstream(R"([{"type": "delay", "ms": 5000}, {"type": "completion"}])");
  auto settings = options();
  settings.request_timeout_ms = 500;
  OpenAiChatClient client(settings);
  const auto started = Clock::now();
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(reply.error().message, "timed out after 500 ms")) << reply.error().message;
  EXPECT_LT(elapsed_ms(started), 4000);
  EXPECT_EQ(m_upstream->requests().size(), 1u) << "a timed-out request is not sent again";
}

TEST_F(OpenAiChatClientTest, StopAbortsAnInFlightRequest) {
  upstream(R"([{"type": "delay", "ms": 30000}])");
  OpenAiChatClient client(options());
  std::stop_source stop;
  Clock::time_point stopped_at;
  std::jthread canceller([&] {
    // Once the server holds the request, not before.
    test::wait_until([&] { return m_upstream->requests().size() == 1; }, milliseconds(20000));
    stopped_at = Clock::now();
    stop.request_stop();
  });
  auto reply = client.complete(review_request(), stop.get_token());
  const auto returned_at = Clock::now();
  canceller.join();
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "cancelled")) << reply.error().message;
  EXPECT_LT(std::chrono::duration_cast<milliseconds>(returned_at - stopped_at).count(), 2000);
}

TEST_F(OpenAiChatClientTest, StopAbortsTheWaitBeforeARetry) {
  upstream(R"([{"type": "error", "status": 429, "retry_after": "30"}, {"type": "completion"}])");
  OpenAiChatClient client(options());
  std::stop_source stop;
  Clock::time_point stopped_at;
  std::jthread canceller([&] {
    test::wait_until([&] { return m_upstream->requests().size() == 1; }, milliseconds(20000));
    // Give the client time to read the 429 and start its 30 s wait.
    std::this_thread::sleep_for(milliseconds(300));
    stopped_at = Clock::now();
    stop.request_stop();
  });
  auto reply = client.complete(review_request(), stop.get_token());
  const auto returned_at = Clock::now();
  canceller.join();
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "cancelled")) << reply.error().message;
  EXPECT_LT(std::chrono::duration_cast<milliseconds>(returned_at - stopped_at).count(), 2000);
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, AStopBeforeTheCallSendsNothing) {
  upstream(R"([{"type": "completion"}])");
  OpenAiChatClient client(options());
  std::stop_source stop;
  stop.request_stop();
  auto reply = client.complete(review_request(), stop.get_token());
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "cancelled")) << reply.error().message;
  EXPECT_TRUE(m_upstream->requests().empty());
}

TEST_F(OpenAiChatClientTest, AReplyPastTheCapIsLimitExceeded) {
  upstream(R"([{"type": "completion", "content": ")" + std::string(4000, 'x') + R"("}])");
  auto settings = options();
  settings.max_response_bytes = 1000;
  OpenAiChatClient client(settings);
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(reply.error().message, "1000 bytes")) << reply.error().message;
}

TEST_F(OpenAiChatClientTest, RedirectsAreNotFollowed) {
  upstream(R"([{"type": "raw", "status": 307, "headers": {"location": "http://127.0.0.1:9/v1/chat/completions"}},
               {"type": "completion"}])");
  OpenAiChatClient client(options());
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_TRUE(contains(reply.error().message, "HTTP 307")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "redirect")) << reply.error().message;
  EXPECT_EQ(m_upstream->requests().size(), 1u);
}

TEST_F(OpenAiChatClientTest, KeepsTheQueryOfTheBaseUrl) {
  upstream(R"([{"type": "completion", "content": "ok"}])");
  auto settings = options();
  settings.base_url += "/?api-version=2024-10-21";
  OpenAiChatClient client(settings);
  auto reply = client.complete(review_request(), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(request_log(0)["path"], "/v1/chat/completions");
}

// Not a scripted-upstream test: nothing listens, so each attempt fails to connect.
TEST(OpenAiChatClient, AClosedPortIsRetriedThenNamed) {
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(probe, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(probe); // bound, never listening, now closed: connections are refused
  OpenAiChatOptions settings;
  settings.base_url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/v1";
  settings.max_attempts = 2;
  OpenAiChatClient client(settings);
  const auto started = Clock::now();
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(reply.error().message, "cannot reach http://127.0.0.1:")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "after 2 attempts")) << reply.error().message;
  EXPECT_GE(elapsed_ms(started), 450) << "one backoff of 500 ms between the attempts";
}

TEST(OpenAiChatClient, TheDefaultReplyCapIsTheLimit) {
  EXPECT_EQ(OpenAiChatOptions{}.max_response_bytes, limits::k_chat_reply_max_bytes);
}

TEST(OpenAiChatClient, OnlyHttpAndHttpsUrls) {
  for (const char* url :
       {"ftp://127.0.0.1/v1", "file:///etc/passwd", "gopher://127.0.0.1/", "", "127.0.0.1:8080", "http://"}) {
    OpenAiChatOptions settings;
    settings.base_url = url;
    OpenAiChatClient client(settings);
    auto reply = client.complete(review_request(), {});
    ASSERT_FALSE(reply) << url;
    EXPECT_EQ(reply.error().code, ErrorCode::invalid_argument) << url << ": " << reply.error().message;
  }
  // A URL too broken to parse is named without its password.
  OpenAiChatOptions settings;
  settings.base_url = "http://user:hunter2@bad host/v1";
  OpenAiChatClient client(settings);
  auto reply = client.complete(review_request(), {});
  ASSERT_FALSE(reply);
  EXPECT_FALSE(contains(reply.error().message, "hunter2")) << reply.error().message;
  EXPECT_TRUE(contains(reply.error().message, "http://***@bad host/v1")) << reply.error().message;
}

TEST(OpenAiChatClient, AToolWithAnInvalidSchemaIsRefusedBeforeSending) {
  OpenAiChatOptions settings;
  settings.base_url = "http://127.0.0.1:9/v1";
  OpenAiChatClient client(settings);
  ChatRequest request = review_request();
  request.tools.push_back({"broken", "a tool", "[1, 2"});
  auto reply = client.complete(request, {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::invalid_argument);
  EXPECT_TRUE(contains(reply.error().message, "\"broken\"")) << reply.error().message;
}

} // namespace
} // namespace skillrt::llm
