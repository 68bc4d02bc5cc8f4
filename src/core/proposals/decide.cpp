#include "core/proposals/decide.hpp"

#include <chrono>
#include <system_error>

#include "core/files/file_lock.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/limits.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/proposals/proposal_store.hpp"
#include "core/usage/usage_book.hpp"
#include "core/util/utc_time.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

Result<FileLock> lock_proposal(const Context& ctx, const std::string& id) {
  const fs::path dir = ctx.home / "cache" / "locks";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create the lock folder " + dir.string() + ": " + ec.message());
  }
  return FileLock::acquire(dir / ("proposal-" + id + ".lock"),
                           std::chrono::milliseconds(limits::k_user_state_lock_timeout_ms),
                           {"cannot open the lock file", "cannot lock",
                            "another decision on proposal " + id + " is still running; try again later"});
}

// The context a proposal is decided in: the decider's, but a user-layer
// proposal is always applied to the layer it was made for.
Result<void> check_pending(const Proposal& proposal) {
  if (proposal.state != ProposalState::pending) {
    return fail(ErrorCode::refused, "proposal " + proposal.id + " is " + proposal_state_name(proposal.state) +
                                        (proposal.reason.empty() ? std::string() : " (" + proposal.reason + ")") +
                                        "; only a pending proposal can be decided");
  }
  return {};
}

}  // namespace

Result<TargetState> proposal_target_state(const Context& ctx, const Config& cfg, Layer layer, const std::string& name) {
  const Catalog catalog = manage_catalog(ctx, cfg);
  auto located = locate_managed_skill(ctx, catalog, name, false, layer);
  if (!located) {
    if (located.error().code == ErrorCode::not_found) {
      return TargetState{};
    }
    return fail(located.error().code, located.error().error);
  }
  TargetState state;
  SKILLRT_TRY_ASSIGN(state.hash, hub::bundle_content_hash(located->dir));
  state.skill_path = located->dir.lexically_relative(located->root).generic_string();
  return state;
}

Result<Proposal> refresh_proposal(const Context& ctx, const Config& cfg, Proposal proposal) {
  if (proposal.state != ProposalState::pending) {
    return proposal;
  }
  SKILLRT_TRY_ASSIGN(TargetState now, proposal_target_state(ctx, cfg, proposal.layer, proposal.skill));
  if (now.hash == proposal.before_hash) {
    return proposal;
  }
  if (!proposal.after_hash.empty() && now.hash == proposal.after_hash) {
    // The apply finished but the process died before the proposal was marked.
    proposal.state = ProposalState::applied;
    proposal.reason = "found applied";
  } else {
    proposal.state = ProposalState::stale;
    proposal.reason = proposal.before_hash.empty()
                          ? "a skill with this name was created since the proposal was made"
                          : "the skill changed since the proposal was made";
  }
  proposal.decided_at = utc_now_iso8601();
  SKILLRT_TRY(save_proposal(ctx, proposal));
  return proposal;
}

Result<ApproveOutcome> approve_proposal(const Context& ctx, const Config& cfg, const std::string& id) {
  SKILLRT_TRY_ASSIGN(Proposal loaded, load_proposal(ctx, id));
  SKILLRT_TRY_ASSIGN(FileLock lock, lock_proposal(ctx, loaded.id));
  // Read again under the lock: another decision may have landed meanwhile.
  SKILLRT_TRY_ASSIGN(Proposal proposal, load_proposal(ctx, id));
  SKILLRT_TRY(check_pending(proposal));
  SKILLRT_TRY_ASSIGN(proposal, refresh_proposal(ctx, cfg, std::move(proposal)));
  ApproveOutcome outcome;
  if (proposal.state != ProposalState::pending) {
    outcome.result = manage_failure(ErrorCode::refused, "proposal " + proposal.id + " is " +
                                                            proposal_state_name(proposal.state) + ": " +
                                                            proposal.reason + "; it was not applied");
    outcome.proposal = std::move(proposal);
    return outcome;
  }

  Config apply_cfg = cfg;
  apply_cfg.skills.guard_agent_created = true;  // re-scanned whatever the config says
  ManageRequest request = proposal.request;
  request.layer = proposal.layer;
  request.confirm = true;  // the person's approval answers the guard's "ask"; a "block" still blocks
  // The ledger names who approved it and what proposed it.
  request.actor = LedgerActor::user;
  request.actor_id.clear();
  request.ledger_action = LedgerAction::approve;
  request.ledger_note = "proposal " + proposal.id + " (" + write_origin_name(proposal.origin) +
                        ")";
  outcome.result = manage_skill(ctx, apply_cfg, request);
  if (outcome.result.success) {
    proposal.state = ProposalState::applied;
    proposal.reason.clear();
    if (request.action == ManageAction::create && proposal.origin != WriteOrigin::person) {
      // §2.10 step 4: a create from the agent side marks the skill agent-made,
      // which is what the curator and the review's refusals read.
      auto marked = update_usage(ctx, proposal.layer, proposal.skill,
                                 [](UsageRecord& record) { record.created_by = SkillAuthor::agent; });
      if (!marked) {
        outcome.result.warnings.push_back("the usage record was not updated: " + marked.error().message);
      }
    } else if (request.action == ManageAction::remove_skill) {
      (void)forget_usage(ctx, proposal.layer, proposal.skill);
    }
  } else if (outcome.result.scan_report && !outcome.result.confirmation_required) {
    proposal.state = ProposalState::quarantined;
    proposal.scan_report = *outcome.result.scan_report;
    proposal.reason = "the security scan blocked it at approval";
  } else {
    proposal.reason = "approval failed: " + outcome.result.error;  // still pending: it may be retried
  }
  if (proposal.state != ProposalState::pending) {
    proposal.decided_at = utc_now_iso8601();
  }
  if (auto saved = save_proposal(ctx, proposal); !saved) {
    outcome.result.warnings.push_back("the proposal's new state was not saved: " + saved.error().message);
  }
  outcome.proposal = std::move(proposal);
  return outcome;
}

Result<Proposal> reject_proposal(const Context& ctx, const std::string& id, const std::string& reason) {
  SKILLRT_TRY_ASSIGN(Proposal loaded, load_proposal(ctx, id));
  SKILLRT_TRY_ASSIGN(FileLock lock, lock_proposal(ctx, loaded.id));
  SKILLRT_TRY_ASSIGN(Proposal proposal, load_proposal(ctx, id));
  SKILLRT_TRY(check_pending(proposal));
  proposal.state = ProposalState::rejected;
  proposal.reason = reason;
  proposal.decided_at = utc_now_iso8601();
  SKILLRT_TRY(save_proposal(ctx, proposal));
  return proposal;
}

}  // namespace skillrt::core
