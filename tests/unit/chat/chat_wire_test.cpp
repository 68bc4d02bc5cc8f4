// The chat-completions wire format: the request body as OpenAI documents it,
// replies and transcripts read back, and hostile bodies (malformed, deep,
// huge, mistyped, duplicated) refused with a message naming what is wrong.
#include "core/chat/chat_wire.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "support/deadline.hpp"

namespace skillrt::core {
namespace {

using nlohmann::json;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ChatRequest sample_request() {
  ChatRequest request;
  request.model = "gpt-test";
  request.messages = {
      {ChatRole::system, "Be brief.", {}, {}, {}},
      {ChatRole::user, "Deploy it", {}, {}, "alice"},
      {ChatRole::assistant, std::nullopt, {{"call_1", "skill_view", R"({"name":"deploy"})"}}, {}, {}},
      {ChatRole::tool, "---\nname: deploy\n---\nSteps", {}, "call_1", {}},
  };
  request.tools = {{"skill_view", "Read a skill",
                    R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"}};
  return request;
}

TEST(ChatRoleName, NamesEveryRole) {
  EXPECT_STREQ(chat_role_name(ChatRole::system), "system");
  EXPECT_STREQ(chat_role_name(ChatRole::user), "user");
  EXPECT_STREQ(chat_role_name(ChatRole::assistant), "assistant");
  EXPECT_STREQ(chat_role_name(ChatRole::tool), "tool");
}

TEST(ChatRequestJson, WritesOpenAisShape) {
  const std::string text = chat_request_json(sample_request(), false);
  // Keys in the documented order: model, messages, tools.
  EXPECT_TRUE(text.starts_with(R"({"model":"gpt-test","messages":[{"role":"system","content":"Be brief."})")) << text;
  const json body = json::parse(text);
  EXPECT_EQ(body["messages"][1], json::parse(R"({"role":"user","content":"Deploy it","name":"alice"})"));
  EXPECT_EQ(body["messages"][2], json::parse(R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_1",
      "type":"function","function":{"name":"skill_view","arguments":"{\"name\":\"deploy\"}"}}]})"));
  EXPECT_EQ(body["messages"][3],
            json::parse(R"({"role":"tool","content":"---\nname: deploy\n---\nSteps","tool_call_id":"call_1"})"));
  EXPECT_EQ(body["tools"], json::parse(R"([{"type":"function","function":{"name":"skill_view",
      "description":"Read a skill","parameters":{"type":"object","properties":{"name":{"type":"string"}},
      "required":["name"]}}}])"));
  EXPECT_FALSE(body.contains("stream"));
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_FALSE(body.contains("temperature"));
  EXPECT_FALSE(body.contains("max_tokens"));
}

TEST(ChatRequestJson, StreamAddsTheUsageOption) {
  ChatRequest request = sample_request();
  request.temperature = 0.5;
  request.max_tokens = 256;
  const json body = json::parse(chat_request_json(request, true));
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"], json::parse(R"({"include_usage":true})"));
  EXPECT_EQ(body["temperature"], 0.5);
  EXPECT_EQ(body["max_tokens"], 256);
}

TEST(ChatRequestJson, LeavesOutToolsWhenThereAreNone) {
  ChatRequest request = sample_request();
  request.tools.clear();
  EXPECT_FALSE(json::parse(chat_request_json(request, false)).contains("tools"));
}

TEST(ChatRequestJson, NonFiniteTemperatureIsLeftOut) {
  ChatRequest request = sample_request();
  request.temperature = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(json::parse(chat_request_json(request, false)).contains("temperature"));
}

TEST(ChatRequestJson, InvalidUtf8IsReplacedNotDropped) {
  ChatRequest request = sample_request();
  request.messages[1].content = std::string("caf\xC3", 4) + "!";
  const json body = json::parse(chat_request_json(request, false));
  EXPECT_EQ(body["messages"][1]["content"], "caf\xEF\xBF\xBD!");
}

