#include "core/review/nudge_counter.hpp"

namespace skillrt::core {

NudgeDecision apply_turn(NudgeCounters& counters, const NudgeIntervals& intervals, const TurnReport& turn) {
  // Memory: counted at the start of each user turn, reset by a memory write.
  if (intervals.memory > 0 && turn.user_turn && turn.memory_available) {
    ++counters.turns_since_memory;
    if (counters.turns_since_memory >= static_cast<std::uint32_t>(intervals.memory)) {
      counters.memory_due = true;
      counters.turns_since_memory = 0;
    }
  }
  if (turn.memory_written) {
    counters.turns_since_memory = 0;
  }
  // Skills: counted per model call, reset by a skill write.
  if (intervals.skills > 0) {
    if (turn.skill_written) {
      counters.iters_since_skill = 0;
    } else {
      counters.iters_since_skill += turn.tool_iterations;
    }
  }
  if (!turn.turn_ended) {
    return NudgeDecision{};
  }
  NudgeDecision decision;
  decision.review_memory = counters.memory_due;
  counters.memory_due = false;
  if (intervals.skills > 0 && counters.iters_since_skill >= static_cast<std::uint32_t>(intervals.skills)) {
    decision.review_skills = true;
    counters.iters_since_skill = 0;
  }
  if (turn.interrupted || !turn.has_final_response) {
    return NudgeDecision{};  // an unfinished turn starts no review; its due flags are spent
  }
  return decision;
}

}  // namespace skillrt::core
