// GET /api/v1/match?q=MESSAGE[&paths=A,B][&limit=N]: the skills whose
// triggers fire on a user's message, with the reason each fired, as
// skills_match and `skillrt --json match` answer (with the `problems` of
// triggers that cannot be used: whoever reads this API may be their author).
#include "api/routes.hpp"
#include "core/activation/match_skills.hpp"
#include "core/limits.hpp"
#include "protocol/match_json.hpp"

namespace skillrt::api {
namespace {

// "a.ts,src/b.ts" → {"a.ts", "src/b.ts"}; at most one more than the limit is
// kept, so check_match_request refuses a long list with its own message.
std::vector<std::string> split_paths(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty() && out.size() <= limits::k_max_match_paths) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (!item.empty()) {
      out.emplace_back(item);
    }
    if (comma == std::string_view::npos) {
      break;
    }
    text.remove_prefix(comma + 1);
  }
  return out;
}

ApiResponse match(const RestApiServices& services, ApiCall& call) {
  core::MatchRequest request;
  const std::optional<std::string> message = call.query.get("q");
  const std::optional<std::string> paths = call.query.get("paths");
  if (!message && !paths) {
    return error_answer(400, "match needs ?q=MESSAGE (and/or ?paths=FILE,FILE)");
  }
  request.message = message.value_or("");
  if (paths) {
    request.paths = split_paths(*paths);
  }
  // Past the maximum is refused by check_match_request, with its message.
  auto limit = call.query.number("limit", limits::k_match_default_limit, limits::k_match_max_limit + 1);
  if (!limit) {
    return error_answer(limit.error());
  }
  request.limit = *limit;
  auto matched = services.skills->match_skills(call.ctx, request);
  if (!matched) {
    return json_answer(http_status_of(matched.error().code), protocol::match_json(request.message, matched));
  }
  return json_answer(200, protocol::match_json(request.message, matched));
}

}  // namespace

void add_match_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/match", [&services](ApiCall& call) { return match(services, call); });
}

}  // namespace skillrt::api
