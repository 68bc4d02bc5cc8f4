// ChatStreamAccumulator on OpenAI's streamed answers: the same reply however
// the bytes are cut, every SSE line ending, tool calls assembled from their
// deltas, and hostile streams (bad chunks, error chunks, endless lines,
// truncation) ending in an Error rather than unbounded memory or a crash.
#include "core/chat/chat_stream.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Chunks the way api.openai.com writes them (include_usage on): role first,
// content in pieces, each tool call's id and name, then its arguments cut
// mid-token, the finish reason, the usage chunk with no choices.
const std::vector<std::string> k_openai_chunks = {
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"content":"Let me "},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"content":"check. "},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"skill_view","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"na"}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"me\":\"dep"}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"skills_list","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"loy\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":33,"total_tokens":153,"completion_tokens_details":{"reasoning_tokens":0}}})",
};

std::string sse(const std::vector<std::string>& chunks, const std::string& eol = "\n", bool done = true) {
  std::string out;
  for (const std::string& chunk : chunks) {
    out += "data: " + chunk + eol + eol;
  }
  if (done) {
    out += "data: [DONE]" + eol + eol;
  }
  return out;
}

ChatReply expected_reply() {
  ChatReply reply;
  reply.message.role = ChatRole::assistant;
  reply.message.content = "Let me check. ";
  reply.message.tool_calls = {{"call_a", "skill_view", R"({"name":"deploy"})"}, {"call_b", "skills_list", "{}"}};
  reply.finish_reason = "tool_calls";
  reply.usage = {120, 33, 153};
  return reply;
}

Result<ChatReply> feed_in_pieces(const std::string& body, const std::vector<std::size_t>& cuts,
                                 std::size_t max_bytes = limits::k_chat_reply_max_bytes) {
  ChatStreamAccumulator stream(max_bytes);
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    if (auto fed = stream.feed(std::string_view(body).substr(at, cut - at)); !fed) {
      return tl::unexpected(fed.error());
    }
    at = cut;
  }
  if (auto fed = stream.feed(std::string_view(body).substr(at)); !fed) {
    return tl::unexpected(fed.error());
  }
  return stream.finish();
}

TEST(ChatStream, AssemblesOpenAisStream) {
  ChatStreamAccumulator stream;
  ASSERT_TRUE(stream.feed(sse(k_openai_chunks)));
  EXPECT_TRUE(stream.done());
  EXPECT_TRUE(stream.has_tool_calls());
  auto reply = stream.finish();
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, expected_reply());
}

// A short stream with every kind of delta (content, a tool call's start and
// its arguments in two pieces, the finish reason, the usage), so that
// cutting at every byte stays cheap: each cut reads the whole stream again.
const std::vector<std::string> k_short_chunks = {
    R"({"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\":1}"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3}})",
};

TEST(ChatStream, EveryCutGivesTheSameReply) {
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    // Two pieces, cut at every byte (between "\r" and "\n" too).
    ChatReply short_reply;
    short_reply.message = {ChatRole::assistant, "Hi", {{"c", "f", R"({"a":1})"}}, {}, {}};
    short_reply.finish_reason = "tool_calls";
    short_reply.usage = {3, 0, 3};
    const std::string stream = sse(k_short_chunks, eol);
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
      auto reply = feed_in_pieces(stream, {cut});
      ASSERT_TRUE(reply) << "cut at " << cut << ": " << reply.error().message;
      ASSERT_EQ(*reply, short_reply) << "cut at " << cut;
    }
    // The full stream one byte at a time.
    const std::string body = sse(k_openai_chunks, eol);
    std::vector<std::size_t> every_byte;
    for (std::size_t i = 1; i < body.size(); ++i) {
      every_byte.push_back(i);
    }
    auto byte_by_byte = feed_in_pieces(body, every_byte);
    ASSERT_TRUE(byte_by_byte) << byte_by_byte.error().message;
    EXPECT_EQ(*byte_by_byte, expected_reply());
  }
}

TEST(ChatStream, RandomPiecesGiveTheSameReply) {
  const std::string body = sse(k_openai_chunks, "\r\n");
  std::mt19937 random(20261204);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0;;) {
      at += 1 + random() % 40;
      if (at >= body.size()) {
        break;
      }
      cuts.push_back(at);
    }
    auto reply = feed_in_pieces(body, cuts);
    ASSERT_TRUE(reply) << reply.error().message;
    ASSERT_EQ(*reply, expected_reply());
  }
}

