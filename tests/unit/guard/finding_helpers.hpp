// Small lookups over guard findings shared by the guard tests.
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::test {

inline const core::GuardFinding* find_id(const std::vector<core::GuardFinding>& findings, std::string_view id,
                                         std::string_view file = {}) {
  for (const core::GuardFinding& f : findings) {
    if (f.pattern_id == id && (file.empty() || f.file == file)) {
      return &f;
    }
  }
  return nullptr;
}
// The pointer would dangle once the temporary vector is gone: keep the result
// in a variable first.
const core::GuardFinding* find_id(std::vector<core::GuardFinding>&& findings, std::string_view id,
                                  std::string_view file = {}) = delete;

inline std::size_t count_id(const std::vector<core::GuardFinding>& findings, std::string_view id) {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [&](const core::GuardFinding& f) { return f.pattern_id == id; }));
}

inline bool has_pattern(std::string_view id) {
  for (const core::ThreatPattern& p : core::threat_patterns()) {
    if (p.id == id) {
      return true;
    }
  }
  return false;
}

} // namespace skillrt::test