TEST(CheckChatRequest, RefusesBadToolSchemasByName) {
  EXPECT_TRUE(check_chat_request(sample_request()));
  for (const char* schema : {"[1, 2", "[]", "\"object\"", R"({"a":1,"a":2})"}) {
    ChatRequest request = sample_request();
    request.tools.push_back({"broken_tool", "", schema});
    auto checked = check_chat_request(request);
    ASSERT_FALSE(checked) << schema;
    EXPECT_EQ(checked.error().code, ErrorCode::invalid_argument);
    EXPECT_TRUE(contains(checked.error().message, "\"broken_tool\"")) << checked.error().message;
    // The body stays valid JSON whatever the schema: an empty object schema.
    const json body = json::parse(chat_request_json(request, false));
    EXPECT_EQ(body["tools"][1]["function"]["parameters"], json::parse(R"({"type":"object","properties":{}})"));
  }
  ChatRequest unnamed = sample_request();
  unnamed.tools.push_back({"", "", "{}"});
  EXPECT_FALSE(check_chat_request(unnamed));
  ChatRequest empty_schema = sample_request();
  empty_schema.tools.push_back({"no_parameters", "", ""});
  EXPECT_TRUE(check_chat_request(empty_schema));
}

TEST(ParseChatReply, ReadsContentToolCallsFinishAndUsage) {
  auto reply = parse_chat_reply(R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",
      "choices":[{"index":0,"message":{"role":"assistant","content":"Looking.","refusal":null,
        "tool_calls":[{"id":"call_9","type":"function","function":{"name":"skill_view",
          "arguments":"{\"name\":\"x\"}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],
      "usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14,
        "completion_tokens_details":{"reasoning_tokens":0}},"system_fingerprint":"fp"})");
  ASSERT_TRUE(reply) << reply.error().message;
  ChatReply expected;
  expected.message = {ChatRole::assistant, "Looking.", {{"call_9", "skill_view", R"({"name":"x"})"}}, {}, {}};
  expected.finish_reason = "tool_calls";
  expected.usage = {10, 4, 14};
  EXPECT_EQ(*reply, expected);
}

TEST(ParseChatReply, AbsentPartsAreEmpty) {
  auto reply = parse_chat_reply(R"({"choices":[{"message":{"role":"assistant"}}]})");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->message.content);
  EXPECT_TRUE(reply->message.tool_calls.empty());
  EXPECT_EQ(reply->finish_reason, "");
  EXPECT_EQ(reply->usage, ChatUsage{});
  // total_tokens missing: the sum.
  auto summed = parse_chat_reply(R"({"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":3,
      "completion_tokens":2}})");
  ASSERT_TRUE(summed);
  EXPECT_EQ(summed->usage.total_tokens, 5u);
}

TEST(ParseChatReply, ArgumentsAsAnObjectAreWrittenBackAsText) {
  auto reply = parse_chat_reply(R"({"choices":[{"message":{"content":null,"tool_calls":[{"id":"c",
      "function":{"name":"f","arguments":{"a":[1,2]}}}]},"finish_reason":"tool_calls"}]})");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.tool_calls[0].arguments, R"({"a":[1,2]})");
}

TEST(ParseChatReply, AnErrorBodyGivesItsMessage) {
  auto reply = parse_chat_reply(R"({"error":{"message":"Rate limit reached","type":"requests"}})");
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(reply.error().message, "Rate limit reached")) << reply.error().message;
}

struct BadReply {
  const char* body;
  const char* says;
};

