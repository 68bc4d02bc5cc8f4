// Skill-name rules of the Agent Skills reference validator (skills-ref) and of
// Hermes' skill_manage, applied to a name that is already a string.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace skillrt::core {

struct SpecNameCheck {
  std::string normalized;       // trimmed, then compatibility-folded (see spec_normalize)
  std::size_t utf16_length = 0; // what skills-ref compares with 64
  std::size_t code_points = 0;  // what the spec text and Hermes mean by "characters"
  bool uppercase = false;       // changes under lowercasing
  bool bad_hyphens = false;     // leading/trailing '-' or "--"
  bool bad_chars = false;       // something other than skills-ref's letters, digits and '-'
  std::u32string bad_char_list; // the offending characters, first occurrence each
};

// skills-ref's name checks on `name` (trimmed first, as skills-ref does).
SpecNameCheck check_spec_name(std::string_view name);

// The compatibility folding skills-ref applies (NFKC) as far as skillrt
// implements it: fullwidth ASCII forms fold to ASCII, the rest is unchanged.
std::string spec_normalize(std::string_view text);

// Hermes' rule for skill names: ^[a-z0-9][a-z0-9._-]*$ and at most 64 characters.
bool is_hermes_name(std::string_view name);

} // namespace skillrt::core
