// OpenAI's chat-completions wire format for the ChatModel port: the request
// body, the reply body, a transcript of messages and a server's error body.
// The HTTP adapter (src/llm) and the review engine read and write JSON only
// through these, so there is one mapping of the shapes and one set of checks
// on what a server or a caller hands us (sizes, nesting, duplicate names,
// types), and a hostile body is an Error naming what is wrong, never a crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/chat/chat_model.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Checks what chat_request_json cannot say: every tool has a non-empty name
// and its parameters_json is empty (no parameters) or a JSON object (strict
// JSON, nesting bounded by limits::k_chat_json_max_depth). Errors:
// invalid_argument naming the tool.
Result<void> check_chat_request(const ChatRequest& request);

// The POST body of /chat/completions: model, messages, tools (as
// {"type":"function","function":{name,description,parameters}}, left out when
// there are none), temperature and max_tokens when set; with `stream` also
// "stream":true and "stream_options":{"include_usage":true}. A parameters_json
// that check_chat_request refuses is sent as an empty object schema, so the
// body is always valid JSON; bytes that are not UTF-8 are sent as U+FFFD.
std::string chat_request_json(const ChatRequest& request, bool stream);

// The assistant's reply of a non-streaming answer: choices[0].message,
// choices[0].finish_reason and usage. Errors: parse_error for malformed JSON,
// no choices, or a field of the wrong type (the message names its path);
// io_error carrying the server's text when the body is an error body
// ({"error":{"message":...}}).
Result<ChatReply> parse_chat_reply(std::string_view body);

// A transcript: a JSON array of messages, or an object with a "messages"
// array. Content may be a string, null or an array of parts (see
// ChatMessage); roles other than the four (e.g. "developer") are read as
// system, the legacy "function" role as tool, and an assistant's legacy
// "function_call" as one tool call. Errors: limit_exceeded past
// limits::k_transcript_max_bytes or k_transcript_max_messages; parse_error
// for malformed JSON or wrong types, naming the message's index.
Result<std::vector<ChatMessage>> parse_chat_messages(std::string_view json);

// `messages` as the JSON array parse_chat_messages reads back unchanged (the
// same shape as the "messages" of chat_request_json).
std::string chat_messages_json(const std::vector<ChatMessage>& messages);

// `body` (a chat-completions request) with `note` added to the end of its
// last message, which must be the user's: a string content gets a blank line
// and the note, an array of parts one more text part. Everything else keeps
// its order (the body is parsed and written again, so spacing and number
// spelling may change). Errors: parse_error when the body is not a request
// object with such a last message, or is not strict JSON; limit_exceeded past
// limits::k_transcript_max_bytes.
Result<std::string> append_to_last_user_message(std::string_view body, std::string_view note);

// The server's own error text in an error body: error.message, an "error"
// string, or a top-level "message" (some OpenAI-compatible servers); cut to
// limits::k_chat_error_text_max_chars characters, invalid UTF-8 replaced.
// nullopt when the body is not JSON or carries none.
std::optional<std::string> chat_error_message(std::string_view body);

} // namespace skillrt::core
