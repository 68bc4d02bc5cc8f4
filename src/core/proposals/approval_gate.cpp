#include "core/proposals/approval_gate.hpp"

#include <algorithm>

#include "core/manage/skill_locator.hpp"
#include "core/proposals/stage.hpp"

namespace skillrt::core {

namespace {

// The `approval: all` of the folder the write lands in.
bool folder_requires_approval(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  const bool any = std::any_of(cfg.folders.folders.begin(), cfg.folders.folders.end(),
                               [](const FolderPolicy& policy) { return policy.approval_all; });
  if (!any) {
    return false;
  }
  std::string rel;
  if (request.action == ManageAction::create) {
    rel = request.folder.value_or(request.category.value_or("")) + "/";
  } else {
    const Catalog catalog = manage_catalog(ctx, cfg);
    auto located = locate_managed_skill(ctx, catalog, request.name, false, manage_target_layer(ctx, request));
    if (!located) {
      return false;  // the write reports the lookup failure itself
    }
    rel = located->dir.lexically_relative(located->root).generic_string();
  }
  const FolderPolicy* policy = cfg.folders.for_skill(rel);
  return policy != nullptr && policy->approval_all;
}

GatedWrite staged(StageOutcome outcome) {
  GatedWrite out;
  if (auto* failure = std::get_if<ManageResult>(&outcome)) {
    out.result = std::move(*failure);
    return out;
  }
  Proposal& proposal = std::get<Proposal>(outcome);
  out.result.success = proposal.state == ProposalState::pending;
  if (out.result.success) {
    out.result.message = staged_message(proposal);
  } else {
    out.result.code = ErrorCode::refused;
    out.result.error = staged_message(proposal);
    out.result.scan_report = proposal.scan_report;
  }
  out.proposal = std::move(proposal);
  return out;
}

}  // namespace

bool write_waits_for_approval(const Context& ctx, const Config& cfg, const ManageRequest& request, WriteOrigin origin) {
  if (origin == WriteOrigin::person) {
    return false;
  }
  return write_needs_approval(cfg.learning.write_approval, origin, request.name) ||
         folder_requires_approval(ctx, cfg, request);
}

GatedWrite gated_write(const Context& ctx, const Config& cfg, const ManageRequest& request, WriteOrigin origin,
                       const std::string& conversation) {
  StageOptions options;
  options.origin = origin;
  options.conversation = conversation;
  if (write_waits_for_approval(ctx, cfg, request, origin)) {
    return staged(stage_proposal(ctx, cfg, request, options));
  }
  GatedWrite out;
  out.result = manage_skill(ctx, cfg, request);
  out.applied = out.result.success;
  if (!out.result.success && out.result.confirmation_required && origin == WriteOrigin::agent) {
    // The guard asks and the agent cannot answer for the person: stage it.
    GatedWrite waiting = staged(stage_proposal(ctx, cfg, request, options));
    if (waiting.proposal) {
      return waiting;
    }
  }
  return out;
}

}  // namespace skillrt::core
