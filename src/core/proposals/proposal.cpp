#include "core/proposals/proposal.hpp"

namespace skillrt::core {

const char* proposal_state_name(ProposalState state) {
  switch (state) {
    case ProposalState::pending:
      return "pending";
    case ProposalState::applied:
      return "applied";
    case ProposalState::rejected:
      return "rejected";
    case ProposalState::stale:
      return "stale";
    case ProposalState::quarantined:
      return "quarantined";
  }
  return "pending";
}

std::optional<ProposalState> proposal_state_from_name(std::string_view name) {
  for (ProposalState state : {ProposalState::pending, ProposalState::applied, ProposalState::rejected,
                              ProposalState::stale, ProposalState::quarantined}) {
    if (name == proposal_state_name(state)) {
      return state;
    }
  }
  return std::nullopt;
}

}  // namespace skillrt::core
