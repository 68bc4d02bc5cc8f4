#include "core/validate/finding.hpp"

namespace skillrt::core {

std::string_view severity_name(Severity severity) {
  switch (severity) {
  case Severity::error:
    return "error";
  case Severity::warning:
    return "warning";
  case Severity::info:
    return "info";
  }
  return "error";
}

std::size_t ValidationReport::count(Severity severity) const {
  std::size_t n = 0;
  for (const Finding& finding : findings) {
    if (finding.severity == severity) {
      ++n;
    }
  }
  return n;
}

} // namespace skillrt::core
