// `skillrt pending list [--all] | show ID | diff ID | approve ID | reject ID [--reason T]`:
// the approval inbox of agent-written skill changes (core/proposals). --user
// picks the user's inbox; the owner organisation also sees the shared one.
#include <iostream>

#include "command.hpp"
#include "core/proposals/decide.hpp"
#include "core/proposals/proposal_store.hpp"
#include "protocol/error_json.hpp"
#include "protocol/review_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::app {
namespace {

std::string detail_text(const core::Proposal& p) {
  std::string text = p.id + "  " + core::proposal_state_name(p.state) + "\n";
  text += "  " + p.gist + "\n";
  text += "  skill: " + p.skill + " (" + core::layer_name(p.layer) + (p.skill_path.empty() ? "" : ", " + p.skill_path) +
          ")\n";
  text += "  guard: " + p.verdict + (p.guard_asks ? " (asks for a person's confirmation: approving gives it)" : "") +
          "\n";
  text += "  created: " + p.created_at + (p.decided_at.empty() ? "" : "  decided: " + p.decided_at) + "\n";
  if (!p.reason.empty()) {
    text += "  reason: " + p.reason + "\n";
  }
  if (!p.scan_report.empty()) {
    text += "\n" + p.scan_report + "\n";
  }
  return text;
}

class PendingCommand final : public Command {
 public:
  const char* name() const override { return "pending"; }
  const char* summary() const override {
    return "The approval inbox: agent-written skill changes waiting for a person (list, show, diff, approve, reject)";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "List pending proposals (--all: every state)");
    m_list->add_flag("--all", m_all, "Include applied, rejected, stale and quarantined proposals");
    m_show = sub.add_subcommand("show", "Show one proposal: what it does, the guard's verdict, its state");
    m_diff = sub.add_subcommand("diff", "Print the unified diff a proposal would apply");
    m_approve = sub.add_subcommand("approve", "Apply a proposal: re-validated, re-scanned, atomic");
    m_reject = sub.add_subcommand("reject", "Reject a proposal");
    m_reject->add_option("--reason", m_reason, "Why (kept with the proposal)");
    for (CLI::App* action : {m_show, m_diff, m_approve, m_reject}) {
      action->add_option("ID", m_id, "The proposal id (p-...)")->required();
    }
    for (CLI::App* action : {m_list, m_show, m_diff, m_approve, m_reject}) {
      action->fallthrough();
    }
  }

  Outcome run(const Invocation& inv) override {
    if (m_list->parsed()) {
      return list(inv);
    }
    if (m_approve->parsed()) {
      auto outcome = core::approve_proposal(inv.ctx, inv.config, m_id);
      if (!outcome) {
        return finish_result(inv.json, protocol::error_result_json(outcome.error()), "");
      }
      const std::string text = outcome->result.success
                                   ? "Applied " + outcome->proposal.id + ": " + outcome->proposal.gist + "\n"
                                   : "";
      return finish_result(inv.json, protocol::approve_json(*outcome), text);
    }
    if (m_reject->parsed()) {
      auto rejected = core::reject_proposal(inv.ctx, m_id, m_reason);
      if (!rejected) {
        return finish_result(inv.json, protocol::error_result_json(rejected.error()), "");
      }
      protocol::Json out = protocol::Json::object();
      out["success"] = true;
      out["proposal"] = protocol::proposal_json(*rejected, false);
      return finish_result(inv.json, out, "Rejected " + rejected->id + "\n");
    }
    auto loaded = core::load_proposal(inv.ctx, m_id);
    if (loaded) {
      loaded = core::refresh_proposal(inv.ctx, inv.config, std::move(*loaded));
    }
    if (!loaded) {
      return finish_result(inv.json, protocol::error_result_json(loaded.error()), "");
    }
    protocol::Json out = protocol::Json::object();
    out["success"] = true;
    out["proposal"] = protocol::proposal_json(*loaded, true);
    if (m_diff->parsed()) {
      return finish_result(inv.json, out, loaded->diff.empty() ? "(no change)\n" : loaded->diff);
    }
    return finish_result(inv.json, out, detail_text(*loaded));
  }

 private:
  Outcome list(const Invocation& inv) {
    std::vector<std::string> problems;
    auto proposals = core::list_proposals(inv.ctx, &problems);
    if (!proposals) {
      return finish_result(inv.json, protocol::error_result_json(proposals.error()), "");
    }
    std::vector<core::Proposal> shown;
    for (core::Proposal& proposal : *proposals) {
      if (proposal.state == core::ProposalState::pending) {
        // A target changed since the proposal was made: say so now, not at approval.
        if (auto refreshed = core::refresh_proposal(inv.ctx, inv.config, proposal); refreshed) {
          proposal = std::move(*refreshed);
        }
      }
      if (m_all || proposal.state == core::ProposalState::pending) {
        shown.push_back(std::move(proposal));
      }
    }
    std::vector<std::vector<std::string>> rows;
    for (const core::Proposal& p : shown) {
      rows.push_back({p.id, core::proposal_state_name(p.state), p.verdict, p.created_at, p.gist});
    }
    std::string text = rows.empty() ? std::string(m_all ? "No proposals.\n" : "No pending proposals.\n")
                                    : protocol::render_table({{"ID", 0}, {"STATE", 0}, {"GUARD", 0}, {"CREATED", 0},
                                                              {"WHAT", 0}},
                                                             rows, inv.color);
    for (const std::string& problem : problems) {
      std::cerr << "warning: " << problem << "\n";
    }
    return finish_result(inv.json, protocol::proposals_list_json(shown, problems), text);
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_show = nullptr;
  CLI::App* m_diff = nullptr;
  CLI::App* m_approve = nullptr;
  CLI::App* m_reject = nullptr;
  bool m_all = false;
  std::string m_id;
  std::string m_reason;
};

}  // namespace

std::unique_ptr<Command> make_pending_command() { return std::make_unique<PendingCommand>(); }

}  // namespace skillrt::app
