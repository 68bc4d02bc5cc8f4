#include "core/chat/chat_stream.hpp"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/chat/chat_wire.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {
namespace {

using Json = nlohmann::json;

// Each tool call costs this much on top of its text, so a stream of empty
// deltas with ever new indexes is bounded too.
constexpr std::size_t k_tool_call_overhead = 64;

const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

// A count of the usage chunk into `out` (0 when absent); false when it is
// not a non-negative integer.
bool read_count(const Json& usage, const char* key, std::uint64_t& out) {
  const Json* value = member(usage, key);
  if (value == nullptr) {
    out = 0;
    return true;
  }
  if (value->is_number_unsigned()) {
    out = value->get<std::uint64_t>();
    return true;
  }
  if (value->is_number_integer() && value->get<std::int64_t>() >= 0) {
    out = static_cast<std::uint64_t>(value->get<std::int64_t>());
    return true;
  }
  return false;
}

} // namespace

ChatStreamAccumulator::ChatStreamAccumulator(std::size_t max_bytes) : m_max_bytes(max_bytes) {
  m_reply.message.role = ChatRole::assistant;
}

void ChatStreamAccumulator::set_error(ErrorCode code, std::string message) {
  if (!m_error) {
    m_error = Error{code, std::move(message), {}};
  }
}

bool ChatStreamAccumulator::account(std::size_t bytes) {
  if (bytes > m_max_bytes - m_assembled) {
    set_error(ErrorCode::limit_exceeded,
              "the streamed reply is larger than the limit of " + std::to_string(m_max_bytes) + " bytes");
    return false;
  }
  m_assembled += bytes;
  return true;
}

