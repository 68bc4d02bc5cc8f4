// JSON of the learning loop: proposals (the approval inbox), a review's report,
// and the answers of `pending approve` / `reject`.
#pragma once

#include <string>
#include <vector>

#include "core/proposals/approval_gate.hpp"
#include "core/proposals/decide.hpp"
#include "core/proposals/proposal.hpp"
#include "core/review/review_engine.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {id, state, origin, layer, skill, action, gist, verdict, guard_asks, created_at, decided_at, reason,
//  [file_path, diff, scan_report, request]} — the last group with `detail`.
Json proposal_json(const core::Proposal& proposal, bool detail);

// {success: true, count, proposals: [...]} (no diffs), plus problems when some file did not read.
Json proposals_list_json(const std::vector<core::Proposal>& proposals, const std::vector<std::string>& problems);

// A gated skill_manage answer: the skill_manage JSON, plus Hermes' staged
// fields (staged: true, pending_id, gist) when the write became a proposal.
Json gated_write_json(const core::GatedWrite& write);

// {success, proposal: {...}, result: <skill_manage answer>} for approve.
Json approve_json(const core::ApproveOutcome& outcome);

// {success, ending, error?, final_text, summary, iterations, digest, messages_sent,
//  usage: {prompt_tokens, completion_tokens, total_tokens}, actions: [...], proposals: [ids]}
Json review_report_json(const core::ReviewReport& report);

}  // namespace skillrt::protocol
