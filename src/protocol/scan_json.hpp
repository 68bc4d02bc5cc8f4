// JSON of `scan`: the scan result, the install decision and every finding.
#pragma once

#include <string_view>

#include "core/guard/guard.hpp"
#include "core/guard/rule_help.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {pattern_id, severity, category, file, line, column, match, description}.
Json guard_finding_json(const core::GuardFinding& finding);

// {success: true, verdict, trust_level, decision, reason, summary, content_hash,
// scanned_at, scanner_version, findings, dismissed (findings + reason,
// dismissed_by), skill_name, source, files_scanned, bytes_scanned, rules}.
// `rules` maps every rule id of findings and dismissed to rule_help_json.
Json scan_result_json(const core::ScanResult& result, const core::PolicyDecision& decision);

// {summary, why, fix, help_uri} of `id`; only {help_uri} for an id the help
// table does not know.
Json rule_help_json(std::string_view id);

// `scan --explain RULE --format json`: {success: true, id, category, severity,
// summary, why, fix, help_uri, dismiss: {skill_file: {file, yaml} | null,
// operator_file: {file, yaml} | null, note}}. The dismissal texts are samples
// for a finding of the rule (source example-org/skills, file SKILL.md and line
// 12 for line rules); the operator file is named inside `operator_dir`.
Json rule_explanation_json(const core::GuardRule& rule, const std::string& operator_dir);

// The sample finding the explanations' dismissal texts are written for.
core::GuardFinding sample_finding(const core::GuardRule& rule);
inline constexpr std::string_view k_sample_source = "example-org/skills";

} // namespace skillrt::protocol
