#include "proxy_observer.hpp"

#include <memory>
#include <utility>

#include "protocol/turn_json.hpp"

namespace skillrt::app {
namespace {

core::Context context_of(const core::Context& base, const mcp::Caller& caller) {
  core::Context ctx = base;
  ctx.user_id = caller.user_id;
  ctx.org_id = caller.org_id;
  ctx.anonymous = caller.anonymous;
  return ctx;
}

}  // namespace

std::string proxy_conversation_id(const net::ProxyCall& call) {
  return call.conversation_id.empty() ? protocol::derived_conversation_id(call.messages) : call.conversation_id;
}

core::TurnReport proxy_turn_report(const net::ProxyCall& call, const core::ChatReply& reply) {
  core::TurnReport report;
  report.tool_iterations = 1;
  report.user_turn = call.user_turn;
  report.turn_ended = reply.message.tool_calls.empty();
  report.has_final_response = report.turn_ended;
  for (const core::ChatToolCall& tool_call : reply.message.tool_calls) {
    report.skill_written = report.skill_written || tool_call.name == "skill_manage";
    report.memory_written = report.memory_written || tool_call.name == "memory";
  }
  return report;
}

net::ProxyObserver make_proxy_observer(core::Context base, core::Config config, core::ReviewScheduler& scheduler) {
  // Shared by both callbacks (the observer is copied into the server).
  struct State {
    core::Context base;
    core::Config config;
    core::ReviewScheduler& scheduler;
  };
  auto state = std::make_shared<const State>(State{std::move(base), std::move(config), scheduler});

  net::ProxyObserver observer;
  // Only a running review can be cancelled: with none (nearly always), the
  // proxy does not hold any answer for turn_started. A review that a call's
  // report starts just after this said no is cancelled by the next report of
  // its conversation instead (report_turn cancels too).
  observer.turn_started_needed = [state] { return state->scheduler.running() > 0; };
  observer.turn_started = [state](const net::ProxyCall& call) {
    if (call.caller.anonymous || !call.caller.user_id) {
      return;
    }
    state->scheduler.turn_started(context_of(state->base, call.caller), proxy_conversation_id(call));
  };
  observer.finished = [state](net::ProxyCall call, net::ProxyOutcome outcome) {
    // Only a call the agent got a whole answer to moves the counters; a
    // failed or cut one is retried or abandoned by the agent.
    if (call.caller.anonymous || !call.caller.user_id || !outcome.complete || !outcome.reply) {
      return;
    }
    const core::Context ctx = context_of(state->base, call.caller);
    core::ConversationTurn turn;
    turn.conversation_id = proxy_conversation_id(call);
    turn.report = proxy_turn_report(call, *outcome.reply);
    turn.report.memory_available = ctx.user_id.has_value();
    turn.model = std::move(call.model);
    turn.messages = std::move(call.messages);
    turn.messages.push_back(std::move(outcome.reply->message));
    const core::LearningConfig& learning = state->config.learning;
    const core::NudgeIntervals intervals{learning.creation_nudge_interval, learning.memory_nudge_interval};
    state->scheduler.report_turn(ctx, std::move(turn), intervals, learning.review.enabled);
  };
  return observer;
}

}  // namespace skillrt::app
