// The skill name a caller asks for (spec §2.7 rules 1-2): checked by the one
// skill-name checker (validate/skill_name.hpp, SkillNameRule::lookup), since
// the name is joined onto every search root and must not be able to leave
// them; here only what view adds to it: Hermes' hint and the `ns:name` alias.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/validate/skill_name.hpp"
#include "core/view/failure.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_lookup_hint = "Use a skill name or relative path within the skills directory.";

// A lookup name check's Error as Hermes answers it: the same code and
// message, with k_lookup_hint.
ViewFailure lookup_name_failure(Error error);

// check_skill_name(raw, SkillNameRule::lookup) as a ViewResult: the trimmed
// name, or the failure with its hint.
ViewResult<std::string> checked_lookup_name(std::string_view raw);

// For a checked name holding ':', the local alias `ns/bare` (no plugins exist, so
// every namespace falls through); nullopt when there is no ':' or bare is empty.
// Fails when the namespace is not [a-zA-Z0-9_-]+ or when the alias fails the lookup rule.
ViewResult<std::optional<std::string>> namespace_alias(std::string_view name);

} // namespace skillrt::core
