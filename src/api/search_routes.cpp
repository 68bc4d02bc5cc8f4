// GET /api/v1/search?q=TEXT[&limit=N]: relevant skills across the three
// layers the caller sees (database > user > shared), as skills_search and
// `skillrt --json search` rank them, with the words each hit matched.
#include "api/routes.hpp"
#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/search/search_skills.hpp"
#include "protocol/search_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse search(const RestApiServices& services, ApiCall& call) {
  const std::optional<std::string> query = call.query.get("q");
  if (!query) {
    return error_answer(400, "search needs ?q=TEXT");
  }
  // Past the maximum is refused by check_search_request, with its message.
  auto limit = call.query.number("limit", limits::k_search_default_limit, limits::k_search_max_limit + 1);
  if (!limit) {
    return error_answer(limit.error());
  }
  if (auto checked = core::check_search_request(*query, *limit); !checked) {
    return json_answer(http_status_of(checked.error().code), protocol::search_json(*query, tl::unexpected(checked.error())));
  }
  const std::shared_ptr<const core::Catalog> catalog = services.skills->catalog(call.ctx);
  core::SkillSearch found;
  auto searched = services.skills->with_store([&](core::SkillStore& store) -> Result<void> {
    SKILLRT_TRY_ASSIGN(found, core::search_skills_in(call.ctx, *catalog, store, *query, *limit));
    return {};
  });
  if (!searched) {
    return json_answer(http_status_of(searched.error().code),
                       protocol::search_json(*query, tl::unexpected(searched.error())));
  }
  return json_answer(200, protocol::search_json(*query, found));
}

}  // namespace

void add_search_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/search", [&services](ApiCall& call) { return search(services, call); });
}

}  // namespace skillrt::api
