// The scheduler `skillrt serve` runs reviews with: counters per user and
// conversation, a review on its own thread when one is due, one in flight
// per conversation, cancellation by a new turn within two seconds.
#include <atomic>
#include <chrono>

#include "core/review/review_scheduler.hpp"
#include "review_fixture.hpp"
#include "support/wait_until.hpp"

namespace skillrt::core {
namespace {

using namespace std::chrono_literals;
using test::final_step;
using ReviewSchedulerTest = test::ReviewFixture;

ConversationTurn turn_of(const std::string& id, std::uint32_t iterations) {
  ConversationTurn turn;
  turn.conversation_id = id;
  turn.messages = test::ReviewFixture::conversation();
  turn.report.tool_iterations = iterations;
  return turn;
}

TEST_F(ReviewSchedulerTest, ADueTurnRunsAReviewInTheBackground) {
  upstream("[" + final_step("Nothing to save.") + "]");
  const llm::OpenAiChatOptions options = client_options();
  ReviewScheduler scheduler([&](const ReviewJob& job, std::stop_token stop) {
    llm::OpenAiChatClient model(options);
    ReviewSession session(job.ctx, m_cfg, {}, job.conversation_id);
    protocol::ReviewTools tools(session, false);
    ReviewInput input;
    input.conversation = job.messages;
    input.prompt = job.prompt;
    ReviewOptions review_options;
    review_options.model = "review-model";
    return run_review(model, tools, input, review_options, stop);
  });
  const NudgeIntervals intervals{10, 0};
  TurnAnswer answer = scheduler.report_turn(m_ctx, turn_of("c1", 6), intervals, true);
  EXPECT_FALSE(answer.decision.fire());
  EXPECT_EQ(answer.counters.iters_since_skill, 6U);
  answer = scheduler.report_turn(m_ctx, turn_of("c1", 6), intervals, true);
  EXPECT_TRUE(answer.decision.review_skills);
  EXPECT_TRUE(answer.review_started);
  ASSERT_TRUE(scheduler.wait_idle(20s));
  const auto finished = scheduler.finished("");
  ASSERT_EQ(finished.size(), 1U);
  EXPECT_EQ(finished[0].conversation_id, "c1");
  EXPECT_EQ(finished[0].report.ending, ReviewEnding::finished);
  EXPECT_EQ(finished[0].report.final_text, "Nothing to save.");
  // The review was given the conversation and the skill prompt.
  const auto sent = request(0)["body"]["messages"];
  EXPECT_EQ(sent[1]["content"], "Deploy the app, and remember to run the smoke tests first.");
  EXPECT_NE(sent.back()["content"].get<std::string>().find("Read before you write"), std::string::npos);
  // Disabled reviews count but never start.
  answer = scheduler.report_turn(m_ctx, turn_of("c2", 12), intervals, false);
  EXPECT_TRUE(answer.decision.fire());
  EXPECT_FALSE(answer.review_started);
  EXPECT_NE(answer.skipped.find("enabled is false"), std::string::npos);
}

TEST_F(ReviewSchedulerTest, ANewTurnCancelsTheRunningReviewWithinTwoSeconds) {
  std::atomic<int> started{0};
  std::atomic<bool> saw_stop{false};
  ReviewScheduler scheduler([&](const ReviewJob&, std::stop_token stop) {
    ++started;
    // A review that runs until it is told to stop, as a slow model would.
    while (!stop.stop_requested()) {
      std::this_thread::sleep_for(5ms);
    }
    saw_stop = true;
    ReviewReport report;
    report.ending = ReviewEnding::cancelled;
    return report;
  });
  EXPECT_TRUE(scheduler.start_review(ReviewJob{m_ctx, "c1", {}, "", {}}).empty());
  // One in flight per conversation.
  EXPECT_FALSE(scheduler.start_review(ReviewJob{m_ctx, "c1", {}, "", {}}).empty());
  ASSERT_TRUE(test::wait_until([&] { return started == 1; }, 5s));
  const auto before = std::chrono::steady_clock::now();
  EXPECT_TRUE(scheduler.turn_started(m_ctx, "c1"));
  EXPECT_LT(std::chrono::steady_clock::now() - before, 2s);
  EXPECT_TRUE(saw_stop);
  EXPECT_EQ(scheduler.running(), 0U);
  ASSERT_EQ(scheduler.finished("").size(), 1U);
  EXPECT_EQ(scheduler.finished("")[0].report.ending, ReviewEnding::cancelled);
  EXPECT_FALSE(scheduler.turn_started(m_ctx, "c1"));  // nothing runs now
}

TEST_F(ReviewSchedulerTest, UsersNeverShareCountersOrReports) {
  ReviewScheduler scheduler([](const ReviewJob& job, std::stop_token) {
    ReviewReport report;
    report.final_text = "for " + job.ctx.user_id.value_or("?");
    return report;
  });
  Context alice = m_ctx;
  alice.user_id = "alice";
  Context bob = m_ctx;
  bob.user_id = "bob";
  const NudgeIntervals intervals{10, 0};
  scheduler.report_turn(alice, turn_of("same-id", 9), intervals, true);
  // Bob guessing alice's conversation id moves only his own counters.
  TurnAnswer bobs = scheduler.report_turn(bob, turn_of("same-id", 2), intervals, true);
  EXPECT_EQ(bobs.counters.iters_since_skill, 2U);
  EXPECT_FALSE(bobs.decision.fire());
  TurnAnswer alices = scheduler.report_turn(alice, turn_of("same-id", 1), intervals, true);
  EXPECT_TRUE(alices.review_started);
  ASSERT_TRUE(scheduler.wait_idle(10s));
  ASSERT_EQ(scheduler.finished("alice").size(), 1U);
  EXPECT_EQ(scheduler.finished("alice")[0].report.final_text, "for alice");
  EXPECT_TRUE(scheduler.finished("bob").empty());
  // And bob cannot cancel alice's review.
  EXPECT_FALSE(scheduler.turn_started(bob, "same-id"));
}

TEST_F(ReviewSchedulerTest, AtCapacityADueReviewIsSkippedNotQueuedForever) {
  std::atomic<bool> release{false};
  ReviewSchedulerOptions options;
  options.max_running = 1;
  ReviewScheduler scheduler(
      [&](const ReviewJob&, std::stop_token stop) {
        while (!release && !stop.stop_requested()) {
          std::this_thread::sleep_for(5ms);
        }
        return ReviewReport{};
      },
      options);
  EXPECT_TRUE(scheduler.start_review(ReviewJob{m_ctx, "a", {}, "", {}}).empty());
  const std::string skipped = scheduler.start_review(ReviewJob{m_ctx, "b", {}, "", {}});
  EXPECT_NE(skipped.find("too many reviews"), std::string::npos);
  release = true;
  EXPECT_TRUE(scheduler.wait_idle(10s));
  EXPECT_TRUE(scheduler.start_review(ReviewJob{m_ctx, "b", {}, "", {}}).empty());
}

}  // namespace
}  // namespace skillrt::core
