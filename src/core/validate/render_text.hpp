// Human-readable validation output, compiler style:
//   path:line:col: severity: message [rule.id]
//     the source line
//     ^
// followed by one summary line.
#pragma once

#include <string>
#include <vector>

#include "core/validate/finding.hpp"

namespace skillrt::core {

// One finding as its lines (header, then source and caret when it has a position).
std::string render_finding_text(const Finding& finding, bool color);

// Every finding of every report, then the summary line. `color` adds ANSI colours.
std::string render_validation_text(const std::vector<ValidationReport>& reports, bool color);

} // namespace skillrt::core