TEST(ChatStream, SkipsCommentsAndOtherFieldsAndJoinsDataLines) {
  const std::string body = ": keep-alive\n\n"
                           "event: message\nid: 7\nretry: 1000\n"
                           "data:{\"choices\":[{\"index\":0,\n"
                           "data: \"delta\":{\"content\":\"two lines\"}}]}\n\n"
                           ": another comment\n"
                           "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                           "data: [DONE]\n\n";
  auto reply = feed_in_pieces(body, {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.content, "two lines");
  EXPECT_EQ(reply->finish_reason, "stop");
  EXPECT_TRUE(reply->message.tool_calls.empty());
  EXPECT_EQ(reply->usage, ChatUsage{});
}

TEST(ChatStream, KnowsAboutToolCallsFromTheFirstDelta) {
  const std::string body = sse(k_openai_chunks);
  const std::size_t first_call = body.find("call_a");
  ChatStreamAccumulator stream;
  ASSERT_TRUE(stream.feed(body.substr(0, first_call)));
  EXPECT_FALSE(stream.has_tool_calls());
  const std::size_t event_end = body.find("\n\n", first_call);
  ASSERT_TRUE(stream.feed(body.substr(first_call, event_end + 2 - first_call)));
  EXPECT_TRUE(stream.has_tool_calls());
  EXPECT_EQ(stream.reply().message.tool_calls[0].name, "skill_view");
  EXPECT_FALSE(stream.done());
}

TEST(ChatStream, IgnoresBytesAfterDone) {
  ChatStreamAccumulator stream;
  ASSERT_TRUE(stream.feed(sse(k_openai_chunks) + "data: {not json\n\ngarbage"));
  auto reply = stream.finish();
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, expected_reply());
}

TEST(ChatStream, ReadsALastEventWithoutItsBlankLine) {
  std::string body = sse(k_openai_chunks, "\n", false) + "data: [DONE]";
  auto reply = feed_in_pieces(body, {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, expected_reply());
}

TEST(ChatStream, AssemblesToolCallsWithoutIndexes) {
  // Some OpenAI-compatible servers leave out "index": a new id starts a call,
  // deltas without one continue the last.
  const std::vector<std::string> chunks = {
      R"({"choices":[{"delta":{"tool_calls":[{"id":"c1","function":{"name":"a","arguments":"{\"x\""}}]}}]})",
      R"({"choices":[{"delta":{"tool_calls":[{"function":{"arguments":":1}"}}]}}]})",
      R"({"choices":[{"delta":{"tool_calls":[{"id":"c2","function":{"name":"b","arguments":"{}"}}]}}]})",
      R"({"choices":[{"delta":{"tool_calls":[{"id":"c2","function":{"name":"b"}}]},"finish_reason":"tool_calls"}]})",
  };
  auto reply = feed_in_pieces(sse(chunks), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.tool_calls, (std::vector<ChatToolCall>{{"c1", "a", R"({"x":1})"}, {"c2", "b", "{}"}}));
  EXPECT_FALSE(reply->message.content);
}

TEST(ChatStream, OnlyTheFirstChoiceIsAssembled) {
  const std::vector<std::string> chunks = {
      R"({"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}]})",
      R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"length"}]})",
  };
  auto reply = feed_in_pieces(sse(chunks), {});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->message.content, "mine");
  EXPECT_EQ(reply->finish_reason, "stop");
}

TEST(ChatStream, AnErrorChunkCarriesTheServersMessage) {
  ChatStreamAccumulator stream;
  auto fed = stream.feed(sse({k_openai_chunks[0], R"({"error":{"message":"The server had an error while processing)"
                                                  R"( your request.","type":"server_error"}})"},
                             "\n", false));
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.error().code, ErrorCode::io_error);
  EXPECT_TRUE(contains(fed.error().message, "The server had an error")) << fed.error().message;
  // Sticky: later bytes and finish() give the same error.
  auto again = stream.feed(sse({k_openai_chunks[1]}));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().message, fed.error().message);
  auto finished = stream.finish();
  ASSERT_FALSE(finished);
  EXPECT_EQ(finished.error().message, fed.error().message);
}

struct BadChunk {
  const char* chunk;
  const char* says;
};

TEST(ChatStream, RefusesMalformedAndMistypedChunks) {
  const BadChunk cases[] = {
      {R"({"choices":[{"delta":{"content":"cut)", "stream chunk 2 is not valid JSON"},
      {R"([1,2])", "stream chunk 2 is not a JSON object"},
      {R"({"choices":{}})", "choices is not an array"},
      {R"({"choices":[3]})", "a choice is not an object"},
      {R"({"choices":[{"index":"0"}]})", "choices[].index is not an integer"},
      {R"({"choices":[{"delta":[]}]})", "delta is not an object"},
      {R"({"choices":[{"delta":{"content":5}}]})", "delta.content is not a string"},
      {R"({"choices":[{"delta":{"tool_calls":{}}}]})", "delta.tool_calls is not an array"},
      {R"({"choices":[{"delta":{"tool_calls":[1]}}]})", "delta.tool_calls[] is not an object"},
      {R"({"choices":[{"delta":{"tool_calls":[{"index":-1}]}}]})", "index is not a non-negative integer"},
      {R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":3}]}}]})", "tool_calls[].id is not a string"},
      {R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":"f"}]}}]})", "function is not an object"},
      {R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":1}}]}}]})", "name is not a string"},
      {R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{}}}]}}]})",
       "arguments is not a string"},
      {R"({"choices":[{"finish_reason":7}]})", "finish_reason is not a string"},
      {R"({"choices":[],"usage":"lots"})", "usage is not an object"},
      {R"({"choices":[],"usage":{"prompt_tokens":1.5}})", "usage count is not a non-negative integer"},
      {R"({"choices":[],"choices":[]})", "duplicate member \"choices\""},
  };
  for (const BadChunk& bad : cases) {
    ChatStreamAccumulator stream;
    auto fed = stream.feed(sse({k_openai_chunks[0], bad.chunk}));
    ASSERT_FALSE(fed) << bad.chunk;
    EXPECT_EQ(fed.error().code, ErrorCode::parse_error) << bad.chunk;
    EXPECT_TRUE(contains(fed.error().message, bad.says)) << bad.chunk << " → " << fed.error().message;
  }
}

