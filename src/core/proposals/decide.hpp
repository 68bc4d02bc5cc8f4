// A person's decision on a proposal. Approve re-checks that the target is
// still what the proposal was computed against (else the proposal turns
// stale), then replays the request through skill_manage with the guard on —
// re-validated and re-scanned — and the person's approval as the guard's
// confirmation (an "ask" becomes approvable; a "block" never is). Decisions on
// one proposal are serialised by a lock, so two approvals never apply twice.
#pragma once

#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "core/proposals/proposal.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct ApproveOutcome {
  Proposal proposal;    // its new state: applied, stale, quarantined, or still pending after a failed apply
  ManageResult result;  // what skill_manage answered (success false when not applied)
};

Result<ApproveOutcome> approve_proposal(const Context& ctx, const Config& cfg, const std::string& id);

Result<Proposal> reject_proposal(const Context& ctx, const std::string& id, const std::string& reason);

// Re-checks a pending proposal's target; turns it stale (and saves it) when
// the target changed since. Returns the proposal as it now stands.
Result<Proposal> refresh_proposal(const Context& ctx, const Config& cfg, Proposal proposal);

// The content hash of the skill a proposal targets as it is now ("" when it
// does not exist), and its path relative to its root.
struct TargetState {
  std::string hash;
  std::string skill_path;
};
Result<TargetState> proposal_target_state(const Context& ctx, const Config& cfg, Layer layer, const std::string& name);

}  // namespace skillrt::core
