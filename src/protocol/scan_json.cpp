#include "protocol/scan_json.hpp"

namespace skillrt::protocol {

Json guard_finding_json(const core::GuardFinding& finding) {
  Json out = Json::object();
  out["pattern_id"] = finding.pattern_id;
  out["severity"] = core::threat_severity_name(finding.severity);
  out["category"] = core::category_name(finding.category);
  out["file"] = finding.file;
  out["line"] = finding.line;
  out["column"] = finding.column;
  out["match"] = finding.snippet;
  out["description"] = finding.description;
  return out;
}

Json scan_result_json(const core::ScanResult& result, const core::PolicyDecision& decision) {
  Json out = Json::object();
  out["success"] = true;
  out["verdict"] = core::verdict_name(result.verdict);
  out["trust_level"] = core::trust_level_name(result.trust);
  out["decision"] = core::install_decision_name(decision.decision);
  out["reason"] = decision.reason;
  out["summary"] = result.summary;
  out["content_hash"] = result.content_hash;
  out["scanned_at"] = result.scanned_at;
  out["scanner_version"] = std::string(core::scanner_version());
  Json findings = Json::array();
  for (const core::GuardFinding& f : result.findings) {
    findings.push_back(guard_finding_json(f));
  }
  out["findings"] = std::move(findings);
  Json dismissed = Json::array();
  for (const core::DismissedFinding& d : result.dismissed) {
    Json item = guard_finding_json(d.finding);
    item["reason"] = d.reason;
    item["dismissed_by"] = d.dismissed_by;
    dismissed.push_back(std::move(item));
  }
  out["dismissed"] = std::move(dismissed);
  out["skill_name"] = result.skill_name;
  out["source"] = result.source;
  out["files_scanned"] = result.files_scanned;
  out["bytes_scanned"] = result.bytes_scanned;
  return out;
}

} // namespace skillrt::protocol
