// JSON of `scan`: the scan result, the install decision and every finding.
#pragma once

#include "core/guard/guard.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {pattern_id, severity, category, file, line, column, match, description}.
Json guard_finding_json(const core::GuardFinding& finding);

// {success: true, verdict, trust_level, decision, reason, summary, content_hash,
// scanned_at, scanner_version, findings, dismissed (findings + reason,
// dismissed_by), skill_name, source, files_scanned, bytes_scanned}.
Json scan_result_json(const core::ScanResult& result, const core::PolicyDecision& decision);

} // namespace skillrt::protocol
