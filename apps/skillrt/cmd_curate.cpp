// `skillrt curate [--dry-run] [--stale-days N] [--archive-days N]`: the
// curator's pass over the agent-made skills of the writable layer (--user:
// the user's own): active → stale → archived (moved into archive/), never
// deleted; pinned and person-made skills untouched.
#include "command.hpp"
#include "core/curator/curate.hpp"
#include "protocol/error_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::app {
namespace {

class CurateCommand final : public Command {
 public:
  const char* name() const override { return "curate"; }
  const char* summary() const override {
    return "Age agent-made skills: stale after 30 days unused, archived after 90 (never deleted)";
  }
  void configure(CLI::App& sub) override {
    sub.add_flag("--dry-run", m_dry_run, "Show what would change, change nothing");
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
    if (failed) {
      out["error"] = "some changes could not be made";
    }
    std::string text = std::string(m_dry_run ? "Would change" : "Changed") + " " +
                       std::to_string(report->changes.size()) + " of " + std::to_string(report->examined) +
                       " agent-made skills (" + std::to_string(report->skipped_pinned) + " pinned left alone).\n";
    if (!rows.empty()) {
      text += protocol::render_table({{"SKILL", 0}, {"STATE", 0}, {"IDLE DAYS", 0}, {"NOTE", 0}}, rows, inv.color);
    }
    return finish_result(inv.json, out, text);
  }

 private:
  bool m_dry_run = false;
  int m_stale_days = 30;
  int m_archive_days = 90;
};

}  // namespace

std::unique_ptr<Command> make_curate_command() { return std::make_unique<CurateCommand>(); }

}  // namespace skillrt::app