Result<void> ChatStreamAccumulator::feed(std::string_view bytes) {
  while (!bytes.empty() && !m_error && !m_done) {
    if (m_skip_lf) {
      m_skip_lf = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    const std::size_t end = bytes.find_first_of("\r\n");
    const std::string_view piece = bytes.substr(0, end);
    if (piece.size() > m_max_bytes - m_line.size()) {
      set_error(ErrorCode::limit_exceeded,
                "a line of the stream is longer than the limit of " + std::to_string(m_max_bytes) + " bytes");
      break;
    }
    m_line.append(piece);
    if (end == std::string_view::npos) {
      break;
    }
    m_skip_lf = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
    end_line();
  }
  if (m_error) {
    return tl::unexpected(*m_error);
  }
  return {};
}

void ChatStreamAccumulator::end_line() {
  std::string line = std::move(m_line);
  m_line.clear();
  if (line.empty()) {
    dispatch();
    return;
  }
  if (line.front() == ':') {
    return; // a comment (servers send ": keep-alive")
  }
  const std::size_t colon = line.find(':');
  const std::string_view field = std::string_view(line).substr(0, colon);
  if (field != "data") {
    return; // event, id, retry: nothing a chat answer needs
  }
  std::string_view value;
  if (colon != std::string::npos) {
    value = std::string_view(line).substr(colon + 1);
    if (!value.empty() && value.front() == ' ') {
      value.remove_prefix(1);
    }
  }
  const std::size_t joined = value.size() + (m_has_data ? 1 : 0);
  if (joined > m_max_bytes - m_data.size()) {
    set_error(ErrorCode::limit_exceeded,
              "an event of the stream is larger than the limit of " + std::to_string(m_max_bytes) + " bytes");
    return;
  }
  if (m_has_data) {
    m_data.push_back('\n');
  }
  m_data.append(value);
  m_has_data = true;
}

void ChatStreamAccumulator::dispatch() {
  if (!m_has_data) {
    return;
  }
  const std::string data = std::move(m_data);
  m_data.clear();
  m_has_data = false;
  const std::string_view text = trim_ascii_space(data);
  if (text == "[DONE]") {
    m_done = true;
    return;
  }
  ++m_chunks;
  apply_chunk(text);
}

void ChatStreamAccumulator::apply_chunk(std::string_view text) {
  const std::string where = "stream chunk " + std::to_string(m_chunks);
  if (auto strict = check_strict_json(text, limits::k_chat_json_max_depth); !strict) {
    set_error(ErrorCode::parse_error, where + " is not valid JSON: " + strict.error().message);
    return;
  }
  const Json chunk = Json::parse(text, nullptr, false);
  if (chunk.is_discarded() || !chunk.is_object()) {
    set_error(ErrorCode::parse_error, where + " is not a JSON object");
    return;
  }
  if (member(chunk, "error") != nullptr) {
    set_error(ErrorCode::io_error,
              "the server sent an error in the stream: " + chat_error_message(text).value_or("(no message)"));
    return;
  }
  auto wrong = [&](const std::string& path, const char* expected) {
    set_error(ErrorCode::parse_error, where + ": " + path + " is not " + expected);
  };
  if (const Json* choices = member(chunk, "choices"); choices != nullptr) {
    if (!choices->is_array()) {
      return wrong("choices", "an array");
    }
    for (const Json& choice : *choices) {
      if (!choice.is_object()) {
        return wrong("a choice", "an object");
      }
      // One answer is asked for (n = 1): only choice 0 is assembled.
      if (const Json* index = member(choice, "index"); index != nullptr) {
        if (!index->is_number_integer()) {
          return wrong("choices[].index", "an integer");
        }
        if (index->get<std::int64_t>() != 0) {
          continue;
        }
      }
      if (const Json* delta = member(choice, "delta"); delta != nullptr) {
        if (!delta->is_object()) {
          return wrong("delta", "an object");
        }
        if (const Json* content = member(*delta, "content"); content != nullptr) {
          if (!content->is_string()) {
            return wrong("delta.content", "a string");
          }
          const auto& piece = content->get_ref<const std::string&>();
          if (!account(piece.size())) {
            return;
          }
          if (!m_reply.message.content) {
            m_reply.message.content.emplace();
          }
          m_reply.message.content->append(piece);
        }
        if (const Json* calls = member(*delta, "tool_calls"); calls != nullptr) {
          if (!calls->is_array()) {
            return wrong("delta.tool_calls", "an array");
          }
          for (const Json& call : *calls) {
            if (!call.is_object()) {
              return wrong("delta.tool_calls[]", "an object");
            }
            const Json* index = member(call, "index");
            const Json* id = member(call, "id");
            const Json* function = member(call, "function");
            if (index != nullptr && !index->is_number_unsigned() &&
                !(index->is_number_integer() && index->get<std::int64_t>() >= 0)) {
              return wrong("delta.tool_calls[].index", "a non-negative integer");
            }
            if (id != nullptr && !id->is_string()) {
              return wrong("delta.tool_calls[].id", "a string");
            }
            if (function != nullptr && !function->is_object()) {
              return wrong("delta.tool_calls[].function", "an object");
            }
            const Json* name = function != nullptr ? member(*function, "name") : nullptr;
            const Json* arguments = function != nullptr ? member(*function, "arguments") : nullptr;
            if (name != nullptr && !name->is_string()) {
              return wrong("delta.tool_calls[].function.name", "a string");
            }
            if (arguments != nullptr && !arguments->is_string()) {
              return wrong("delta.tool_calls[].function.arguments", "a string");
            }
            auto& list = m_reply.message.tool_calls;
            // The call this delta continues: by its index; a server that
            // sends none continues the last call unless a new id starts one.
            std::size_t position = list.size();
            if (index != nullptr) {
              const auto wire = index->get<std::uint64_t>();
              position = static_cast<std::size_t>(std::find(m_call_index.begin(), m_call_index.end(), wire) -
                                                  m_call_index.begin());
            } else if (id != nullptr && !id->get_ref<const std::string&>().empty()) {
              const auto& wanted = id->get_ref<const std::string&>();
              position = static_cast<std::size_t>(
                  std::find_if(list.begin(), list.end(), [&](const ChatToolCall& c) { return c.id == wanted; }) -
                  list.begin());
            } else if (!list.empty()) {
              position = list.size() - 1;
            }
            if (position == list.size()) {
              if (!account(k_tool_call_overhead)) {
                return;
              }
              list.emplace_back();
              m_call_index.push_back(index != nullptr ? index->get<std::uint64_t>() : m_call_index.size());
            }
            ChatToolCall& target = list[position];
            if (id != nullptr && target.id.empty()) {
              const auto& value = id->get_ref<const std::string&>();
              if (!account(value.size())) {
                return;
              }
              target.id = value;
            }
            // The name comes whole in the first delta; a server that repeats
            // it changes nothing, one that streams it in pieces appends them.
            if (name != nullptr && name->get_ref<const std::string&>() != target.name) {
              const auto& value = name->get_ref<const std::string&>();
              if (!account(value.size())) {
                return;
              }
              target.name += value;
            }
            if (arguments != nullptr) {
              const auto& value = arguments->get_ref<const std::string&>();
              if (!account(value.size())) {
                return;
              }
              target.arguments += value;
            }
          }
        }
      }
      if (const Json* finish = member(choice, "finish_reason"); finish != nullptr) {
        if (!finish->is_string()) {
          return wrong("finish_reason", "a string");
        }
        m_reply.finish_reason = finish->get<std::string>();
      }
    }
  }
  if (const Json* usage = member(chunk, "usage"); usage != nullptr) {
    if (!usage->is_object()) {
      return wrong("usage", "an object");
    }
    ChatUsage counts;
    if (!read_count(*usage, "prompt_tokens", counts.prompt_tokens) ||
        !read_count(*usage, "completion_tokens", counts.completion_tokens) ||
        !read_count(*usage, "total_tokens", counts.total_tokens)) {
      return wrong("a usage count", "a non-negative integer");
    }
    if (member(*usage, "total_tokens") == nullptr) {
      counts.total_tokens = counts.prompt_tokens + counts.completion_tokens;
    }
    m_reply.usage = counts;
  }
}

Result<ChatReply> ChatStreamAccumulator::finish() {
  if (!m_error && !m_done) {
    if (!m_line.empty()) {
      end_line();
    }
    dispatch();
  }
  if (m_error) {
    return tl::unexpected(*m_error);
  }
  if (m_chunks == 0) {
    return fail(ErrorCode::parse_error, "the stream held no chat.completion.chunk");
  }
  if (!m_done && m_reply.finish_reason.empty()) {
    return fail(ErrorCode::parse_error, "the stream ended before its last chunk (no finish_reason and no [DONE])");
  }
  return m_reply;
}

} // namespace skillrt::core
