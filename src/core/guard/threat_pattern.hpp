// One line-level threat pattern of the guard (spec §3.1). The table itself lives
// in patterns.cpp; pattern_scan.cpp compiles it once (literal pre-filter + RE2).
#pragma once

#include <span>
#include <string_view>

namespace skillrt::core {

// How bad a finding is. Distinct from validate's Severity (error/warning/info),
// which grades standard conformance, not threats.
enum class ThreatSeverity : unsigned char { low, medium, high, critical };

enum class ThreatCategory : unsigned char {
  exfiltration,
  injection,
  destructive,
  persistence,
  network,
  obfuscation,
  execution,
  traversal,
  mining,
  supply_chain,
  privilege_escalation,
  credential_exposure,
  structural,  // file count, sizes, binaries, executables, links leaving the skill
};

const char* threat_severity_name(ThreatSeverity severity);  // "low" … "critical"

const char* category_name(ThreatCategory category);    // "exfiltration" …, "privilege_escalation"

struct ThreatPattern {
  std::string_view id;           // stable, snake_case; shown in reports and used by dismissals
  ThreatCategory category;
  ThreatSeverity severity;
  std::string_view regex;        // RE2 syntax, matched case-insensitively against one line
  std::string_view description;  // one sentence for reports
};

// Every line pattern, in a stable order (ids unique).
std::span<const ThreatPattern> threat_patterns();

}  // namespace skillrt::core
