// A streamed chat-completions answer put back together. With "stream":true a
// server answers with Server-Sent Events, one `chat.completion.chunk` per
// event: content in pieces, each tool call as deltas keyed by its index (the
// name first, the arguments' JSON text cut anywhere), the finish reason, a
// last chunk with the usage, then `data: [DONE]`. An OpenAI-compatible proxy
// passes those bytes through untouched and feeds a copy here to learn what the
// answer was (did it call tools?), so the accumulator takes the body in
// whatever pieces the network delivers and holds a bounded amount of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/chat/chat_model.hpp"
#include "core/limits.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

class ChatStreamAccumulator {
public:
  // `max_bytes` bounds the assembled text (content, tool-call ids, names and
  // arguments) and any one SSE line or event.
  explicit ChatStreamAccumulator(std::size_t max_bytes = limits::k_chat_reply_max_bytes);

  // Reads the next bytes of the body, cut anywhere (inside a line, between
  // "\r" and "\n"). Lines end with "\n", "\r\n" or "\r"; comments and fields
  // other than `data` are skipped; bytes after `data: [DONE]` are ignored.
  // Errors (and every later call returns the same one): limit_exceeded past
  // max_bytes; parse_error for a chunk that is not JSON or has a field of the
  // wrong type (named with the chunk's number); io_error for an error chunk
  // ({"error":{"message":...}}), carrying the server's text.
  Result<void> feed(std::string_view bytes);

  // Whether `data: [DONE]` arrived.
  bool done() const { return m_done; }
  // Whether the answer so far calls a tool: known from its first tool-call delta.
  bool has_tool_calls() const { return !m_reply.message.tool_calls.empty(); }
  // What was assembled so far (role assistant).
  const ChatReply& reply() const { return m_reply; }

  // The body has ended: a last line or event left without its line end is
  // read, then the whole reply is returned. Errors: the error feed returned;
  // parse_error when no chunk arrived or the stream stopped before both
  // [DONE] and a finish_reason (a cut connection).
  Result<ChatReply> finish();

private:
  void end_line();
  void dispatch();
  void apply_chunk(std::string_view text);
  bool account(std::size_t bytes);
  void set_error(ErrorCode code, std::string message);

  std::size_t m_max_bytes;
  std::size_t m_assembled = 0; // bytes counted against m_max_bytes
  std::string m_line;          // the current line, without its end
  std::string m_data;          // the current event's data lines, joined by "\n"
  bool m_has_data = false;
  bool m_skip_lf = false; // the last byte was "\r": a "\n" right after it ends nothing
  bool m_done = false;
  std::uint64_t m_chunks = 0;
  std::vector<std::uint64_t> m_call_index; // the wire index of each of m_reply's tool calls
  ChatReply m_reply;
  std::optional<Error> m_error;
};

} // namespace skillrt::core
