#include "protocol/turn_json.hpp"

#include "core/chat/chat_wire.hpp"
#include "core/util/sha256.hpp"
#include "protocol/review_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::protocol {

namespace {

constexpr std::size_t k_max_conversation_id_chars = 200;

Result<std::optional<bool>> flag(const Json& doc, const char* key) {
  const auto found = doc.find(key);
  if (found == doc.end() || found->is_null()) {
    return std::optional<bool>{};
  }
  if (!found->is_boolean()) {
    return fail(ErrorCode::invalid_argument, std::string("'") + key + "' must be a boolean");
  }
  return std::optional<bool>(found->get<bool>());
}

// The messages after the last user message: the turn being reported.
std::size_t turn_start(const std::vector<core::ChatMessage>& messages) {
  for (std::size_t i = messages.size(); i > 0; --i) {
    if (messages[i - 1].role == core::ChatRole::user) {
      return i;
    }
  }
  return 0;
}

}  // namespace

std::string derived_conversation_id(const std::vector<core::ChatMessage>& messages) {
  std::string opening;
  bool system_seen = false;
  for (const core::ChatMessage& message : messages) {
    if (message.role == core::ChatRole::system && !system_seen) {
      opening += "system\n" + message.content.value_or("") + "\n";
      system_seen = true;
    } else if (message.role == core::ChatRole::user) {
      opening += "user\n" + message.content.value_or("") + "\n";
      break;
    }
  }
  return "h-" + core::sha256_hex(opening).substr(0, 24);
}

Result<TurnRequest> parse_turn_request(std::string_view body) {
  const Json doc = Json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return fail(ErrorCode::invalid_argument, "the body must be a JSON object");
  }
  TurnRequest out;
  if (const auto event = doc.find("event"); event != doc.end() && !event->is_null()) {
    if (!event->is_string() || (*event != "finished" && *event != "started")) {
      return fail(ErrorCode::invalid_argument, "'event' must be \"finished\" or \"started\"");
    }
    out.started = *event == "started";
  }
  const auto messages = doc.find("messages");
  if (messages != doc.end() && !messages->is_null()) {
    if (!messages->is_array()) {
      return fail(ErrorCode::invalid_argument, "'messages' must be an array of chat messages");
    }
    auto parsed = core::parse_chat_messages(messages->dump());
    if (!parsed) {
      return fail(ErrorCode::invalid_argument, "'messages': " + parsed.error().message);
    }
    out.turn.messages = std::move(*parsed);
  } else if (!out.started) {
    return fail(ErrorCode::invalid_argument, "'messages' is required: the conversation so far");
  }
  if (const auto id = doc.find("conversation_id"); id != doc.end() && !id->is_null()) {
    if (!id->is_string() || id->get_ref<const std::string&>().empty() ||
        id->get_ref<const std::string&>().size() > k_max_conversation_id_chars) {
      return fail(ErrorCode::invalid_argument, "'conversation_id' must be a non-empty string of at most " +
                                                   std::to_string(k_max_conversation_id_chars) + " characters");
    }
    out.turn.conversation_id = id->get<std::string>();
  } else if (!out.turn.messages.empty()) {
    out.turn.conversation_id = derived_conversation_id(out.turn.messages);
  } else {
    return fail(ErrorCode::invalid_argument, "'conversation_id' is required when no messages are given");
  }
  if (const auto model = doc.find("model"); model != doc.end() && !model->is_null()) {
    if (!model->is_string()) {
      return fail(ErrorCode::invalid_argument, "'model' must be a string");
    }
    out.turn.model = model->get<std::string>();
  }

  core::TurnReport& report = out.turn.report;
  const std::size_t start = turn_start(out.turn.messages);
  bool skill_called = false;
  bool memory_called = false;
  std::uint32_t iterations = 0;
  for (std::size_t i = start; i < out.turn.messages.size(); ++i) {
    const core::ChatMessage& message = out.turn.messages[i];
    if (message.role != core::ChatRole::assistant) {
      continue;
    }
    ++iterations;
    for (const core::ChatToolCall& call : message.tool_calls) {
      skill_called = skill_called || call.name == "skill_manage";
      memory_called = memory_called || call.name == "memory";
    }
  }
  report.tool_iterations = iterations;
  if (const auto given = doc.find("tool_iterations"); given != doc.end() && !given->is_null()) {
    if (!given->is_number_unsigned() || given->get<std::uint64_t>() > 100'000) {
      return fail(ErrorCode::invalid_argument, "'tool_iterations' must be an integer from 0 to 100000");
    }
    report.tool_iterations = static_cast<std::uint32_t>(given->get<std::uint64_t>());
  }
  SKILLRT_TRY_ASSIGN(std::optional<bool> skill_written, flag(doc, "skill_written"));
  SKILLRT_TRY_ASSIGN(std::optional<bool> memory_written, flag(doc, "memory_written"));
  SKILLRT_TRY_ASSIGN(std::optional<bool> interrupted, flag(doc, "interrupted"));
  SKILLRT_TRY_ASSIGN(std::optional<bool> final_response, flag(doc, "final_response"));
  SKILLRT_TRY_ASSIGN(std::optional<bool> user_turn, flag(doc, "user_turn"));
  report.skill_written = skill_written.value_or(skill_called);
  report.memory_written = memory_written.value_or(memory_called);
  report.interrupted = interrupted.value_or(false);
  report.has_final_response = final_response.value_or(!out.turn.messages.empty() &&
                                                      out.turn.messages.back().role == core::ChatRole::assistant &&
                                                      out.turn.messages.back().tool_calls.empty());
  report.user_turn = user_turn.value_or(start > 0);
  return out;
}

Json turn_answer_json(const std::string& conversation_id, const core::TurnAnswer& answer) {
  Json out = Json::object();
  out["success"] = true;
  out["conversation_id"] = conversation_id;
  out["counters"] = Json{{"iters_since_skill", answer.counters.iters_since_skill},
                         {"turns_since_memory", answer.counters.turns_since_memory}};
  Json review = Json::object();
  review["due"] = answer.decision.fire();
  review["skills"] = answer.decision.review_skills;
  review["memory"] = answer.decision.review_memory;
  review["started"] = answer.review_started;
  review["skipped"] = answer.skipped.empty() ? Json(nullptr) : Json(answer.skipped);
  out["review"] = std::move(review);
  out["cancelled_running"] = answer.cancelled_running;
  return out;
}

Json finished_reviews_json(const std::vector<core::FinishedReview>& reviews) {
  Json list = Json::array();
  for (const core::FinishedReview& review : reviews) {
    Json item = review_report_json(review.report);
    item["conversation_id"] = review.conversation_id;
    item["finished_at"] = review.finished_at;
    list.push_back(std::move(item));
  }
  Json out = Json::object();
  out["success"] = true;
  out["reviews"] = std::move(list);
  return out;
}

}  // namespace skillrt::protocol
