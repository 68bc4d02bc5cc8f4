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

// One finished turn as an agent (or the proxy) reports it.
struct TurnReport {
  std::uint32_t tool_iterations = 0;  // model calls of the tool loop in this turn
  bool user_turn = true;              // the turn began with a user message
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
};

// Applies a turn to the counters and says whether a review is due. A review
// is due only for a turn that ended with a final response and was not
// interrupted; a counter that reaches its interval resets either way.
NudgeDecision apply_turn(NudgeCounters& counters, const NudgeIntervals& intervals, const TurnReport& turn);

}  // namespace skillrt::core
