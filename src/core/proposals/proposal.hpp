// A proposal: a skill write an agent asked for that waits for a person
// (issue 2/6 item 3; Hermes' staged writes, OpenClaw's Skill Workshop). It
// keeps the request to replay, the identity of what it was computed against,
// the guard's verdict and the diff a person reviews.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/config/learning_config.hpp"
#include "core/manage/manage_request.hpp"
#include "core/tenancy/layer.hpp"

namespace skillrt::core {

enum class ProposalState : unsigned char {
  pending,      // waits for approve / reject
  applied,      // approved and written
  rejected,     // a person said no
  stale,        // the target changed since the proposal was computed
  quarantined,  // the guard refused the change; kept for the record, never applied
};

const char* proposal_state_name(ProposalState state);  // "pending" | "applied" | ...
std::optional<ProposalState> proposal_state_from_name(std::string_view name);

struct Proposal {
  std::string id;  // "p-" + 16 hex
  ProposalState state = ProposalState::pending;
  WriteOrigin origin = WriteOrigin::review;
  std::string user_id;       // who the change is for ("" in single-user mode)
  Layer layer = Layer::shared;
  ManageRequest request;     // replayed by approve (its layer set)
  std::string skill;         // request.name
  // The target's content hash when the proposal was computed ("" = the skill
  // did not exist: a create), and the hash it will have once applied ("" =
  // it will not exist: a delete).
  std::string before_hash;
  std::string after_hash;
  std::string skill_path;    // the target folder relative to its layer's root ("" for a create)
  std::string verdict;       // the guard's: "safe" | "caution" | "dangerous"
  std::string scan_report;   // the guard's text report ("" when safe)
  bool guard_asks = false;   // the guard wants a person's confirmation: approving gives it
  std::string diff;          // unified diff of the change
  std::string gist;          // one line: what it does
  std::string conversation;  // the conversation the review read, when known
  std::string created_at;
  std::string decided_at;
  std::string reason;        // reject reason, stale / quarantine explanation, apply error
};

}  // namespace skillrt::core
