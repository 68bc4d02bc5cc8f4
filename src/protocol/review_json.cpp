#include "protocol/review_json.hpp"

#include "core/manage/manage_request.hpp"
#include "protocol/manage_json.hpp"

namespace skillrt::protocol {

namespace {

}  // namespace

Json proposal_json(const core::Proposal& p, bool detail) {
  Json out = Json::object();
  out["id"] = p.id;
  out["state"] = core::proposal_state_name(p.state);
  out["origin"] = core::write_origin_name(p.origin);
  out["layer"] = core::layer_name(p.layer);
  out["skill"] = p.skill;
  out["action"] = core::manage_action_name(p.request.action);
  out["gist"] = p.gist;
  out["verdict"] = p.verdict;
  out["guard_asks"] = p.guard_asks;
  out["created_at"] = p.created_at;
  out["decided_at"] = p.decided_at.empty() ? Json(nullptr) : Json(p.decided_at);
  out["reason"] = p.reason.empty() ? Json(nullptr) : Json(p.reason);
  if (detail) {
    out["skill_path"] = p.skill_path;
    out["file_path"] = p.request.file_path ? Json(*p.request.file_path) : Json(nullptr);
    out["conversation"] = p.conversation.empty() ? Json(nullptr) : Json(p.conversation);
    out["before_hash"] = p.before_hash.empty() ? Json(nullptr) : Json(p.before_hash);
    out["after_hash"] = p.after_hash.empty() ? Json(nullptr) : Json(p.after_hash);
    out["scan_report"] = p.scan_report.empty() ? Json(nullptr) : Json(p.scan_report);
    out["diff"] = p.diff;
  }
  return out;
}

Json proposals_list_json(const std::vector<core::Proposal>& proposals, const std::vector<std::string>& problems) {
  Json list = Json::array();
  for (const core::Proposal& proposal : proposals) {
    list.push_back(proposal_json(proposal, false));
  }
  Json out = Json::object();
  out["success"] = true;
  out["count"] = proposals.size();
  out["proposals"] = std::move(list);
  if (!problems.empty()) {
    out["problems"] = problems;
  }
  return out;
}

Json gated_write_json(const core::GatedWrite& write) {
  Json answer = manage_result_json(write.result);
  if (write.proposal) {
    answer["staged"] = true;
    answer["pending_id"] = write.proposal->id;
    answer["gist"] = write.proposal->gist;
  }
  return answer;
}

Json approve_json(const core::ApproveOutcome& outcome) {
  Json out = Json::object();
  out["success"] = outcome.result.success;
  if (!outcome.result.success) {
    out["error"] = outcome.result.error;
  }
  out["proposal"] = proposal_json(outcome.proposal, false);
  out["result"] = manage_result_json(outcome.result);
  return out;
}

Json review_report_json(const core::ReviewReport& report) {
  Json out = Json::object();
  const bool ok = report.ending != core::ReviewEnding::model_error;
  out["success"] = ok;
  out["ending"] = core::review_ending_name(report.ending);
  if (!report.error.empty()) {
    out["error"] = report.error;
  }
  out["summary"] = core::review_summary(report);
  out["final_text"] = report.final_text;
  out["iterations"] = report.iterations;
  out["digest"] = report.digest;
  out["messages_sent"] = report.messages_sent;
  out["usage"] = Json{{"prompt_tokens", report.usage.prompt_tokens},
                      {"completion_tokens", report.usage.completion_tokens},
                      {"total_tokens", report.usage.total_tokens}};
  Json actions = Json::array();
  Json proposals = Json::array();
  for (const core::ReviewAction& action : report.actions) {
    Json item = Json::object();
    item["tool"] = action.tool;
    item["summary"] = action.summary;
    item["success"] = action.success;
    item["wrote"] = action.wrote;
    if (!action.proposal_id.empty()) {
      item["proposal_id"] = action.proposal_id;
      item["proposal_state"] = action.proposal_state;
      proposals.push_back(action.proposal_id);
    }
    actions.push_back(std::move(item));
  }
  out["actions"] = std::move(actions);
  out["proposals"] = std::move(proposals);
  return out;
}

}  // namespace skillrt::protocol
