// /api/v1/proposals: the caller's approval inbox (`skillrt pending`): list
// (?all=true: every state), one proposal with its diff and guard report,
// approve (re-validated, re-scanned, applied atomically) and reject with a
// reason. A pending proposal whose target changed is reported stale as soon
// as it is listed. Proposals are per user; the owner organisation also sees
// the shared layer's.
#include "api/routes.hpp"
#include "core/proposals/decide.hpp"
#include "core/proposals/proposal_store.hpp"
#include "protocol/review_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse list(const RestApiServices& services, ApiCall& call) {
  auto all = call.query.flag("all", false);
  if (!all) {
    return error_answer(all.error());
  }
  std::vector<std::string> problems;
  auto proposals = core::list_proposals(call.ctx, &problems);
  if (!proposals) {
    return error_answer(proposals.error());
  }
  std::vector<core::Proposal> shown;
  for (core::Proposal& proposal : *proposals) {
    if (proposal.state == core::ProposalState::pending) {
      if (auto refreshed = core::refresh_proposal(call.ctx, services.skills->config(), proposal); refreshed) {
        proposal = std::move(*refreshed);
      }
    }
    if (*all || proposal.state == core::ProposalState::pending) {
      shown.push_back(std::move(proposal));
    }
  }
  return json_answer(200, protocol::proposals_list_json(shown, problems));
}

ApiResponse show(const RestApiServices& services, ApiCall& call) {
  auto loaded = core::load_proposal(call.ctx, call.param("id"));
  if (loaded) {
    loaded = core::refresh_proposal(call.ctx, services.skills->config(), std::move(*loaded));
  }
  if (!loaded) {
    return error_answer(loaded.error());
  }
  Json out = Json::object();
  out["success"] = true;
  out["proposal"] = protocol::proposal_json(*loaded, true);
  return json_answer(200, out);
}

ApiResponse approve(const RestApiServices& services, ApiCall& call) {
  auto outcome = core::approve_proposal(call.ctx, services.skills->config(), call.param("id"));
  if (!outcome) {
    return error_answer(outcome.error());
  }
  const Json body = protocol::approve_json(*outcome);
  // Re-checked and refused (stale target, the guard now blocks): a conflict
  // with the proposal's state, not a malformed request.
  return json_answer(outcome->result.success ? 200 : 409, body);
}

ApiResponse reject(const RestApiServices&, ApiCall& call) {
  auto body = body_object(call.request);
  auto reason = body ? body_string(*body, "reason") : Result<std::optional<std::string>>(tl::unexpected(body.error()));
  if (!reason) {
    return error_answer(reason.error());
  }
  auto rejected = core::reject_proposal(call.ctx, call.param("id"), reason->value_or(""));
  if (!rejected) {
    return error_answer(rejected.error());
  }
  Json out = Json::object();
  out["success"] = true;
  out["proposal"] = protocol::proposal_json(*rejected, false);
  return json_answer(200, out);
}

}  // namespace

void add_proposal_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/proposals", [&services](ApiCall& call) { return list(services, call); });
  router.add("GET", "/api/v1/proposals/{id}", [&services](ApiCall& call) { return show(services, call); });
  router.add("POST", "/api/v1/proposals/{id}/approve", [&services](ApiCall& call) { return approve(services, call); });
  router.add("POST", "/api/v1/proposals/{id}/reject", [&services](ApiCall& call) { return reject(services, call); });
}

}  // namespace skillrt::api
