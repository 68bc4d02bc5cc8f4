// JSON and text of a relevant-skill search (`skillrt search QUERY`).
#pragma once

#include <string>
#include <string_view>

#include "core/search/search_skills.hpp"
#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"

namespace skillrt::protocol {

// Success: {success: true, query, results: [{name, description, source, score,
// path | id}], count}. Failure: {success: false, query, error}.
Json search_json(std::string_view query, const Result<core::SkillSearch>& search);

// One line per hit: "NAME  [SOURCE]  DESCRIPTION"; "" when there is none.
std::string search_text(const core::SkillSearch& search);

}  // namespace skillrt::protocol