TEST(ParseChatReply, RefusesMalformedAndMistypedReplies) {
  const BadReply cases[] = {
      {"", "not valid JSON"},
      {R"({"choices":[{"message":{"content":"cut)", "not valid JSON"},
      {R"({"choices":[]} trailing)", "not valid JSON"},
      {"[1,2]", "the reply is an array, expected an object"},
      {"{}", "no \"choices\""},
      {R"({"choices":{}})", "choices is an object, expected an array"},
      {R"({"choices":[]})", "\"choices\" are empty"},
      {R"({"choices":[7]})", "choices[0] is a number"},
      {R"({"choices":[{}]})", "choices[0] has no \"message\""},
      {R"({"choices":[{"message":"hi"}]})", "choices[0].message is a string"},
      {R"({"choices":[{"message":{"content":42}}]})", "choices[0].message.content is a number"},
      {R"({"choices":[{"message":{"role":1}}]})", "choices[0].message.role is a number"},
      {R"({"choices":[{"message":{"tool_calls":{}}}]})", "choices[0].message.tool_calls is an object"},
      {R"({"choices":[{"message":{"tool_calls":[{"id":"a"}]}}]})", "tool_calls[0] has no \"function\""},
      {R"({"choices":[{"message":{"tool_calls":[{"id":5,"function":{"name":"f"}}]}}]})",
       "tool_calls[0].id is a number"},
      {R"({"choices":[{"message":{"tool_calls":[{"function":{"name":""}}]}}]})", "function.name is empty"},
      {R"({"choices":[{"message":{"tool_calls":[{"function":{"arguments":"{}"}}]}}]})", "has no \"name\""},
      {R"({"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":3}}]}}]})",
       "function.arguments is a number"},
      {R"({"choices":[{"message":{"tool_calls":[{"type":"custom","function":{"name":"f"}}]}}]})",
       "only \"function\" tool calls"},
      {R"({"choices":[{"message":{},"finish_reason":1}]})", "choices[0].finish_reason is a number"},
      {R"({"choices":[{"message":{}}],"usage":[]})", "usage is an array"},
      {R"({"choices":[{"message":{}}],"usage":{"prompt_tokens":-1}})", "usage.prompt_tokens is a number"},
      {R"({"choices":[{"message":{}}],"usage":{"total_tokens":"9"}})", "usage.total_tokens is a string"},
      {R"({"choices":[{"message":{"content":"a","content":"b"}}]})", "duplicate member \"content\""},
      {"{\"choices\":[{\"message\":{\"content\":\"\xFF\"}}]}", "not valid UTF-8"},
  };
  for (const BadReply& bad : cases) {
    auto reply = parse_chat_reply(bad.body);
    ASSERT_FALSE(reply) << bad.body;
    EXPECT_EQ(reply.error().code, ErrorCode::parse_error) << bad.body;
    EXPECT_TRUE(contains(reply.error().message, bad.says)) << bad.body << " → " << reply.error().message;
  }
}

TEST(ParseChatReply, DeepNestingIsRefusedWithoutRecursing) {
  // Far deeper than any stack would survive if anything recursed per level.
  const std::string deep = R"({"choices":[{"message":{"content":"x"}}],"extra":)" + std::string(200000, '[') +
                           std::string(200000, ']') + "}";
  auto reply = test::finishes_within(std::chrono::seconds(60), "deep reply", [&] { return parse_chat_reply(deep); });
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::parse_error);
  EXPECT_TRUE(contains(reply.error().message, "nesting deeper than " + std::to_string(limits::k_chat_json_max_depth)))
      << reply.error().message;
  // limits::k_chat_json_max_depth itself is read.
  const std::string at_limit = R"({"choices":[{"message":{"content":"x"}}],"extra":)" +
                               std::string(limits::k_chat_json_max_depth - 1, '[') +
                               std::string(limits::k_chat_json_max_depth - 1, ']') + "}";
  EXPECT_TRUE(parse_chat_reply(at_limit));
}

TEST(ParseChatReply, HugeStringsAreReadWhole) {
  const std::string big(1024 * 1024, 'a');
  auto reply = parse_chat_reply(R"({"choices":[{"message":{"content":")" + big + R"("}}]})");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.content->size(), big.size());
}

TEST(ParseChatMessages, ReadsAnArrayOrAnObjectWithMessages) {
  const char* array = R"([{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}])";
  auto from_array = parse_chat_messages(array);
  ASSERT_TRUE(from_array) << from_array.error().message;
  ASSERT_EQ(from_array->size(), 2u);
  EXPECT_EQ((*from_array)[1], (ChatMessage{ChatRole::assistant, "hello", {}, {}, {}}));
  auto from_object = parse_chat_messages(std::string(R"({"model":"x","messages":)") + array + "}");
  ASSERT_TRUE(from_object) << from_object.error().message;
  EXPECT_EQ(*from_object, *from_array);
}

TEST(ParseChatMessages, ContentPartsAreConcatenatedWithPlaceholders) {
  auto messages = parse_chat_messages(R"([{"role":"user","content":[
      {"type":"text","text":"Look at "},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},
      {"type":"text","text":" and "},
      {"type":"input_audio","input_audio":{"data":"...","format":"wav"}},
      {"type":"file","file":{"file_id":"f"}},
      {"type":"video_clip"}]},
    {"role":"assistant","content":[{"type":"refusal","refusal":"No."}]}])");
  ASSERT_TRUE(messages) << messages.error().message;
  EXPECT_EQ((*messages)[0].content, "Look at [image] and [audio][file][video_clip]");
  EXPECT_EQ((*messages)[1].content, "No.");
}

