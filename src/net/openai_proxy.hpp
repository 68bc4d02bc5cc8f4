// The OpenAI-compatible proxy of `skillrt serve --upstream URL`: on the same
// port as /mcp, `POST /v1/chat/completions` (streamed or not) and
// `GET /v1/models` go to the upstream with its own API key, and the answer
// comes back byte for byte (status, content type, Retry-After and the body;
// a stream chunk by chunk as it arrives). The caller is authenticated with
// its skillrt token like /mcp. Besides relaying, the proxy watches each chat
// completion (the request's messages, whether the reply called tools) and
// tells an observer, which the composition root (apps/skillrt) turns into
// nudge-counter reports: an agent that can only change its base URL gets the
// background review without a line of code. This header includes no Boost;
// the relay itself is proxy_relay.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/chat/chat_model.hpp"
#include "core/limits.hpp"
#include "mcp/server.hpp"
#include "skillrt/result.hpp"

namespace skillrt::net {

// The header an agent may send to name its conversation; without it the
// observer derives an id from the opening messages.
inline constexpr std::string_view k_conversation_id_header = "X-Skillrt-Conversation-Id";

// One proxied chat completion as the proxy read it from the request body.
struct ProxyCall {
  mcp::Caller caller;
  std::string conversation_id;  // the X-Skillrt-Conversation-Id header, "" when absent
  std::vector<core::ChatMessage> messages;
  std::string model;            // "" when absent
  bool stream = false;          // the request asked for "stream": true
  bool user_turn = false;       // the last message has role user: the call begins a turn
};

// How the exchange ended.
struct ProxyOutcome {
  unsigned status = 0;     // the upstream's status; 0 when it never answered (502/504 sent)
  bool complete = false;   // the whole answer reached the caller
  // The assistant's reply of a complete 2xx answer (parse_chat_reply, or the
  // stream assembled by ChatStreamAccumulator); nullopt otherwise.
  std::optional<core::ChatReply> reply;
  std::string reply_error;  // why `reply` is missing for a complete 2xx answer
};

// What the composition root learns. turn_started and finished run on the
// proxy's worker pool, never on an I/O thread, and may block; calls of one
// conversation may overlap (the next request can arrive before the last
// one's finished has run).
struct ProxyObserver {
  // A request that begins a user turn, as soon as its body is read. The
  // upstream request is already on its way; the answer is relayed to the
  // caller only after this returns (so a review this cancels is stopped
  // before the agent acts on the reply), so keep it to what must come first.
  std::function<void(const ProxyCall& call)> turn_started;
  // Optional, cheap and non-blocking (it runs on an I/O thread): whether
  // turn_started could have anything to do now (for `skillrt serve`: a
  // review is running). When it says no, nothing is read before the answer
  // is relayed and turn_started is not called: the request is read with the
  // reply, after it. Unset: always yes.
  std::function<bool()> turn_started_needed;
  // Every chat completion whose request body was a readable chat request,
  // once its answer is complete or failed.
  std::function<void(ProxyCall call, ProxyOutcome outcome)> finished;
  // Optional: a chat completion's body may be replaced before it goes
  // upstream (for `skillrt serve`: the skills the user's message triggers,
  // added for the users who opted in). `rewrite_needed` is cheap and runs on
  // an I/O thread; only when it says yes does the request wait for `rewrite`,
  // which runs on the worker pool and returns nullopt to send the body as it
  // came. Everything after (the observer, the relay) sees the new body.
  std::function<bool(const mcp::Caller& caller)> rewrite_needed;
  std::function<std::optional<std::string>(const mcp::Caller& caller, std::string_view body)> rewrite;
};

struct ProxyOptions {
  // The upstream's base URL, e.g. http://127.0.0.1:9000/v1: a request to
  // /v1/<rest> goes to <base>/<rest>. Only http:// (see proxy_rules.hpp).
  std::string upstream_url;
  // Sent upstream as `Authorization: Bearer <key>` ("" = no Authorization);
  // the caller's skillrt token never leaves the proxy.
  std::string api_key;
  std::uint32_t connect_timeout_ms = 10'000;
  // From the request written to the upstream's response head (a model may
  // think for minutes), then the longest silence inside the body.
  std::uint32_t response_timeout_ms = 600'000;
  std::uint32_t idle_timeout_ms = 300'000;
  // Idle keep-alive connections to the upstream kept for reuse.
  std::size_t max_idle_connections = 32;
  // A request body past this gets 413 (a conversation with images is larger
  // than an MCP message, so this is not HttpOptions::max_body_bytes).
  std::size_t max_request_bytes = limits::k_transcript_max_bytes;
  // A non-streamed reply past this is still relayed whole, but not observed.
  std::size_t max_observed_reply_bytes = limits::k_chat_reply_max_bytes;
  // The observer's worker pool. More than the scheduler's concurrent reviews
  // (2): turn_started may wait up to 2 s for a review to stop, and the other
  // conversations' answers must not wait behind it.
  unsigned observer_threads = 4;
  ProxyObserver observer;
};

// What the observer reads from a chat-completions request body: its
// messages (core::parse_chat_messages, with its limits), model and stream
// flag. Errors: parse_error / limit_exceeded naming what is wrong.
Result<ProxyCall> read_proxy_call(std::string_view body);

// An error body in OpenAI's shape, so OpenAI clients surface the message:
// {"error":{"message":...,"type":...,"param":null,"code":...}} (code null when empty).
std::string openai_error_body(std::string_view message, std::string_view type, std::string_view code = {});

}  // namespace skillrt::net
