// THE skill-name checker: every place that accepts a skill name asks this
// one function, with the rule of what the name is for. (The validator's
// findings about a frontmatter `name`, check_spec_name in name_rules.hpp,
// are a report on a file, not a gate, and stay apart.)
#pragma once

#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// Why callers genuinely differ:
enum class SkillNameRule : unsigned char {
  // A name a caller looks up (view, skill_manage on an existing skill, MCP,
  // prompts/get). Hermes' skill_view takes a bare name, a category path
  // `cat/name`, or whatever name an existing skill carries (capitals, spaces
  // and non-ASCII letters from hand-written or imported skills), so only what
  // could leave the skills roots is refused: an absolute or drive path, a
  // `..` component, NUL; plus empty and longer than limits::k_max_path_length
  // (limit_exceeded). Surrounding ASCII whitespace is trimmed, as Hermes does.
  lookup,
  // A new skill's name (skill_manage create, database skills, the stores'
  // last check): Hermes' creation rule, ^[a-z0-9][a-z0-9._-]*$ and at most
  // limits::k_max_name_length characters, so every skill we create can be
  // named the same way in Hermes.
  create,
  // The name of a skill installed from a hub bundle: it becomes one folder
  // under the skills root and a key of lock.json, and third-party bundles use
  // names create would refuse (capitals, spaces), so: one path segment of at
  // most limits::k_max_name_length bytes that does not start with '.' and
  // holds no '\', ':' or control character.
  install,
};

// Checks `name` under `rule`. Returns the name as checked (a view into `name`,
// trimmed for lookup). Errors: invalid_argument, or limit_exceeded for an
// overlong lookup; the message is the wording the rule's callers have always
// shown (Hermes' for lookup and create).
Result<std::string_view> check_skill_name(std::string_view name, SkillNameRule rule);

// The segment rule of `install`, which the hub also applies to each segment
// of a category and an install_path; `what` starts the message ("category").
Result<void> check_name_segment(std::string_view segment, std::string_view what);

// True when `path` has a `..` component, splitting on both '/' and '\'.
bool has_traversal_component(std::string_view path);

// True when `path` is absolute in the POSIX or Windows sense, or starts with a
// drive (`C:`) or a UNC / rooted backslash prefix.
bool is_absolute_or_drive(std::string_view path);

} // namespace skillrt::core
