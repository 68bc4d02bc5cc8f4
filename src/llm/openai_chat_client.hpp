// The ChatModel port over HTTP: a client of any OpenAI-compatible
// chat-completions endpoint (OpenAI, a llama.cpp or vLLM server, a proxy),
// over libcurl. One POST per attempt, non-streaming; what a long-running
// agent loop needs from it is that it never hangs and never hammers: every
// attempt has a connect and a total timeout, the caller's stop_token aborts a
// transfer or a wait between attempts at once, a server that says "wait"
// (429/503 with Retry-After) is waited for up to a cap, other server and
// connection failures are retried with exponential backoff, and the reply
// is read into a bounded buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <string>

#include "core/chat/chat_model.hpp"
#include "core/limits.hpp"
#include "skillrt/result.hpp"

namespace skillrt::llm {

struct OpenAiChatOptions {
  // The API root, e.g. "http://127.0.0.1:8080/v1" or "https://api.openai.com/v1":
  // the client POSTs to base_url + "/chat/completions". http and https only.
  std::string base_url;
  // Sent as "Authorization: Bearer <api_key>" when not empty; never in a message.
  std::string api_key;
  std::uint32_t connect_timeout_ms = 10000;
  // One attempt, from connecting to the last byte of the reply.
  std::uint32_t request_timeout_ms = 120000;
  // Attempts in all (the first one included); 0 counts as 1.
  unsigned max_attempts = 4;
  // The longest wait between attempts, whether the server asked for it
  // (Retry-After) or backoff chose it. A server that asks for more fails the
  // call at once.
  std::uint32_t max_retry_wait_ms = 60000;
  // A reply body larger than this fails with limit_exceeded.
  std::size_t max_response_bytes = limits::k_chat_reply_max_bytes;
  // The User-Agent header; "skillrt" when empty.
  std::string user_agent;
};

class OpenAiChatClient final : public core::ChatModel {
public:
  explicit OpenAiChatClient(OpenAiChatOptions options);

  // The assistant's reply to `request`. Retried: 429 and 503 after the
  // server's Retry-After (delta-seconds or an HTTP-date; backoff when it sent
  // none), other 5xx and failures to connect or to get an answer after
  // backoff (500 ms, 1 s, 2 s, ... up to max_retry_wait_ms). Not retried: a
  // total timeout of an attempt (io_error "timed out"), other statuses
  // (400/422 invalid_argument, 401/403 refused, 404 not_found, 413
  // limit_exceeded, others io_error; each message names the status and the
  // server's error text), redirects (never followed), a reply past
  // max_response_bytes (limit_exceeded), a malformed reply (parse_error).
  // A stop request ends the call within about 100 ms (io_error "cancelled").
  // Errors are values: nothing throws. Each call has its own curl handles,
  // so several threads may call it at once.
  Result<core::ChatReply> complete(const core::ChatRequest& request, std::stop_token stop) override;

private:
  OpenAiChatOptions m_options;
};

} // namespace skillrt::llm
