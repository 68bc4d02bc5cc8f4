// Turning an agent's skill write into a proposal instead of a live change.
//
// The write is computed, not guessed: skill_manage runs on a copy of the
// target skill in a private sandbox home, with the guard on, so the proposal
// shows exactly what approving it would write (the diff), the guard's verdict
// on the result, and the identity of the target it was computed against.
// A request that manage would refuse anyway (a bad name, a patch that does
// not match, a create of a name that exists) is answered with manage's own
// error and no proposal, so the model can correct its call.
#pragma once

#include <string>
#include <variant>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "core/proposals/proposal.hpp"

namespace skillrt::core {

struct StageOptions {
  WriteOrigin origin = WriteOrigin::review;
  std::string conversation;  // recorded with the proposal
};

// The proposal (saved: pending, or quarantined when the guard blocks the
// result), or manage's failure when the request cannot be applied at all.
using StageOutcome = std::variant<Proposal, ManageResult>;

StageOutcome stage_proposal(const Context& ctx, const Config& cfg, const ManageRequest& request,
                            const StageOptions& options);

// The answer a tool call gets for a staged write (Hermes' shape: success,
// staged, pending_id, gist, message), as a ManageResult message.
std::string staged_message(const Proposal& proposal);

}  // namespace skillrt::core
