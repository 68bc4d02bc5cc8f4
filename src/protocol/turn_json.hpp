// The turns API's JSON (POST /api/v1/turns, issue 2/6): an agent reports each
// finished turn — the conversation so far and how the turn went — and gets
// the conversation's nudge counters and whether a background review started.
//
//   {"conversation_id": "c-1",          optional: else a stable hash of the opening messages
//    "messages": [...],                 OpenAI chat messages, the conversation so far
//    "model": "gpt-x",                  optional: the conversation's model
//    "event": "finished" | "started",   optional, default finished; "started" only cancels
//                                       this conversation's running review
//    "tool_iterations": 3,              optional: else the assistant messages after the last user message
//    "skill_written": false,            optional: else whether skill_manage was called in the turn
//    "memory_written": false,           optional: else whether memory was called in the turn
//    "interrupted": false, "final_response": true, "user_turn": true}
#pragma once

#include <string>

#include "core/review/review_scheduler.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

struct TurnRequest {
  bool started = false;  // event "started"
  core::ConversationTurn turn;
};

// Parses and checks a turn report; the error text says which member is wrong.
Result<TurnRequest> parse_turn_request(std::string_view body);

// {success, conversation_id, counters: {iters_since_skill, turns_since_memory},
//  review: {due, skills, memory, started, skipped}, cancelled_running}
Json turn_answer_json(const std::string& conversation_id, const core::TurnAnswer& answer);

// {success, reviews: [{conversation_id, finished_at, ...review_report_json}]}
Json finished_reviews_json(const std::vector<core::FinishedReview>& reviews);

// A conversation id from its opening (the first system and user messages):
// "h-" + 24 hex of their SHA-256, so the same conversation maps to the same
// counters without the agent naming it.
std::string derived_conversation_id(const std::vector<core::ChatMessage>& messages);

}  // namespace skillrt::protocol
