// SARIF 2.1.0 of `scan --format sarif`, for code-scanning dashboards.
#pragma once

#include <string>
#include <string_view>

#include "core/guard/guard.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// One run of tool "skillrt-guard": a rule per pattern id that occurs, a result
// per finding (level error for critical/high, warning for medium, note for
// low) and per dismissed finding (with an external suppression carrying the
// reason). Locations are relative to the scanned skill.
//
// Each rule descriptor (SARIF 2.1.0 reportingDescriptor) carries the rule's
// help (rule_help.hpp) as fullDescription (why) and help {text, markdown}
// (why, fix, how to dismiss, the rules document). helpUri must be an absolute
// URI (SARIF §3.49.12, schema format "uri"), and the rules document has no
// public address yet: so helpUri is written only when `help_base_url` (an
// absolute http(s) URL where the repository's files are served, e.g.
// https://github.com/ORG/skillrt/blob/main/) is given, as that URL followed by
// core::help_uri(id).
Json scan_result_sarif(const core::ScanResult& result, const core::PolicyDecision& decision,
                       std::string_view help_base_url = {});

// Whether `url` can be a help base: http:// or https://, a host, no spaces.
bool valid_help_base_url(std::string_view url);

// "%"-encodes a relative POSIX path for an artifactLocation.uri ("/" kept).
std::string sarif_uri(std::string_view rel_path);

} // namespace skillrt::protocol
