// The conversation as the review sends it, the nudge counters and the prompt.
#include <gtest/gtest.h>

#include "core/review/nudge_counter.hpp"
#include "core/review/review_prompt.hpp"
#include "core/review/review_snapshot.hpp"

namespace skillrt::core {
namespace {

ChatMessage message(ChatRole role, std::string content) {
  ChatMessage m;
  m.role = role;
  m.content = std::move(content);
  return m;
}

ChatMessage calls(std::vector<ChatToolCall> tool_calls) {
  ChatMessage m;
  m.role = ChatRole::assistant;
  m.tool_calls = std::move(tool_calls);
  return m;
}

ChatMessage result(const std::string& id, std::string content) {
  ChatMessage m = message(ChatRole::tool, std::move(content));
  m.tool_call_id = id;
  return m;
}

TEST(ReviewSnapshot, WellFormedDropsOrphansAndUnansweredCalls) {
  std::vector<ChatMessage> messages{message(ChatRole::system, "sys"), message(ChatRole::user, "hi"),
                                    result("ghost", "no call made this"),
                                    calls({{"a", "skill_view", R"({"name":"x"})"}}), result("a", "{}"),
                                    calls({{"b", "terminal", "{}"}})};  // interrupted: never answered
  const auto out = well_formed(messages);
  ASSERT_EQ(out.size(), 4U);
  EXPECT_EQ(out[2].tool_calls.size(), 1U);
  EXPECT_EQ(out[3].tool_call_id, "a");
}

TEST(ReviewSnapshot, DigestKeepsTheTailVerbatimAndNeverStartsWithAToolResult) {
  std::vector<ChatMessage> messages{message(ChatRole::system, "sys")};
  for (int i = 0; i < 20; ++i) {
    messages.push_back(message(ChatRole::user, "question " + std::to_string(i)));
    messages.push_back(calls({{"c" + std::to_string(i), "skill_view", R"({"name":"s"})"}}));
    messages.push_back(result("c" + std::to_string(i), "answer " + std::to_string(i)));
  }
  const auto digested = digest_conversation(messages, 24);
  ASSERT_TRUE(digested);
  const auto& out = *digested;
  ASSERT_GE(out.size(), 3U);
  EXPECT_EQ(out[0].role, ChatRole::system);
  EXPECT_EQ(out[1].role, ChatRole::user);
  EXPECT_NE(out[1].content->find("Digest of the earlier part"), std::string::npos);
  EXPECT_NE(out[1].content->find("question 0"), std::string::npos);
  EXPECT_NE(out[2].role, ChatRole::tool);
  EXPECT_LE(out.size(), 2U + 24U);
  EXPECT_EQ(*out.back().content, "answer 19");
  EXPECT_EQ(well_formed(out).size(), out.size());  // already valid
  // Short conversations are sent as they are.
  const std::vector<ChatMessage> short_one{message(ChatRole::user, "one")};
  EXPECT_FALSE(digest_conversation(short_one, 24));
}

TEST(ReviewSnapshot, FitToBudgetDropsTheOldestTurnsFirst) {
  std::vector<ChatMessage> messages{message(ChatRole::system, "sys")};
  for (int i = 0; i < 50; ++i) {
    messages.push_back(message(ChatRole::user, std::string(400, 'a' + static_cast<char>(i % 26))));
  }
  const auto out = fit_to_budget(messages, 1000);
  EXPECT_LE(estimate_tokens(out), 1000U);
  EXPECT_EQ(out.front().role, ChatRole::system);
  EXPECT_EQ(*out.back().content, *messages.back().content);
  EXPECT_LT(out.size(), messages.size());
}

TEST(ReviewSnapshot, SkillsViewedAreTheSuccessfulViews) {
  const std::vector<ChatMessage> messages{
      calls({{"1", "skill_view", R"({"name":"deploy"})"}, {"2", "skill_view", R"({"name":"gone"})"},
             {"3", "skill_view", R"({"name":"deploy","file_path":"references/a.md"})"},
             {"4", "skill_view", "not json"}, {"5", "skills_list", "{}"}}),
      result("1", R"({"success":true,"name":"deploy"})"), result("2", R"({"success":false,"error":"not found"})"),
      result("3", R"({"success":true})"), result("4", "{}"), result("5", "{}")};
  const auto viewed = skills_viewed_in(messages);
  ASSERT_EQ(viewed.size(), 2U);
  EXPECT_EQ(viewed[0].name, "deploy");
  EXPECT_FALSE(viewed[0].file_path);
  EXPECT_EQ(viewed[1].file_path, "references/a.md");
}

TEST(NudgeCounter, FiresAtTheIntervalAndResetsOnWrites) {
  NudgeCounters counters;
  const NudgeIntervals intervals{10, 3};
  TurnReport turn;
  turn.tool_iterations = 4;
  EXPECT_FALSE(apply_turn(counters, intervals, turn).review_skills);  // 4
  EXPECT_FALSE(apply_turn(counters, intervals, turn).review_skills);  // 8
  const NudgeDecision third = apply_turn(counters, intervals, turn);  // 12 ≥ 10; memory turn 3 ≥ 3
  EXPECT_TRUE(third.review_skills);
  EXPECT_TRUE(third.review_memory);
  EXPECT_EQ(counters.iters_since_skill, 0U);
  EXPECT_EQ(counters.turns_since_memory, 0U);

  turn.skill_written = true;
  turn.memory_written = true;
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(apply_turn(counters, intervals, turn).fire());
  }
  // Interrupted: the counter moves, no review.
  turn = TurnReport{};
  turn.tool_iterations = 20;
  turn.interrupted = true;
  EXPECT_FALSE(apply_turn(counters, intervals, turn).fire());
  // Reported call by call (the proxy): nothing is checked until the turn ends.
  NudgeCounters calls;
  TurnReport call;
  call.tool_iterations = 1;
  call.turn_ended = false;
  for (int i = 0; i < 12; ++i) {
    EXPECT_FALSE(apply_turn(calls, intervals, call).fire());
    call.user_turn = false;
  }
  EXPECT_EQ(calls.iters_since_skill, 12U);
  call.turn_ended = true;
  EXPECT_TRUE(apply_turn(calls, intervals, call).review_skills);
  EXPECT_EQ(calls.iters_since_skill, 0U);
  // 0 disables.
  NudgeCounters off;
  turn = TurnReport{};
  turn.tool_iterations = 100;
  EXPECT_FALSE(apply_turn(off, NudgeIntervals{0, 0}, turn).fire());
}

TEST(ReviewPrompt, ChoosesThePartsAndAlwaysNamesTheTools) {
  const std::string skills = review_prompt({true, false, "", {}});
  EXPECT_NE(skills.find("Read before you write"), std::string::npos);
  EXPECT_NE(skills.find("Do not capture"), std::string::npos);
  EXPECT_EQ(skills.find("persona"), std::string::npos);
  const std::string memory = review_prompt({false, true, "", {}});
  EXPECT_NE(memory.find("persona"), std::string::npos);
  EXPECT_EQ(memory.find("Read before you write"), std::string::npos);
  const std::string both = review_prompt({true, true, "deploy scripts", {}});
  EXPECT_NE(both.find("Part 1"), std::string::npos);
  EXPECT_NE(both.find("Part 2"), std::string::npos);
  EXPECT_NE(both.find("Focus of this review, from the user: deploy scripts"), std::string::npos);
  // The curator's merge pass: its own prompt, naming every skill to consider.
  const std::string merge = review_prompt({true, false, "", {{"docker-disk-cleanup", "Free disk space"},
                                                            {"docker-image-cleanup", "Prune old images"}}});
  EXPECT_NE(merge.find("- docker-disk-cleanup: Free disk space\n"), std::string::npos);
  EXPECT_NE(merge.find("- docker-image-cleanup: Prune old images\n"), std::string::npos);
  EXPECT_NE(merge.find("No merge."), std::string::npos);
  EXPECT_EQ(merge.find("Do not capture"), std::string::npos);
  for (const std::string& text : {skills, memory, both, merge}) {
    EXPECT_NE(text.find("Other tools will be refused"), std::string::npos);
  }
}

}  // namespace
}  // namespace skillrt::core
