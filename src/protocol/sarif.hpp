// SARIF 2.1.0 of `scan --format sarif`, for code-scanning dashboards.
#pragma once

#include "core/guard/guard.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// One run of tool "skillrt-guard": a rule per pattern id that occurs, a result
// per finding (level error for critical/high, warning for medium, note for
// low) and per dismissed finding (with an external suppression carrying the
// reason). Locations are relative to the scanned skill.
Json scan_result_sarif(const core::ScanResult& result, const core::PolicyDecision& decision);

// "%"-encodes a relative POSIX path for an artifactLocation.uri ("/" kept).
std::string sarif_uri(std::string_view rel_path);

} // namespace skillrt::protocol
