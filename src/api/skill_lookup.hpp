// Internal to src/api: the file skill a route's {name} names, resolved as
// skill_view resolves it in the caller's catalog (the snapshot the MCP tools
// read), or the answer that refuses it (skill_view's failure body: not
// found with the names offered, ambiguous with the matches, refused).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/api_call.hpp"
#include "api/rest_api.hpp"
#include "core/discovery/catalog.hpp"
#include "core/view/skill_view.hpp"

namespace skillrt::api {

struct FoundSkill {
  std::shared_ptr<const core::Catalog> catalog;
  core::SkillDocument doc;
  std::vector<std::string> warnings;
};

tl::expected<FoundSkill, ApiResponse> find_skill(const RestApiServices& services, const ApiCall& call);

}  // namespace skillrt::api
