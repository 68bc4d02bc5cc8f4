#include "api/skill_lookup.hpp"

#include "protocol/view_json.hpp"

namespace skillrt::api {

tl::expected<FoundSkill, ApiResponse> find_skill(const RestApiServices& services, const ApiCall& call) {
  FoundSkill found;
  found.catalog = services.skills->catalog(call.ctx);
  auto answer = core::view_skill_in(call.ctx, services.skills->config(), *found.catalog, call.param("name"),
                                    std::nullopt, found.warnings);
  if (!answer) {
    return tl::unexpected(json_answer(http_status_of(answer.error().code), protocol::view_failure_json(answer.error())));
  }
  found.doc = std::get<core::SkillDocument>(std::move(*answer));
  return found;
}

}  // namespace skillrt::api