TEST(ChatStream, DeepNestingInAChunkIsRefused) {
  ChatStreamAccumulator stream;
  auto fed = stream.feed("data: " + std::string(100000, '[') + "\n\n");
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.error().code, ErrorCode::parse_error);
  EXPECT_TRUE(contains(fed.error().message, "nesting deeper than")) << fed.error().message;
}

TEST(ChatStream, TruncatedStreamsAreErrors) {
  // Cut before the finish reason and [DONE]: a broken connection.
  auto cut = feed_in_pieces(sse({k_openai_chunks[0], k_openai_chunks[1], k_openai_chunks[3]}, "\n", false), {});
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().code, ErrorCode::parse_error);
  EXPECT_TRUE(contains(cut.error().message, "ended before its last chunk")) << cut.error().message;
  // Cut inside a chunk's JSON.
  const std::string body = sse(k_openai_chunks);
  auto mid = feed_in_pieces(body.substr(0, body.find("call_a")), {});
  ASSERT_FALSE(mid);
  EXPECT_EQ(mid.error().code, ErrorCode::parse_error);
  // Nothing at all, or only comments.
  for (const char* empty : {"", ": ping\n\n", "\n\n\n"}) {
    auto nothing = feed_in_pieces(empty, {});
    ASSERT_FALSE(nothing) << empty;
    EXPECT_TRUE(contains(nothing.error().message, "no chat.completion.chunk")) << nothing.error().message;
  }
  // A finish reason without [DONE] is a complete answer (servers that omit it).
  auto no_done = feed_in_pieces(sse({k_openai_chunks[1], k_openai_chunks[9]}, "\n", false), {});
  ASSERT_TRUE(no_done) << no_done.error().message;
  EXPECT_EQ(no_done->finish_reason, "tool_calls");
}

TEST(ChatStream, TheAssembledSizeIsBounded) {
  // Content past the cap.
  std::vector<std::string> chunks;
  for (int i = 0; i < 100; ++i) {
    chunks.push_back(R"({"choices":[{"delta":{"content":")" + std::string(100, 'x') + R"("}}]})");
  }
  auto too_much = feed_in_pieces(sse(chunks), {}, 5000);
  ASSERT_FALSE(too_much);
  EXPECT_EQ(too_much.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(too_much.error().message, "5000 bytes")) << too_much.error().message;

  // Tool-call arguments past the cap.
  std::vector<std::string> calls = {
      R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}}]})"};
  for (int i = 0; i < 100; ++i) {
    calls.push_back(R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":")" +
                    std::string(100, 'a') + R"("}}]}}]})");
  }
  auto long_arguments = feed_in_pieces(sse(calls), {}, 5000);
  ASSERT_FALSE(long_arguments);
  EXPECT_EQ(long_arguments.error().code, ErrorCode::limit_exceeded);

  // Ever new empty tool calls: each costs something, so they are bounded too.
  std::vector<std::string> empties;
  for (int i = 0; i < 1000; ++i) {
    empties.push_back(R"({"choices":[{"delta":{"tool_calls":[{"index":)" + std::to_string(i * 1000003) + "}]}}]}");
  }
  auto many = feed_in_pieces(sse(empties), {}, 5000);
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().code, ErrorCode::limit_exceeded);
}

TEST(ChatStream, TheDefaultCapIsTheReplyLimit) {
  // limits::k_chat_reply_max_bytes: a line one byte longer is refused before
  // anything is parsed.
  ChatStreamAccumulator stream;
  ASSERT_TRUE(stream.feed(std::string(limits::k_chat_reply_max_bytes, 'd')));
  auto fed = stream.feed("d");
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(fed.error().message, std::to_string(limits::k_chat_reply_max_bytes)));
}

TEST(ChatStream, AnEndlessLineIsBounded) {
  ChatStreamAccumulator stream(4096);
  const std::string piece(1000, 'd');
  Result<void> fed = stream.feed("data: ");
  for (int i = 0; i < 10 && fed; ++i) {
    fed = stream.feed(piece);
  }
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.error().code, ErrorCode::limit_exceeded);
  EXPECT_TRUE(contains(fed.error().message, "4096 bytes")) << fed.error().message;
  // So is an event of many data lines.
  ChatStreamAccumulator lines(4096);
  Result<void> many = {};
  for (int i = 0; i < 100 && many; ++i) {
    many = lines.feed("data: " + std::string(100, 'x') + "\n");
  }
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().code, ErrorCode::limit_exceeded);
}

} // namespace
} // namespace skillrt::core
