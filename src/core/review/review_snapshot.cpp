#include "core/review/review_snapshot.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/util/utf8_prefix.hpp"

namespace skillrt::core {

namespace {

using Json = nlohmann::json;

constexpr std::size_t k_digest_line_chars = 240;
constexpr std::size_t k_digest_max_chars = 24'000;

std::string one_line(std::string_view text, std::size_t max_chars) {
  std::string out;
  out.reserve(std::min(text.size(), max_chars * 4));
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    out += c;
    if (out.size() > max_chars * 4) {
      break;
    }
  }
  std::string cut = utf8_prefix(out, max_chars);
  if (cut.size() < out.size()) {
    cut += "…";
  }
  return cut;
}

bool reports_failure(const std::optional<std::string>& content) {
  if (!content) {
    return false;
  }
  const Json doc = Json::parse(*content, nullptr, false);
  if (doc.is_object()) {
    const auto success = doc.find("success");
    return success != doc.end() && success->is_boolean() && !success->get<bool>();
  }
  return false;
}

}  // namespace

std::uint64_t estimate_tokens(const std::vector<ChatMessage>& messages) {
  std::uint64_t bytes = 0;
  for (const ChatMessage& message : messages) {
    bytes += 16;  // role and framing
    bytes += message.content ? message.content->size() : 0;
    for (const ChatToolCall& call : message.tool_calls) {
      bytes += call.id.size() + call.name.size() + call.arguments.size() + 16;
    }
  }
  return bytes / 4 + 1;
}

std::vector<ChatMessage> well_formed(std::vector<ChatMessage> messages) {
  // Which call ids are answered, and which tool results have their call.
  std::set<std::string> answered;
  std::set<std::string> called;
  for (const ChatMessage& message : messages) {
    if (message.role == ChatRole::tool && message.tool_call_id) {
      answered.insert(*message.tool_call_id);
    }
  }
  std::vector<ChatMessage> out;
  out.reserve(messages.size());
  for (ChatMessage& message : messages) {
    if (message.role == ChatRole::assistant && !message.tool_calls.empty()) {
      const bool complete = std::all_of(message.tool_calls.begin(), message.tool_calls.end(),
                                        [&](const ChatToolCall& call) { return answered.count(call.id) != 0; });
      if (!complete) {
        // An unanswered call (an interrupted turn): keep what was said, drop the calls.
        message.tool_calls.clear();
        if (!message.content || message.content->empty()) {
          continue;
        }
      } else {
        for (const ChatToolCall& call : message.tool_calls) {
          called.insert(call.id);
        }
      }
    } else if (message.role == ChatRole::tool) {
      if (!message.tool_call_id || called.count(*message.tool_call_id) == 0) {
        continue;  // its call was dropped or never there
      }
    }
    out.push_back(std::move(message));
  }
  return out;
}

std::optional<std::vector<ChatMessage>> digest_conversation(const std::vector<ChatMessage>& messages,
                                                            std::size_t verbatim) {
  std::vector<ChatMessage> system;
  std::vector<ChatMessage> rest;
  for (const ChatMessage& message : messages) {
    (message.role == ChatRole::system ? system : rest).push_back(message);
  }
  if (rest.size() <= verbatim) {
    return std::nullopt;
  }
  std::size_t cut = rest.size() - verbatim;
  while (cut < rest.size() && rest[cut].role == ChatRole::tool) {
    ++cut;  // a tool result must follow its call
  }
  std::string digest = "Digest of the earlier part of the conversation (older turns summarised):\n";
  for (std::size_t i = 0; i < cut && digest.size() < k_digest_max_chars; ++i) {
    const ChatMessage& message = rest[i];
    switch (message.role) {
      case ChatRole::user:
        digest += "- user: " + one_line(message.content.value_or(""), k_digest_line_chars) + "\n";
        break;
      case ChatRole::assistant: {
        if (message.content && !message.content->empty()) {
          digest += "- assistant: " + one_line(*message.content, k_digest_line_chars) + "\n";
        }
        for (const ChatToolCall& call : message.tool_calls) {
          digest += "- assistant called " + one_line(call.name, 64) + "(" + one_line(call.arguments, 120) + ")\n";
        }
        break;
      }
      case ChatRole::tool:
        digest += "  result: " + one_line(message.content.value_or(""), k_digest_line_chars / 2) + "\n";
        break;
      case ChatRole::system:
        break;
    }
  }
  if (digest.size() >= k_digest_max_chars) {
    digest += "- (older turns left out)\n";
  }
  std::vector<ChatMessage> out = std::move(system);
  ChatMessage summary;
  summary.role = ChatRole::user;
  summary.content = std::move(digest);
  out.push_back(std::move(summary));
  out.insert(out.end(), rest.begin() + static_cast<std::ptrdiff_t>(cut), rest.end());
  return out;
}

std::vector<ChatMessage> fit_to_budget(std::vector<ChatMessage> messages, std::uint64_t budget) {
  while (estimate_tokens(messages) > budget) {
    // The oldest message that is not a system message.
    auto oldest = std::find_if(messages.begin(), messages.end(),
                               [](const ChatMessage& message) { return message.role != ChatRole::system; });
    if (oldest == messages.end()) {
      break;
    }
    const std::size_t remaining =
        static_cast<std::size_t>(std::count_if(oldest, messages.end(), [](const ChatMessage& message) {
          return message.role != ChatRole::system;
        }));
    if (remaining <= 1) {
      break;
    }
    messages.erase(oldest);
  }
  return well_formed(std::move(messages));
}

std::vector<ViewedSkill> skills_viewed_in(const std::vector<ChatMessage>& messages) {
  std::map<std::string, const ChatMessage*> results;
  for (const ChatMessage& message : messages) {
    if (message.role == ChatRole::tool && message.tool_call_id) {
      results[*message.tool_call_id] = &message;
    }
  }
  std::vector<ViewedSkill> out;
  for (const ChatMessage& message : messages) {
    if (message.role != ChatRole::assistant) {
      continue;
    }
    for (const ChatToolCall& call : message.tool_calls) {
      if (call.name != "skill_view") {
        continue;
      }
      const auto result = results.find(call.id);
      if (result == results.end() || reports_failure(result->second->content)) {
        continue;
      }
      const Json args = Json::parse(call.arguments, nullptr, false);
      if (!args.is_object()) {
        continue;
      }
      const auto name = args.find("name");
      if (name == args.end() || !name->is_string()) {
        continue;
      }
      ViewedSkill viewed;
      viewed.name = name->get<std::string>();
      if (const auto file = args.find("file_path"); file != args.end() && file->is_string()) {
        viewed.file_path = file->get<std::string>();
      }
      out.push_back(std::move(viewed));
    }
  }
  return out;
}

}  // namespace skillrt::core
