#include "protocol/validate_json.hpp"

#include "core/validate/render_text.hpp"
#include "core/validate/validator.hpp"

namespace skillrt::protocol {

namespace {

Json position_value(std::uint32_t value) {
  return value == 0 ? Json(nullptr) : Json(value);
}

Json finding_json(const core::Finding& finding) {
  Json out = Json::object();
  out["rule"] = finding.rule_id;
  out["severity"] = std::string(core::severity_name(finding.severity));
  out["line"] = position_value(finding.pos.line);
  out["column"] = finding.pos.line == 0 ? Json(nullptr) : position_value(finding.pos.column);
  out["message"] = finding.message;
  return out;
}

} // namespace

Json validate_json(const std::vector<core::ValidationReport>& reports) {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;
  std::size_t invalid = 0;
  Json results = Json::array();
  for (const core::ValidationReport& report : reports) {
    Json result = Json::object();
    result["path"] = report.path;
    result["skill_md"] = report.skill_md.empty() ? Json(nullptr) : Json(report.skill_md);
    result["valid"] = report.valid();
    result["error_count"] = report.count(core::Severity::error);
    result["warning_count"] = report.count(core::Severity::warning);
    Json findings = Json::array();
    for (const core::Finding& finding : report.findings) {
      findings.push_back(finding_json(finding));
    }
    result["findings"] = std::move(findings);
    results.push_back(std::move(result));
    errors += report.count(core::Severity::error);
    warnings += report.count(core::Severity::warning);
    infos += report.count(core::Severity::info);
    invalid += report.valid() ? 0 : 1;
  }
  Json out = Json::object();
  out["success"] = errors == 0;
  if (errors != 0) {
    out["error"] = std::to_string(invalid) + " of " + std::to_string(reports.size()) + " skill" +
                   (reports.size() == 1 ? "" : "s") + " invalid (" + std::to_string(errors) + " error" +
                   (errors == 1 ? "" : "s") + ")";
  }
  out["valid"] = errors == 0;
  out["error_count"] = errors;
  out["warning_count"] = warnings;
  out["info_count"] = infos;
  out["results"] = std::move(results);
  return out;
}

ValidateOutcome run_validate(const std::vector<std::string>& paths, bool strict, bool color) {
  std::vector<core::ValidationReport> reports;
  reports.reserve(paths.size());
  core::ValidateOptions options;
  options.strict = strict;
  for (const std::string& path : paths) {
    reports.push_back(core::validate_skill(path, options));
  }
  ValidateOutcome outcome;
  outcome.json = validate_json(reports);
  outcome.text = core::render_validation_text(reports, color);
  outcome.ok = outcome.json["valid"].get<bool>();
  return outcome;
}

} // namespace skillrt::protocol
