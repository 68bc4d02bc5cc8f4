// `skillrt curate [--dry-run] [--no-merge] [--stale-days N] [--archive-days N]`:
// the curator's pass over the agent-made skills of the writable layer
// (--user: the user's own): active → stale → archived (moved into archive/),
// never deleted; pinned and person-made skills untouched. Then, with a review
// model configured, the merge pass: agent-made skills that overlap go to the
// model, and whatever it changes becomes proposals in the inbox (origin
// "curator"), never a live write.
#include "command.hpp"
#include "core/curator/curate.hpp"
#include "core/curator/merge_candidates.hpp"
#include "core/review/review_model.hpp"
#include "protocol/error_json.hpp"
#include "protocol/review_json.hpp"
#include "protocol/text_table.hpp"
#include "review_runner.hpp"

namespace skillrt::app {
namespace {

class CurateCommand final : public Command {
 public:
  const char* name() const override { return "curate"; }
  const char* summary() const override {
    return "Age agent-made skills: stale after 30 days unused, archived after 90 (never deleted)";
  }
  void configure(CLI::App& sub) override {
    sub.add_flag("--dry-run", m_dry_run, "Show what would change and which skills overlap; change nothing, call no model");
    sub.add_flag("--no-merge", m_no_merge, "Skip the merge pass (overlapping agent skills sent to the review model)");
    sub.add_option("--stale-days", m_stale_days, "Days unused before a skill is stale (default 30)")
        ->check(CLI::Range(1, 36500));
    sub.add_option("--archive-days", m_archive_days, "Days unused before a skill is archived (default 90)")
        ->check(CLI::Range(1, 36500));
  }

  Outcome run(const Invocation& inv) override {
    core::CurateOptions options;
    options.dry_run = m_dry_run;
    options.stale_days = m_stale_days;
    options.archive_days = std::max(m_archive_days, m_stale_days);
    auto report = core::curate_skills(inv.ctx, inv.config, options);
    if (!report) {
      return finish_result(inv.json, protocol::error_result_json(report.error()), "");
    }
    protocol::Json changes = protocol::Json::array();
    std::vector<std::vector<std::string>> rows;
    bool failed = false;
    for (const core::CurateChange& change : report->changes) {
      protocol::Json item = protocol::Json::object();
      item["name"] = change.name;
      item["from"] = core::skill_lifecycle_name(change.from);
      item["to"] = core::skill_lifecycle_name(change.to);
      item["idle_days"] = change.idle_days;
      item["moved_to"] = change.moved_to.empty() ? protocol::Json(nullptr) : protocol::Json(change.moved_to);
      item["error"] = change.error.empty() ? protocol::Json(nullptr) : protocol::Json(change.error);
      changes.push_back(std::move(item));
      failed = failed || !change.error.empty();
      rows.push_back({change.name, std::string(core::skill_lifecycle_name(change.from)) + " -> " +
                                       core::skill_lifecycle_name(change.to),
                      std::to_string(change.idle_days), change.error.empty() ? change.moved_to : "error: " + change.error});
    }
    protocol::Json out = protocol::Json::object();
    out["success"] = !failed;
    out["dry_run"] = report->dry_run;
    out["examined"] = report->examined;
    out["skipped_pinned"] = report->skipped_pinned;
    out["changes"] = std::move(changes);
    std::string text = std::string(m_dry_run ? "Would change" : "Changed") + " " +
                       std::to_string(report->changes.size()) + " of " + std::to_string(report->examined) +
                       " agent-made skills (" + std::to_string(report->skipped_pinned) + " pinned left alone).\n";
    if (!rows.empty()) {
      text += protocol::render_table({{"SKILL", 0}, {"STATE", 0}, {"IDLE DAYS", 0}, {"NOTE", 0}}, rows, inv.color);
    }
    bool merge_failed = false;
    if (!m_no_merge) {
      merge_pass(inv, out, text, merge_failed);
    }
    out["success"] = !failed && !merge_failed;
    if (failed) {
      out["error"] = "some changes could not be made";
    } else if (merge_failed) {
      out["error"] = "a merge review failed";
    }
    return finish_result(inv.json, out, text);
  }

 private:
  // The merge pass: groups of overlapping agent skills; in a dry run only
  // listed, otherwise each group reviewed by the model as the curator.
  void merge_pass(const Invocation& inv, protocol::Json& out, std::string& text, bool& failed) const {
    auto settings = core::review_model_settings(inv.ctx, inv.config);
    if (!settings && !m_dry_run) {
      out["merges"] = protocol::Json::array();
      out["merge_skipped"] = settings.error().message;
      text += "Merge pass skipped: " + settings.error().message + "\n";
      return;
    }
    auto groups = core::find_merge_groups(inv.ctx, inv.config, core::MergeOptions{});
    if (!groups) {
      out["merges"] = protocol::Json::array();
      out["merge_skipped"] = groups.error().message;
      text += "Merge pass skipped: " + groups.error().message + "\n";
      failed = true;
      return;
    }
    protocol::Json merges = protocol::Json::array();
    for (const core::MergeGroup& group : *groups) {
      protocol::Json item = protocol::Json::object();
      protocol::Json skills = protocol::Json::array();
      std::string names;
      core::ReviewJob job;
      job.ctx = inv.ctx;
      job.origin = core::WriteOrigin::curator;
      job.prompt.skills = true;
      for (const core::MergeCandidate& candidate : group.skills) {
        skills.push_back({{"name", candidate.name}, {"description", candidate.description}, {"relative", candidate.relative}});
        names += (names.empty() ? "" : ", ") + candidate.name;
        job.prompt.merge.emplace_back(candidate.name, candidate.description);
      }
      job.conversation_id = "curator-merge:" + group.skills.front().name;
      text += std::string(m_dry_run ? "Would ask the model to merge: " : "Asked the model to merge: ") + names + "\n";
      if (!m_dry_run) {
        std::stop_source never;  // Ctrl-C ends the process
        const core::ReviewReport report = run_review_job(job, inv.config, never.get_token());
        item = protocol::review_report_json(report);
        failed = failed || report.ending == core::ReviewEnding::model_error;
        text += "  " + core::review_summary(report) + "\n";
      }
      item["skills"] = std::move(skills);
      item["overlap"] = group.overlap;
      merges.push_back(std::move(item));
    }
    if (!m_dry_run && !groups->empty()) {
      text += "Review the proposals with: skillrt pending list\n";
    }
    out["merges"] = std::move(merges);
  }

  bool m_dry_run = false;
  bool m_no_merge = false;
  int m_stale_days = 30;
  int m_archive_days = 90;
};

}  // namespace

std::unique_ptr<Command> make_curate_command() { return std::make_unique<CurateCommand>(); }

}  // namespace skillrt::app
