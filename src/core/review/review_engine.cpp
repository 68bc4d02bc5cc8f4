#include "core/review/review_engine.hpp"

#include "core/review/review_snapshot.hpp"

namespace skillrt::core {

const char* review_ending_name(ReviewEnding ending) {
  switch (ending) {
    case ReviewEnding::finished:
      return "finished";
    case ReviewEnding::iteration_limit:
      return "iteration_limit";
    case ReviewEnding::budget_exhausted:
      return "budget_exhausted";
    case ReviewEnding::cancelled:
      return "cancelled";
    case ReviewEnding::model_error:
      return "model_error";
  }
  return "finished";
}

ReviewReport run_review(ChatModel& model, ReviewToolbox& toolbox, const ReviewInput& input,
                        const ReviewOptions& options, std::stop_token stop) {
  ReviewReport report;
  std::vector<ChatMessage> snapshot = well_formed(input.conversation);
  if (!input.conversation_model.empty() && input.conversation_model != options.model) {
    // A different model gains nothing from the parent's prompt cache: send a digest.
    if (auto digest = digest_conversation(snapshot, k_digest_verbatim_messages)) {
      snapshot = std::move(*digest);
      report.digest = true;
    }
  }
  ChatMessage instruction;
  instruction.role = ChatRole::user;
  instruction.content = review_prompt(input.prompt);
  // The budget first serves the instruction and the tool list; the
  // conversation gets what is left, oldest turns dropped first.
  const std::vector<ChatTool> tools = toolbox.tools();
  std::uint64_t fixed = estimate_tokens({instruction});
  for (const ChatTool& tool : tools) {
    fixed += (tool.name.size() + tool.description.size() + tool.parameters_json.size()) / 4 + 8;
  }
  if (fixed >= options.max_input_tokens) {
    report.ending = ReviewEnding::budget_exhausted;
    report.error = "the input-token budget is smaller than the review's own instructions";
    return report;
  }
  snapshot = fit_to_budget(std::move(snapshot), (options.max_input_tokens - fixed) / 2);
  report.messages_sent = snapshot.size();

  ChatRequest request;
  request.model = options.model;
  request.messages = std::move(snapshot);
  request.messages.push_back(std::move(instruction));
  request.tools = tools;

  std::uint64_t next_prompt_estimate = estimate_tokens(request.messages) + fixed;
  while (true) {
    if (stop.stop_requested()) {
      report.ending = ReviewEnding::cancelled;
      return report;
    }
    if (report.iterations >= options.max_iterations) {
      report.ending = ReviewEnding::iteration_limit;
      return report;
    }
    if (report.usage.prompt_tokens + next_prompt_estimate > options.max_input_tokens) {
      report.ending = ReviewEnding::budget_exhausted;
      return report;
    }
    Result<ChatReply> reply = model.complete(request, stop);
    ++report.iterations;
    if (!reply) {
      if (stop.stop_requested()) {
        report.ending = ReviewEnding::cancelled;
        return report;
      }
      report.ending = ReviewEnding::model_error;
      report.error = reply.error().message;
      return report;
    }
    report.usage.prompt_tokens += reply->usage.prompt_tokens;
    report.usage.completion_tokens += reply->usage.completion_tokens;
    report.usage.total_tokens += reply->usage.total_tokens;
    ChatMessage said = reply->message;
    said.role = ChatRole::assistant;
    if (said.tool_calls.empty()) {
      report.final_text = said.content.value_or("");
      report.ending = ReviewEnding::finished;
      return report;
    }
    const std::uint64_t prompt_now =
        reply->usage.prompt_tokens != 0 ? reply->usage.prompt_tokens : estimate_tokens(request.messages) + fixed;
    std::uint64_t added = estimate_tokens({said});
    request.messages.push_back(said);
    for (const ChatToolCall& call : said.tool_calls) {
      if (stop.stop_requested()) {
        report.ending = ReviewEnding::cancelled;
        return report;
      }
      ReviewAction action;
      action.tool = call.name;
      ChatMessage answer;
      answer.role = ChatRole::tool;
      answer.tool_call_id = call.id;
      answer.content = toolbox.call(call, action);
      added += estimate_tokens({answer});
      request.messages.push_back(std::move(answer));
      report.actions.push_back(std::move(action));
    }
    next_prompt_estimate = prompt_now + added + reply->usage.completion_tokens;
  }
}

std::string review_summary(const ReviewReport& report) {
  std::string text;
  for (const ReviewAction& action : report.actions) {
    if (!action.wrote && action.proposal_id.empty()) {
      continue;
    }
    if (!text.empty()) {
      text += "; ";
    }
    text += action.summary;
    if (!action.proposal_id.empty()) {
      text += " (proposal " + action.proposal_id + ", " + action.proposal_state + ")";
    }
  }
  if (text.empty()) {
    text = report.final_text.empty() ? "nothing changed" : report.final_text;
  }
  return text;
}

}  // namespace skillrt::core
