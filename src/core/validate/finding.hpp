// What `validate` reports: findings with a stable rule id, a severity and a
// position, grouped per validated path.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

enum class Severity : unsigned char { error, warning, info };

// "error" | "warning" | "info".
std::string_view severity_name(Severity severity);

struct Finding {
  std::string rule_id; // stable, e.g. "name.charset" (see rules.hpp)
  Severity severity = Severity::error;
  std::string path; // the file the position refers to (or the path given)
  SourcePos pos{};  // 1-based line/column in `path`; {0,0} when file-level
  std::string message;
  std::string source_line; // the text of line `pos.line` (no line break), empty when unknown
};

struct ValidationReport {
  std::string path;              // as given by the caller
  std::string skill_md;          // the SKILL.md that was read; empty when none was found
  std::vector<Finding> findings; // in file order, file-level ones first

  // Number of findings with the given severity.
  std::size_t count(Severity severity) const;
  // Valid when there is no error (warnings and infos do not count).
  bool valid() const { return count(Severity::error) == 0; }
};

} // namespace skillrt::core
