// `validate`: checks one skill against the Agent Skills spec (as the reference
// validator skills-ref applies it) and against Hermes' own rules, collecting
// every finding at once. Severities come from rules.hpp.
#pragma once

#include <filesystem>

#include "core/validate/finding.hpp"

namespace skillrt::core {

struct ValidateOptions {
  // Strict: the verdict agrees with `skills-ref validate` (spec rules are errors,
  // Hermes-only rules are warnings). Default: Hermes-compatible.
  bool strict = false;
};

// Validates the skill at `path` (a skill directory, or a SKILL.md / skill.md file
// whose directory is then validated, as skills-ref does). Never throws; problems
// reading the path are findings too.
ValidationReport validate_skill(const std::filesystem::path& path, const ValidateOptions& options);

} // namespace skillrt::core
