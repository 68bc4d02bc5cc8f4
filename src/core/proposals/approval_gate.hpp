// The approval gate (spec §2.10 step 2, issue 2/6 item 3): every skill write
// from the agent side — a live agent's skill_manage, the background review —
// passes here. It goes live, or it becomes a proposal when
// skills.write_approval says so for its origin and skill, or when the skill's
// folder has `approval: all`. A live agent's write the guard answers with
// "ask" is staged too, so a person can approve it instead of the agent
// hitting a dead end.
#pragma once

#include <optional>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "core/proposals/proposal.hpp"

namespace skillrt::core {

struct GatedWrite {
  ManageResult result;               // what the caller answers (a staged write is a success with the message)
  std::optional<Proposal> proposal;  // staged (pending or quarantined)
  bool applied = false;              // went live
};

// True when a write of `origin` must wait for a person.
bool write_waits_for_approval(const Context& ctx, const Config& cfg, const ManageRequest& request, WriteOrigin origin);

// Applies or stages `request` (origin agent or review). `conversation` is
// recorded with a proposal.
GatedWrite gated_write(const Context& ctx, const Config& cfg, const ManageRequest& request, WriteOrigin origin,
                       const std::string& conversation);

}  // namespace skillrt::core
