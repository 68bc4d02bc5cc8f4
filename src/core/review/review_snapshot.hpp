// The conversation as the review's model receives it (spec §2.17 rule 7): the
// whole snapshot when the review runs on the conversation's own model, a
// digest (older turns summarised, the last 24 messages verbatim) when it runs
// on a different one; either way cut to the input-token budget and made
// well-formed for the chat-completions contract (no tool result without the
// call it answers, no call left unanswered).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/chat/chat_model.hpp"

namespace skillrt::core {

inline constexpr std::size_t k_digest_verbatim_messages = 24;

// A rough token count of messages (4 bytes a token, plus a little per
// message): the budget is checked before a call, when no server has counted.
std::uint64_t estimate_tokens(const std::vector<ChatMessage>& messages);

// Drops tool results whose call is missing and assistant tool calls left
// without every result, so the snapshot is a valid request.
std::vector<ChatMessage> well_formed(std::vector<ChatMessage> messages);

// The digest: system messages kept, older turns summarised into one user
// message, the last `verbatim` messages as they are (the cut moved forward
// past tool results, so none is orphaned). nullopt when the conversation is
// short enough to go as it is.
std::optional<std::vector<ChatMessage>> digest_conversation(const std::vector<ChatMessage>& messages,
                                                            std::size_t verbatim);

// Drops the oldest non-system messages until the estimate fits `budget`
// tokens (keeping at least the last user message when it alone fits).
std::vector<ChatMessage> fit_to_budget(std::vector<ChatMessage> messages, std::uint64_t budget);

// A skill (and optionally one of its files) the conversation viewed.
struct ViewedSkill {
  std::string name;
  std::optional<std::string> file_path;
};

// Every successful skill_view call of the conversation (a call whose result
// message is there and does not report a failure).
std::vector<ViewedSkill> skills_viewed_in(const std::vector<ChatMessage>& messages);

}  // namespace skillrt::core
