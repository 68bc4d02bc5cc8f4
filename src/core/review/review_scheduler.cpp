#include "core/review/review_scheduler.hpp"

#include <condition_variable>

#include "core/events/event_bus.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core {

struct ReviewScheduler::Running {
  std::jthread thread;
  bool done = false;  // under the scheduler's mutex
};

ReviewScheduler::ReviewScheduler(ReviewRunner runner, ReviewSchedulerOptions options)
    : m_runner(std::move(runner)), m_options(options), m_counters(options.max_conversations) {}

ReviewScheduler::~ReviewScheduler() {
  std::vector<std::shared_ptr<Running>> all;
  {
    std::lock_guard lock(m_mutex);
    for (auto& [key, running] : m_running) {
      all.push_back(running);
    }
    all.insert(all.end(), m_finishing.begin(), m_finishing.end());
    m_running.clear();
    m_finishing.clear();
  }
  for (auto& running : all) {
    running->thread.request_stop();
  }
  for (auto& running : all) {
    if (running->thread.joinable()) {
      running->thread.join();
    }
  }
}

std::string ReviewScheduler::key_of(const Context& ctx, const std::string& conversation_id) {
  // The user id grammar has no NUL: the pair cannot collide with another.
  return ctx.user_id.value_or("") + std::string(1, '\0') + conversation_id;
}

void ReviewScheduler::reap_locked() {
  for (auto it = m_finishing.begin(); it != m_finishing.end();) {
    if ((*it)->done && (*it)->thread.joinable()) {
      (*it)->thread.join();  // its body has returned: joining does not wait
      it = m_finishing.erase(it);
    } else if (!(*it)->thread.joinable()) {
      it = m_finishing.erase(it);
    } else {
      ++it;
    }
  }
}

bool ReviewScheduler::cancel_locked(std::unique_lock<std::mutex>& lock, const std::string& key) {
  const auto found = m_running.find(key);
  if (found == m_running.end()) {
    return false;
  }
  std::shared_ptr<Running> running = found->second;
  m_running.erase(found);
  running->thread.request_stop();
  m_changed.wait_for(lock, m_options.cancel_wait, [&] { return running->done; });
  m_finishing.push_back(std::move(running));
  reap_locked();
  return true;
}

bool ReviewScheduler::turn_started(const Context& ctx, const std::string& conversation_id) {
  std::unique_lock lock(m_mutex);
  return cancel_locked(lock, key_of(ctx, conversation_id));
}

std::string ReviewScheduler::start_review(ReviewJob job) {
  const std::string key = key_of(job.ctx, job.conversation_id);
  std::unique_lock lock(m_mutex);
  reap_locked();
  if (m_running.count(key) != 0) {
    return "a review of this conversation is already running";
  }
  if (m_running.size() >= m_options.max_running) {
    return "too many reviews are running (" + std::to_string(m_running.size()) + "); this one was skipped";
  }
  auto running = std::make_shared<Running>();
  std::weak_ptr<Running> self = running;
  running->thread = std::jthread([this, self, key, job = std::move(job)](std::stop_token stop) {
    ReviewReport report = m_runner(job, stop);
    // Tell the event push (outside our lock: a handler may call back in).
    if (job.ctx.user_id) {
      SkillEvent event;
      event.subject = EventSubject::review;
      event.kind = ChangeKind::created;
      event.layer = Layer::user;
      event.owner = *job.ctx.user_id;
      event.location = job.conversation_id;
      event.detail = review_ending_name(report.ending);
      publish_change(job.ctx, std::move(event));
    }
    std::lock_guard inner(m_mutex);
    FinishedReview finished;
    finished.user_id = job.ctx.user_id.value_or("");
    finished.conversation_id = job.conversation_id;
    finished.finished_at = utc_now_iso8601();
    finished.report = std::move(report);
    m_finished.push_back(std::move(finished));
    while (m_finished.size() > m_options.max_reports) {
      m_finished.pop_front();
    }
    if (auto me = self.lock()) {
      me->done = true;
      if (auto found = m_running.find(key); found != m_running.end() && found->second == me) {
        m_running.erase(found);
        m_finishing.push_back(me);
      }
    }
    m_changed.notify_all();
  });
  m_running.emplace(key, std::move(running));
  return {};
}

TurnAnswer ReviewScheduler::report_turn(const Context& ctx, ConversationTurn turn, const NudgeIntervals& intervals,
                                        bool reviews_enabled) {
  TurnAnswer answer;
  const std::string key = key_of(ctx, turn.conversation_id);
  {
    std::unique_lock lock(m_mutex);
    // The reported turn is newer than anything a running review has read.
    answer.cancelled_running = cancel_locked(lock, key);
    NudgeCounters counters = m_counters.get(key).value_or(NudgeCounters{});
    answer.decision = apply_turn(counters, intervals, turn.report);
    m_counters.put(key, counters);
    answer.counters = counters;
  }
  if (!answer.decision.fire()) {
    return answer;
  }
  if (!reviews_enabled) {
    answer.skipped = "auxiliary.background_review.enabled is false";
    return answer;
  }
  ReviewJob job;
  job.ctx = ctx;
  job.conversation_id = std::move(turn.conversation_id);
  job.messages = std::move(turn.messages);
  job.conversation_model = std::move(turn.model);
  job.prompt.skills = answer.decision.review_skills;
  job.prompt.memory = answer.decision.review_memory;
  answer.skipped = start_review(std::move(job));
  answer.review_started = answer.skipped.empty();
  return answer;
}

std::vector<FinishedReview> ReviewScheduler::finished(const std::string& user_id) const {
  std::lock_guard lock(m_mutex);
  std::vector<FinishedReview> out;
  for (const FinishedReview& review : m_finished) {
    if (review.user_id == user_id) {
      out.push_back(review);
    }
  }
  return out;
}

std::size_t ReviewScheduler::running() const {
  std::lock_guard lock(m_mutex);
  return m_running.size();
}

bool ReviewScheduler::wait_idle(std::chrono::milliseconds limit) const {
  std::unique_lock lock(m_mutex);
  return m_changed.wait_for(lock, limit, [&] { return m_running.empty(); });
}

}  // namespace skillrt::core
