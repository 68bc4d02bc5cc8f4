// The help table of rule_help.hpp as data: one array per category
// (rule_help_table.cpp), read only through rule_help.cpp.
#pragma once

#include <span>
#include <string_view>

#include "core/guard/rule_help.hpp"

namespace skillrt::core {

struct RuleHelpGroup {
  std::string_view name; // the category (or "unicode", "scanner") the entries belong to
  std::span<const RuleHelp> entries;
};

std::span<const RuleHelpGroup> rule_help_groups();

} // namespace skillrt::core
