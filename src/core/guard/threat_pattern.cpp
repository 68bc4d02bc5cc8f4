#include "core/guard/threat_pattern.hpp"

namespace skillrt::core {

const char* threat_severity_name(ThreatSeverity severity) {
  switch (severity) {
  case ThreatSeverity::low:
    return "low";
  case ThreatSeverity::medium:
    return "medium";
  case ThreatSeverity::high:
    return "high";
  case ThreatSeverity::critical:
    return "critical";
  }
  return "critical";
}

const char* category_name(ThreatCategory category) {
  switch (category) {
  case ThreatCategory::exfiltration:
    return "exfiltration";
  case ThreatCategory::injection:
    return "injection";
  case ThreatCategory::destructive:
    return "destructive";
  case ThreatCategory::persistence:
    return "persistence";
  case ThreatCategory::network:
    return "network";
  case ThreatCategory::obfuscation:
    return "obfuscation";
  case ThreatCategory::execution:
    return "execution";
  case ThreatCategory::traversal:
    return "traversal";
  case ThreatCategory::mining:
    return "mining";
  case ThreatCategory::supply_chain:
    return "supply_chain";
  case ThreatCategory::privilege_escalation:
    return "privilege_escalation";
  case ThreatCategory::credential_exposure:
    return "credential_exposure";
  case ThreatCategory::structural:
    return "structural";
  }
  return "structural";
}

} // namespace skillrt::core
