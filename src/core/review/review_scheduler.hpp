// Background reviews for a long-running host (`skillrt serve`: the turns API
// and the OpenAI-compatible proxy). It keeps the nudge counters of each
// conversation — keyed by user and conversation id, so nobody can move
// another user's counters — and, when a turn fires a review, runs it on its
// own thread with the conversation snapshot. One review in flight per
// conversation: a new live turn cancels the one running and waits for it up
// to two seconds (spec §2.17 rule 6). Bounded everywhere: conversations
// remembered, reviews running at once, reports kept.
#pragma once

#include <chrono>
#include <cstddef>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/cache/lru_cache.hpp"
#include "core/chat/chat_model.hpp"
#include "core/config/learning_config.hpp"
#include "core/context.hpp"
#include "core/review/nudge_counter.hpp"
#include "core/review/review_engine.hpp"

namespace skillrt::core {

// What a review needs to run: whose it is, and the conversation.
struct ReviewJob {
  Context ctx;  // the user's context (events pointer included)
  std::string conversation_id;
  std::vector<ChatMessage> messages;
  std::string conversation_model;
  ReviewPromptChoice prompt;
  WriteOrigin origin = WriteOrigin::review;  // curator: the curator's merge pass
};

// Runs one review (builds the model client, the session and the toolbox).
using ReviewRunner = std::function<ReviewReport(const ReviewJob& job, std::stop_token stop)>;

struct ReviewSchedulerOptions {
  std::size_t max_conversations = 10'000;  // nudge counters remembered (least recently used go)
  std::size_t max_running = 2;             // reviews at once; past it a due review is skipped
  std::size_t max_reports = 256;           // finished reports kept (oldest go)
  std::chrono::milliseconds cancel_wait{2000};
};

// One turn as reported.
struct ConversationTurn {
  std::string conversation_id;
  std::vector<ChatMessage> messages;  // the conversation so far
  std::string model;
  TurnReport report;
};

struct TurnAnswer {
  NudgeCounters counters;   // after the turn
  NudgeDecision decision;
  bool review_started = false;
  bool cancelled_running = false;  // a review of this conversation was cancelled by the turn
  std::string skipped;             // why a due review did not start ("" = it started or was not due)
};

struct FinishedReview {
  std::string user_id;
  std::string conversation_id;
  std::string finished_at;
  ReviewReport report;
};

class ReviewScheduler {
 public:
  ReviewScheduler(ReviewRunner runner, ReviewSchedulerOptions options = {});
  ~ReviewScheduler();  // cancels every running review and joins it
  ReviewScheduler(const ReviewScheduler&) = delete;
  ReviewScheduler& operator=(const ReviewScheduler&) = delete;

  // A finished turn: moves the conversation's counters and starts a review
  // when one is due and `reviews_enabled`.
  TurnAnswer report_turn(const Context& ctx, ConversationTurn turn, const NudgeIntervals& intervals,
                         bool reviews_enabled);

  // A live turn is starting: cancels this conversation's running review
  // (waits up to cancel_wait). True when one was running.
  bool turn_started(const Context& ctx, const std::string& conversation_id);

  // Starts a review now whatever the counters say (an on-demand review);
  // "" when started, else why not.
  std::string start_review(ReviewJob job);

  // Finished reviews of `user_id` ("" = single-user mode), newest last.
  std::vector<FinishedReview> finished(const std::string& user_id) const;

  // Reviews running now.
  std::size_t running() const;

  // Blocks until no review runs (tests, shutdown), at most `limit`.
  bool wait_idle(std::chrono::milliseconds limit) const;

 private:
  struct Running;
  static std::string key_of(const Context& ctx, const std::string& conversation_id);
  bool cancel_locked(std::unique_lock<std::mutex>& lock, const std::string& key);
  void reap_locked();

  ReviewRunner m_runner;
  ReviewSchedulerOptions m_options;
  LruCache<std::string, NudgeCounters> m_counters;
  mutable std::mutex m_mutex;
  mutable std::condition_variable m_changed;
  std::map<std::string, std::shared_ptr<Running>> m_running;
  std::vector<std::shared_ptr<Running>> m_finishing;  // done or cancelled, still to join
  std::deque<FinishedReview> m_finished;
};

}  // namespace skillrt::core