TEST(ParseChatMessages, MapsUnknownAndLegacyRoles) {
  auto messages = parse_chat_messages(R"([
      {"role":"developer","content":"rules"},
      {"role":"critic","content":"odd"},
      {"role":"assistant","content":null,"function_call":{"name":"lookup","arguments":"{\"q\":1}"}},
      {"role":"function","name":"lookup","content":"42"}])");
  ASSERT_TRUE(messages) << messages.error().message;
  EXPECT_EQ((*messages)[0].role, ChatRole::system);
  EXPECT_EQ((*messages)[1].role, ChatRole::system);
  EXPECT_EQ((*messages)[2].tool_calls, (std::vector<ChatToolCall>{{"", "lookup", R"({"q":1})"}}));
  EXPECT_FALSE((*messages)[2].content);
  EXPECT_EQ((*messages)[3].role, ChatRole::tool);
  EXPECT_EQ((*messages)[3].name, "lookup");
  EXPECT_EQ((*messages)[3].content, "42");
}

TEST(ParseChatMessages, RoundTripsThroughChatMessagesJson) {
  const std::vector<ChatMessage> messages = sample_request().messages;
  const std::string text = chat_messages_json(messages);
  auto back = parse_chat_messages(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, messages);
  // And the text is the "messages" of a request.
  EXPECT_EQ(json::parse(text), json::parse(chat_request_json(sample_request(), false))["messages"]);
  // Special characters survive.
  const std::vector<ChatMessage> odd = {
      {ChatRole::user, std::string("quote \" backslash \\ nul ") + '\0' + " tab \t \xE2\x82\xAC", {}, {}, {}},
      {ChatRole::assistant, "", {{"id", "f", ""}, {"id2", "g", "not json at all"}}, {}, {}}};
  auto odd_back = parse_chat_messages(chat_messages_json(odd));
  ASSERT_TRUE(odd_back) << odd_back.error().message;
  EXPECT_EQ(*odd_back, odd);
}

TEST(ParseChatMessages, RefusesMistypedTranscripts) {
  const BadReply cases[] = {
      {"", "not valid JSON"},
      {R"([{"role":"user","content":"cut)", "not valid JSON"},
      {"42", "the transcript is a number"},
      {R"({"conversation":[]})", "object without \"messages\""},
      {R"({"messages":{}})", "messages is an object, expected an array"},
      {R"(["hi"])", "messages[0] is a string, expected an object"},
      {R"([{"content":"hi"}])", "messages[0] has no \"role\""},
      {R"([{"role":null}])", "messages[0] has no \"role\""},
      {R"([{"role":1}])", "messages[0].role is a number"},
      {R"([{"role":"user"},{"role":"user","content":{}}])", "messages[1].content is an object"},
      {R"([{"role":"user","content":[1]}])", "messages[0].content[0] is a number"},
      {R"([{"role":"user","content":[{"text":"x"}]}])", "messages[0].content[0] has no \"type\" string"},
      {R"([{"role":"user","content":[{"type":"text"}]}])", "has no \"text\" string"},
      {R"([{"role":"user","content":[{"type":"Not An Identifier"}]}])", "not a content part type"},
      {R"([{"role":"tool","tool_call_id":7}])", "messages[0].tool_call_id is a number"},
      {R"([{"role":"user","name":[]}])", "messages[0].name is an array"},
      {R"([{"role":"user","role":"system"}])", "duplicate member \"role\""},
  };
  for (const BadReply& bad : cases) {
    auto messages = parse_chat_messages(bad.body);
    ASSERT_FALSE(messages) << bad.body;
    EXPECT_EQ(messages.error().code, ErrorCode::parse_error) << bad.body;
    EXPECT_TRUE(contains(messages.error().message, bad.says)) << bad.body << " → " << messages.error().message;
  }
}

TEST(ParseChatMessages, TheTranscriptLimitsHold) {
  // limits::k_transcript_max_messages: one more message is refused.
  std::string many = "[";
  for (std::size_t i = 0; i <= limits::k_transcript_max_messages; ++i) {
    many += i == 0 ? R"({"role":"user"})" : R"(,{"role":"user"})";
  }
  many += "]";
  auto too_many = parse_chat_messages(many);
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(too_many.error().message, std::to_string(limits::k_transcript_max_messages)));
  // Exactly the limit is read.
  many.erase(many.size() - std::string(R"(,{"role":"user"})").size() - 1);
  many += "]";
  auto at_limit = parse_chat_messages(many);
  ASSERT_TRUE(at_limit) << at_limit.error().message;
  EXPECT_EQ(at_limit->size(), limits::k_transcript_max_messages);

  // limits::k_transcript_max_bytes: refused before anything is parsed.
  const std::string huge =
      R"([{"role":"user","content":")" + std::string(limits::k_transcript_max_bytes, 'x') + R"("}])";
  auto too_big = parse_chat_messages(huge);
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(too_big.error().message, std::to_string(limits::k_transcript_max_bytes)));
}

