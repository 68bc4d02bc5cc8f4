#include "core/review/nudge_counter.hpp"

namespace skillrt::core {

NudgeDecision apply_turn(NudgeCounters& counters, const NudgeIntervals& intervals, const TurnReport& turn) {
  NudgeDecision decision;
  // Memory: counted per user turn at its start, reset by a memory write.
  if (intervals.memory > 0 && turn.user_turn && turn.memory_available) {
    ++counters.turns_since_memory;
    if (counters.turns_since_memory >= static_cast<std::uint32_t>(intervals.memory)) {
      decision.review_memory = true;
      counters.turns_since_memory = 0;
    }
  }
  if (turn.memory_written) {
    counters.turns_since_memory = 0;
  }
  // Skills: counted per model iteration, reset by a skill write.
  if (intervals.skills > 0) {
    if (turn.skill_written) {
      counters.iters_since_skill = 0;
    } else {
      counters.iters_since_skill += turn.tool_iterations;
    }
    if (counters.iters_since_skill >= static_cast<std::uint32_t>(intervals.skills)) {
      decision.review_skills = true;
      counters.iters_since_skill = 0;
    }
  }
  if (turn.interrupted || !turn.has_final_response) {
    return NudgeDecision{};  // counters moved; no review for an unfinished turn
  }
  return decision;
}

}  // namespace skillrt::core
