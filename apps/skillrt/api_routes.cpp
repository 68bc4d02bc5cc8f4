#include "api_routes.hpp"

#include <string_view>

#include "protocol/turn_json.hpp"

namespace skillrt::app {
namespace {

net::ApiResponse json_answer(unsigned status, const protocol::Json& body) { return {status, body.dump(), "application/json"}; }

net::ApiResponse error_answer(unsigned status, std::string_view message) {
  return {status, net::api_error_body(message), "application/json"};
}

std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

}  // namespace

net::ApiHandler make_api_handler(core::Context base, core::Config config, core::ReviewScheduler& scheduler) {
  return [base = std::move(base), config = std::move(config), &scheduler](const net::ApiRequest& request) {
    core::Context ctx = base;
    ctx.user_id = request.caller.user_id;
    ctx.org_id = request.caller.org_id;
    ctx.anonymous = request.caller.anonymous;
    const std::string_view path = path_of(request.target);

    if (path == "/api/v1/turns") {
      if (request.method != "POST") {
        return error_answer(405, "Method Not Allowed: POST a turn report");
      }
      if (ctx.anonymous) {
        return error_answer(403, "anonymous callers cannot report turns; connect with a token");
      }
      auto parsed = protocol::parse_turn_request(request.body);
      if (!parsed) {
        return error_answer(400, parsed.error().message);
      }
      if (parsed->started) {
        const bool cancelled = scheduler.turn_started(ctx, parsed->turn.conversation_id);
        protocol::Json out = protocol::Json::object();
        out["success"] = true;
        out["conversation_id"] = parsed->turn.conversation_id;
        out["cancelled_running"] = cancelled;
        return json_answer(200, out);
      }
      const std::string id = parsed->turn.conversation_id;
      core::NudgeIntervals intervals{config.learning.creation_nudge_interval, config.learning.memory_nudge_interval};
      parsed->turn.report.memory_available = parsed->turn.report.memory_available && ctx.user_id.has_value();
      const core::TurnAnswer answer =
          scheduler.report_turn(ctx, std::move(parsed->turn), intervals, config.learning.review.enabled);
      return json_answer(answer.review_started ? 202 : 200, protocol::turn_answer_json(id, answer));
    }
    if (path == "/api/v1/reviews") {
      if (request.method != "GET") {
        return error_answer(405, "Method Not Allowed: GET the finished reviews");
      }
      return json_answer(200, protocol::finished_reviews_json(scheduler.finished(ctx.user_id.value_or(""))));
    }
    return error_answer(404, "Not Found: no API route " + std::string(path));
  };
}

}  // namespace skillrt::app
