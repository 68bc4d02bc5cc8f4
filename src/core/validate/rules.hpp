// The catalogue of validation rules: one stable id per check, with the severity
// it carries in the default (Hermes-compatible) mode and in --strict mode.
//
// Default mode: what Hermes (and skillrt's own loader) would refuse is an error;
// Agent Skills spec style rules are warnings. Strict mode: the verdict agrees
// with the reference validator `skills-ref validate` — what it rejects is an
// error, what it accepts never is.
#pragma once

#include <span>
#include <string_view>

#include "core/validate/finding.hpp"

namespace skillrt::core {

struct RuleInfo {
  std::string_view id;
  Severity normal; // default mode
  Severity strict; // --strict
  std::string_view summary;
};

// Every rule, in a stable order (documentation and tests iterate it).
std::span<const RuleInfo> all_rules();

// The rule with this id, or nullptr.
const RuleInfo* find_rule(std::string_view id);

// Severity of a rule in the given mode; an unknown id is an error (a bug, made loud).
Severity rule_severity(std::string_view id, bool strict);

} // namespace skillrt::core
