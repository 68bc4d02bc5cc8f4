// The background review's agent loop (spec §2.17 rules 6-9): the conversation
// snapshot (or its digest) plus the review prompt go to a ChatModel with only
// the review's tools; each tool call is answered by the toolbox until the
// model stops calling tools, 16 iterations pass, the input-token budget runs
// out, the model fails, or the review is cancelled (a new live turn).
// Transport-free: the model and the toolbox are ports.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/chat/chat_model.hpp"
#include "core/review/review_prompt.hpp"

namespace skillrt::core {

// One tool call of the review, as the report lists it.
struct ReviewAction {
  std::string tool;         // "skill_manage", "skill_view", ...
  std::string summary;      // e.g. "patch 'deploy-checklist'" or the refusal
  bool success = false;
  bool wrote = false;       // a skill or memory write went live
  std::string proposal_id;  // a write staged as a proposal
  std::string proposal_state;
};

// The review's tools behind one port: the JSON of each tool's answer is the
// toolbox's business (the protocol layer gives them the CLI/MCP shapes).
class ReviewToolbox {
 public:
  virtual ~ReviewToolbox() = default;
  virtual std::vector<ChatTool> tools() const = 0;
  // Answers one call with the text the model receives, and fills `action`.
  // An unknown tool or malformed arguments are answered, never thrown.
  virtual std::string call(const ChatToolCall& call, ReviewAction& action) = 0;
};

struct ReviewInput {
  std::vector<ChatMessage> conversation;
  std::string conversation_model;  // the model the conversation ran on ("" = unknown)
  ReviewPromptChoice prompt;
};

struct ReviewOptions {
  std::string model;                          // the review's model
  std::uint32_t max_iterations = 16;
  std::uint64_t max_input_tokens = 600'000;
};

enum class ReviewEnding : unsigned char {
  finished,         // the model answered without calling a tool
  iteration_limit,  // max_iterations model calls
  budget_exhausted, // the next call would pass max_input_tokens
  cancelled,
  model_error,
};

const char* review_ending_name(ReviewEnding ending);  // "finished" | "iteration_limit" | ...

struct ReviewReport {
  ReviewEnding ending = ReviewEnding::finished;
  std::string error;       // model_error: what failed
  std::string final_text;  // the model's last words ("Nothing to save." …)
  std::vector<ReviewAction> actions;
  std::uint32_t iterations = 0;
  ChatUsage usage;         // summed over the review's calls
  bool digest = false;     // the conversation went as a digest
  std::size_t messages_sent = 0;  // of the snapshot, after the budget cut
};

ReviewReport run_review(ChatModel& model, ReviewToolbox& toolbox, const ReviewInput& input,
                        const ReviewOptions& options, std::stop_token stop);

// A one-paragraph human summary ("Skill 'x' patched; proposal p-… staged").
std::string review_summary(const ReviewReport& report);

}  // namespace skillrt::core
