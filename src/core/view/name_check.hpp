// Validation of the skill name a caller asks for (spec §2.7 rules 1-2): the name
// is joined onto every search root, so it must not be able to leave them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/view/failure.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_lookup_hint = "Use a skill name or relative path within the skills directory.";

// True when `path` has a `..` component, splitting on both '/' and '\'.
bool has_traversal_component(std::string_view path);

// True when `path` is absolute in the POSIX or Windows sense, or starts with a
// drive (`C:`) or a UNC / rooted backslash prefix.
bool is_absolute_or_drive(std::string_view path);

// Returns the name stripped of surrounding whitespace; fails (invalid_argument or
// limit_exceeded, hint k_lookup_hint) when it is empty, too long, holds a NUL, is
// absolute / has a drive, or has a `..` component.
ViewResult<std::string> check_skill_name(std::string_view raw);

// For a checked name holding ':', the local alias `ns/bare` (no plugins exist, so
// every namespace falls through); nullopt when there is no ':' or bare is empty.
// Fails when the namespace is not [a-zA-Z0-9_-]+ or when the alias fails check_skill_name.
ViewResult<std::optional<std::string>> namespace_alias(std::string_view name);

} // namespace skillrt::core
