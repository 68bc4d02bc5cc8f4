// JSON and text of a relevant-skill search (`skillrt search QUERY`).
#pragma once

#include <string>
#include <string_view>

#include "core/search/search_skills.hpp"
#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"

namespace skillrt::protocol {

// Success: {success: true, query, results: [{name, description, source,
// path | id}], count}, best first. Failure: {success: false, query, error}.
// No score: SQLite's bm25 weighs words by statistics over every user's
// documents, so a raw score would tell a user whether other users' private
// skills contain a word (docs/compat.md, "Relevant-skill search").
Json search_json(std::string_view query, const Result<core::SkillSearch>& search);

// One line per hit: "NAME  [SOURCE]  DESCRIPTION"; "" when there is none.
std::string search_text(const core::SkillSearch& search);

}  // namespace skillrt::protocol
