// The nudge counters of one conversation (spec §2.17 rules 1-5): tool-calling
// iterations since the last skill write, user turns since the last memory
// write. A finished turn is reported; the counters say whether a review fires.
#pragma once

#include <cstdint>

namespace skillrt::core {

struct NudgeIntervals {
  int skills = 10;  // skills.creation_nudge_interval; 0 = off
  int memory = 10;  // memory.nudge_interval; 0 = off
};

// A turn as an agent reports it (the turns API: the whole finished turn), or
// one model call of it (the proxy: turn_ended only on the call that answered
// without tool calls).
struct TurnReport {
  std::uint32_t tool_iterations = 0;  // model calls of the tool loop reported now
  bool user_turn = true;              // this report begins a turn with a user message
  bool turn_ended = true;             // the turn is over: the counters are checked
  bool skill_written = false;         // skill_manage was called (and accepted)
  bool memory_written = false;        // the memory tool was called
  bool interrupted = false;
  bool has_final_response = true;
  bool memory_available = true;       // the memory tool and a store exist for this agent
};

struct NudgeDecision {
  bool review_skills = false;
  bool review_memory = false;
  bool fire() const { return review_skills || review_memory; }
};

struct NudgeCounters {
  std::uint32_t iters_since_skill = 0;
  std::uint32_t turns_since_memory = 0;
  bool memory_due = false;  // set when a turn starts at the memory interval, used when it ends
};

// Applies a report to the counters and says whether a review is due. The
// memory counter moves when a user turn starts (reaching its interval marks
// the memory review due for that turn); the skill counter adds the model
// calls and resets on a skill write. When the turn ends, a skill counter at
// its interval resets and marks the skill review: either review is due only
// when the turn ended with a final response and was not interrupted (else
// both are dropped, as Hermes drops them).
NudgeDecision apply_turn(NudgeCounters& counters, const NudgeIntervals& intervals, const TurnReport& turn);

}  // namespace skillrt::core
