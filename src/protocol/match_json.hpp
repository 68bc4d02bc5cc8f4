// JSON and text of trigger activation (`skillrt match`, MCP `skills_match`,
// GET /api/v1/match).
#pragma once

#include <string>
#include <string_view>

#include "core/activation/match_skills.hpp"
#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"

namespace skillrt::protocol {

// Success: {success: true, message, results: [{name, description, source,
// score, path | id, reasons: [{kind, trigger, matched}]}], count, and
// problems: [{name, trigger, error}] when `with_problems` and there are any}.
// Failure: {success: false, message, error}. `message` is the message matched,
// cut to 200 characters (a caller has the rest).
Json match_json(std::string_view message, const Result<core::SkillMatch>& match, bool with_problems = true);

// One block per skill: "NAME  [SOURCE]  DESCRIPTION" and an indented line per
// reason ("phrase \"pentest [URL]\" <- pentest https://x.test"); "" when none.
std::string match_text(const core::SkillMatch& match);

}  // namespace skillrt::protocol
