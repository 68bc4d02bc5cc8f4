#include "proxy_observer.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/chat/chat_wire.hpp"
#include "core/limits.hpp"
#include "core/util/utf8.hpp"
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

// Skills named in the note a proxied turn gets: enough to point the agent at
// the right one, few enough never to flood its context.
constexpr std::size_t k_injected_matches = 3;

}  // namespace

bool MatchInjection::wanted_for(const mcp::Caller& caller) const {
  if (caller.anonymous || !caller.user_id) {
    return false;
  }
  return everyone || std::find(users.begin(), users.end(), *caller.user_id) != users.end();
}

MatchInjection match_injection_of(const core::Config& config) {
  MatchInjection out;
  const core::YamlNode* skills = config.document.get("skills");
  if (skills == nullptr || !skills->is_mapping()) {
    return out;
  }
  for (std::string& user : core::parse_config_string_list(skills->get("match_injection"))) {
    if (user == "all") {
      out.everyone = true;
    } else {
      out.users.push_back(std::move(user));
    }
  }
  return out;
}

std::string matched_skills_note(const core::SkillMatch& match) {
  if (match.results.empty()) {
    return {};
  }
  std::string note = "[skillrt] Skills that match this message (load one with skill_view(name) before you act):";
  for (const core::SkillActivation& hit : match.results) {
    note += "\n- " + hit.name;
    if (!hit.description.empty()) {
      std::string line = hit.description;
      std::replace(line.begin(), line.end(), '\n', ' ');
      note += ": " + line;
    }
  }
  return note;
}

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

net::ProxyObserver make_proxy_observer(core::Context base, core::Config config, core::ReviewScheduler& scheduler,
                                       SkillMatcher matcher) {
  // Shared by the callbacks (the observer is copied into the server).
  struct State {
    core::Context base;
    core::Config config;
    core::ReviewScheduler& scheduler;
    SkillMatcher matcher;
    MatchInjection injection;
  };
  MatchInjection injection = match_injection_of(config);
  auto state = std::make_shared<const State>(
      State{std::move(base), std::move(config), scheduler, std::move(matcher), std::move(injection)});

  net::ProxyObserver observer;
  if (state->matcher && (state->injection.everyone || !state->injection.users.empty())) {
    observer.rewrite_needed = [state](const mcp::Caller& caller) { return state->injection.wanted_for(caller); };
    observer.rewrite = [state](const mcp::Caller& caller, std::string_view body) -> std::optional<std::string> {
      Result<net::ProxyCall> call = net::read_proxy_call(body);
      if (!call || !call->user_turn || !call->messages.back().content) {
        return std::nullopt;  // not a new user turn: nothing to add
      }
      core::MatchRequest request;
      request.message = *call->messages.back().content;
      request.limit = k_injected_matches;
      if (request.message.size() > limits::k_max_match_message_bytes) {
        // A long paste: its opening says what the turn is about.
        request.message.resize(limits::k_max_match_message_bytes);
        request.message = core::sanitize_utf8(request.message);
      }
      Result<core::SkillMatch> match = state->matcher(context_of(state->base, caller), request);
      if (!match) {
        return std::nullopt;  // a matching failure must not fail the agent's call
      }
      const std::string note = matched_skills_note(*match);
      if (note.empty()) {
        return std::nullopt;
      }
      Result<std::string> rewritten = core::append_to_last_user_message(body, note);
      if (!rewritten) {
        return std::nullopt;
      }
      return std::move(*rewritten);
    };
  }
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