TEST(ParseChatMessages, DeepNestingIsRefused) {
  const std::string deep = R"([{"role":"user","content":"x","meta":)" + std::string(100000, '{');
  auto messages =
      test::finishes_within(std::chrono::seconds(60), "deep transcript", [&] { return parse_chat_messages(deep); });
  ASSERT_FALSE(messages);
  EXPECT_EQ(messages.error().code, ErrorCode::parse_error);
}

TEST(ChatErrorMessage, FindsTheServersText) {
  EXPECT_EQ(chat_error_message(R"({"error":{"message":"Bad key","type":"auth"}})"), "Bad key");
  EXPECT_EQ(chat_error_message(R"({"error":"model not loaded"})"), "model not loaded");
  EXPECT_EQ(chat_error_message(R"({"object":"error","message":"vLLM says no","code":400})"), "vLLM says no");
  EXPECT_EQ(chat_error_message("<html>502 Bad Gateway</html>"), std::nullopt);
  EXPECT_EQ(chat_error_message(R"({"error":{"type":"x"}})"), std::nullopt);
  EXPECT_EQ(chat_error_message(R"({"error":{"message":""}})"), std::nullopt);
  EXPECT_EQ(chat_error_message(R"({"error":{"message":5}})"), std::nullopt);
  EXPECT_EQ(chat_error_message(R"([])"), std::nullopt);
  EXPECT_EQ(chat_error_message(""), std::nullopt);
}

TEST(ChatErrorMessage, CutsALongTextAtTheLimit) {
  const std::string long_text(limits::k_chat_error_text_max_chars + 500, 'e');
  const auto message = chat_error_message(R"({"error":{"message":")" + long_text + R"("}})");
  ASSERT_TRUE(message);
  EXPECT_EQ(*message, std::string(limits::k_chat_error_text_max_chars, 'e') + "...");
  // Cut on a character, not inside one.
  std::string euros;
  for (std::size_t i = 0; i < limits::k_chat_error_text_max_chars + 5; ++i) {
    euros += "\xE2\x82\xAC";
  }
  const auto cut = chat_error_message(R"({"error":")" + euros + R"("})");
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->size(), limits::k_chat_error_text_max_chars * 3 + 3);
}

} // namespace
TEST(AppendToLastUserMessage, TextContentGetsABlankLineAndTheNote) {
  const std::string body =
      R"({"model":"m","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],"stream":true})";
  auto out = append_to_last_user_message(body, "[note]");
  ASSERT_TRUE(out) << out.error().message;
  const json doc = json::parse(*out);
  EXPECT_EQ(doc["messages"][1]["content"], "Hi\n\n[note]");
  EXPECT_EQ(doc["messages"][0]["content"], "Be brief.");
  EXPECT_EQ(doc["stream"], true);
  // Keys keep their order: the body is the caller's, only longer.
  EXPECT_EQ(out->substr(0, 20), R"({"model":"m","messag)");
}

TEST(AppendToLastUserMessage, PartsGetOneMoreTextPart) {
  const std::string body =
      R"({"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"What?"}]}]})";
  auto out = append_to_last_user_message(body, "[note]");
  ASSERT_TRUE(out) << out.error().message;
  const json parts = json::parse(*out)["messages"][0]["content"];
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[2], (json{{"type", "text"}, {"text", "[note]"}}));
  EXPECT_EQ(parts[0]["type"], "image_url");
}

TEST(AppendToLastUserMessage, RefusesWhatIsNotANewUserTurn) {
  for (const char* body : {R"({"messages":[{"role":"user","content":"a"},{"role":"tool","content":"b"}]})",
                           R"({"messages":[]})", R"({"model":"m"})", R"([1,2])", "not json",
                           R"({"messages":[{"role":"user","content":7}]})",
                           R"({"messages":[{"role":"user","content":"a","content":"b"}]})"}) {
    auto out = append_to_last_user_message(body, "[note]");
    ASSERT_FALSE(out) << body;
    EXPECT_EQ(out.error().code, ErrorCode::parse_error) << body;
  }
}

} // namespace skillrt::core
