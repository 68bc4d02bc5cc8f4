// The line-pattern pass of the scanner: every ThreatPattern, compiled once into
// one RE2::Set (linear time whatever the input), applied line by line through
// a FileContext.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

// Appends one finding per (pattern, line) of `text` (a file's content without
// its leading BOM) that the file's context does not rule out.
void find_threat_patterns(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out);

// Patterns of the table that RE2 refused to compile ("id: error"); empty when
// the table is sound. A refused pattern never matches.
std::vector<std::string> threat_pattern_errors();

} // namespace skillrt::core
