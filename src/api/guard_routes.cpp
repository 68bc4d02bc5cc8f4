// GET /api/v1/skills/{name}/scan: the guard's report on one skill the caller
// sees (rule ids, severities, where, why; the install policy's decision), as
// `skillrt --json scan` gives it. GET /api/v1/audit: `skillrt --json audit`,
// every hub-installed skill re-scanned and compared with lock.json.
#include "api/routes.hpp"
#include "api/skill_lookup.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/audit.hpp"
#include "core/provenance/provenance.hpp"
#include "protocol/hub_json.hpp"
#include "protocol/scan_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse scan_skill(const RestApiServices& services, ApiCall& call) {
  auto found = find_skill(services, call);
  if (!found) {
    return found.error();
  }
  const core::SkillDocument& doc = found->doc;
  if (!doc.skill_dir) {
    return error_answer(400, "'" + doc.name + "' is a single-file skill: there is no folder to scan");
  }
  core::ScanOptions options;
  // The trust the skill was installed with, else what ?source= says, else community.
  const core::Provenance provenance =
      core::ProvenanceIndex::load(call.ctx, services.skills->config(), found->catalog->roots).of(doc.tier, *doc.skill_dir);
  options.source = call.query.get("source").value_or(provenance.trust.empty() ? "community" : provenance.trust);
  const Result<core::ScanResult> result = core::scan_skill(*doc.skill_dir, options);
  if (!result) {
    return error_answer(result.error());
  }
  return json_answer(200, protocol::scan_result_json(*result, core::decide_install(*result, false)));
}

ApiResponse audit(const RestApiServices& services, ApiCall& call) {
  auto shared = call.query.flag("shared", false);
  if (!shared) {
    return error_answer(shared.error());
  }
  const core::hub::AuditOutcome outcome = core::hub::audit_installed(call.ctx, services.skills->config(), *shared, nullptr);
  const Json body = protocol::audit_outcome_json(outcome);
  if (outcome.error) {
    return json_answer(http_status_of(outcome.error->code), body);
  }
  return json_answer(200, body);
}

}  // namespace

void add_guard_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/skills/{name}/scan", [&services](ApiCall& call) { return scan_skill(services, call); });
  router.add("GET", "/api/v1/audit", [&services](ApiCall& call) { return audit(services, call); });
}

}  // namespace skillrt::api
