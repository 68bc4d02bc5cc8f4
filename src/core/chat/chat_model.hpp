// The chat-completions port: what the review engine (core/review) asks of a
// language model, in the shape of OpenAI's chat-completions wire format, with
// no transport. The adapter that speaks HTTP to an OpenAI-compatible endpoint
// lives in src/llm/; tests hand the engine the same adapter pointed at a
// scripted upstream, never a mock of this interface.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

// One function call the model asked for. `arguments` is the JSON text exactly
// as the model produced it: it may be malformed, and the caller decides.
struct ChatToolCall {
  std::string id;
  std::string name;
  std::string arguments;

  friend bool operator==(const ChatToolCall&, const ChatToolCall&) = default;
};

enum class ChatRole : unsigned char { system, user, assistant, tool };

// "system" | "user" | "assistant" | "tool".
const char* chat_role_name(ChatRole role);

struct ChatMessage {
  ChatRole role = ChatRole::user;
  // nullopt = JSON null (an assistant message that only calls tools). An
  // array of content parts is read as the concatenation of its text parts,
  // other parts (images, audio, files) as a placeholder such as "[image]".
  std::optional<std::string> content;
  std::vector<ChatToolCall> tool_calls;    // assistant only
  std::optional<std::string> tool_call_id; // tool only: the call it answers
  std::optional<std::string> name;         // optional participant / tool name

  friend bool operator==(const ChatMessage&, const ChatMessage&) = default;
};

// A function tool offered to the model: `parameters_json` is its JSON Schema
// (a JSON object; check_chat_request in chat_wire.hpp says when it is not).
struct ChatTool {
  std::string name;
  std::string description;
  std::string parameters_json;

  friend bool operator==(const ChatTool&, const ChatTool&) = default;
};

struct ChatRequest {
  std::string model;
  std::vector<ChatMessage> messages;
  std::vector<ChatTool> tools;
  std::optional<double> temperature;
  std::optional<std::uint32_t> max_tokens;

  friend bool operator==(const ChatRequest&, const ChatRequest&) = default;
};

struct ChatUsage {
  std::uint64_t prompt_tokens = 0;
  std::uint64_t completion_tokens = 0;
  std::uint64_t total_tokens = 0;

  friend bool operator==(const ChatUsage&, const ChatUsage&) = default;
};

struct ChatReply {
  ChatMessage message;       // role assistant
  std::string finish_reason; // "stop", "tool_calls", "length", ... ("" when absent)
  ChatUsage usage;           // zeros when the server sent none

  friend bool operator==(const ChatReply&, const ChatReply&) = default;
};

// A model behind the chat-completions contract. complete() returns the
// assistant's reply or an Error whose message says what failed (timeout,
// HTTP status and the server's error text, malformed reply); it returns
// promptly (well under 2 s) once `stop` is requested.
class ChatModel {
public:
  virtual ~ChatModel() = default;
  virtual Result<ChatReply> complete(const ChatRequest& request, std::stop_token stop) = 0;
};

} // namespace skillrt::core
