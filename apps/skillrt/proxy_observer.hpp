// What `skillrt serve --upstream URL` makes of the chat completions its
// OpenAI-compatible proxy relays (net/openai_proxy.hpp): each model call of
// an agent becomes one report to the nudge counters of its conversation, so
// the background review starts after skills.creation_nudge_interval
// tool-calling iterations without a skill write, exactly as if the agent had
// reported its turns to POST /api/v1/turns itself.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/activation/match_skills.hpp"
#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/review/review_scheduler.hpp"
#include "net/openai_proxy.hpp"

namespace skillrt::app {

// The conversation a proxied call belongs to: the X-Skillrt-Conversation-Id
// header when the agent sent one, else the stable hash of the opening
// messages the turns API uses (protocol::derived_conversation_id).
std::string proxy_conversation_id(const net::ProxyCall& call);

// The nudge-counter report of one completed call: one tool-loop iteration;
// it begins a user turn when the request's last message is the user's; the
// turn ends when the reply calls no tools (that reply is the final
// response); a skill or memory write is a skill_manage or memory call in the
// reply (each call is seen once, in the reply that makes it, which is when
// Hermes resets its counter).
core::TurnReport proxy_turn_report(const net::ProxyCall& call, const core::ChatReply& reply);

// The users whose proxied turns get the skills their message triggers
// (config.yaml `skills.match_injection`: a list of user ids, or "all").
struct MatchInjection {
  bool everyone = false;
  std::vector<std::string> users;

  bool wanted_for(const mcp::Caller& caller) const;
};
MatchInjection match_injection_of(const core::Config& config);

// The note added to a user's message: the skills that fire on it, one line
// each with its description, and how to load one; "" when none fires.
std::string matched_skills_note(const core::SkillMatch& match);

// Matches a context's message over the server's kept catalogs.
using SkillMatcher = std::function<Result<core::SkillMatch>(const core::Context&, const core::MatchRequest&)>;

// Reports every completed 2xx call of a caller with a user to `scheduler`,
// with `base` (home, OS, env) and the caller's user and organisation as the
// context, and cancels a conversation's running review when a request
// begins a new user turn. Anonymous callers have no counters. `scheduler`
// must outlive the observer.
// For the users `match_injection_of(config)` names, the user's message of a
// call that begins a turn gets matched_skills_note (at most three skills)
// before it goes upstream; anyone else's request is relayed untouched.
net::ProxyObserver make_proxy_observer(core::Context base, core::Config config, core::ReviewScheduler& scheduler,
                                       SkillMatcher matcher = {});

}  // namespace skillrt::app
