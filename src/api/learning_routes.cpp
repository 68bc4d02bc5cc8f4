// The learning loop's routes: POST /api/v1/turns (an agent reports a turn;
// the nudge counters decide whether a background review starts: 202 when
// one did) and GET /api/v1/reviews (the caller's finished reviews).
#include "api/routes.hpp"
#include "protocol/turn_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse report_turn(const RestApiServices& services, ApiCall& call) {
  if (call.ctx.anonymous) {
    return error_answer(403, "anonymous callers cannot report turns; connect with a token");
  }
  auto parsed = protocol::parse_turn_request(call.request.body);
  if (!parsed) {
    return error_answer(400, parsed.error().message);
  }
  core::ReviewScheduler& scheduler = *services.reviews;
  if (parsed->started) {
    const bool cancelled = scheduler.turn_started(call.ctx, parsed->turn.conversation_id);
    Json out = Json::object();
    out["success"] = true;
    out["conversation_id"] = parsed->turn.conversation_id;
    out["cancelled_running"] = cancelled;
    return json_answer(200, out);
  }
  const core::Config& config = services.skills->config();
  const std::string id = parsed->turn.conversation_id;
  core::NudgeIntervals intervals{config.learning.creation_nudge_interval, config.learning.memory_nudge_interval};
  parsed->turn.report.memory_available = parsed->turn.report.memory_available && call.ctx.user_id.has_value();
  // The review runs on the scheduler's thread with this context, the
  // server's event bus included, so what it writes is announced like any
  // other write. `skillrt serve` destroys the scheduler before the server.
  const core::TurnAnswer answer =
      scheduler.report_turn(call.ctx, std::move(parsed->turn), intervals, config.learning.review.enabled);
  return json_answer(answer.review_started ? 202 : 200, protocol::turn_answer_json(id, answer));
}

ApiResponse finished_reviews(const RestApiServices& services, ApiCall& call) {
  return json_answer(200, protocol::finished_reviews_json(services.reviews->finished(call.ctx.user_id.value_or(""))));
}

}  // namespace

void add_learning_routes(Router& router, const RestApiServices& services) {
  router.add("POST", "/api/v1/turns", [&services](ApiCall& call) { return report_turn(services, call); });
  router.add("GET", "/api/v1/reviews", [&services](ApiCall& call) { return finished_reviews(services, call); });
}

}  // namespace skillrt::api
