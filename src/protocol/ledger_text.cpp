// The ledger's answers for people (declared in ledger_json.hpp).
#include <string>
#include <vector>

#include "protocol/ledger_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::protocol {
namespace {

constexpr std::size_t k_max_skill_column = 30;

std::string finding_line(const core::LedgerFinding& finding) {
  std::string line = std::string(core::ledger_check_name(finding.kind));
  if (finding.seq > 0) {
    line += " (entry " + std::to_string(finding.seq) + ")";
  }
  return line + ": " + finding.message + "\n";
}

} // namespace

std::string ledger_list_text(const std::vector<core::LedgerEntry>& entries, bool color) {
  if (entries.empty()) {
    return "No ledger entries.\n";
  }
  std::vector<std::vector<std::string>> rows;
  rows.reserve(entries.size());
  for (const core::LedgerEntry& entry : entries) {
    std::string actor = core::ledger_actor_name(entry.actor);
    if (!entry.actor_id.empty()) {
      actor += ":" + entry.actor_id;
    }
    rows.push_back({entry.id, std::to_string(entry.seq), entry.time, actor, core::ledger_action_name(entry.action),
                    entry.skill, entry.note.empty() ? "-" : entry.note});
  }
  return render_table(
      {{"ID", 0}, {"SEQ", 0}, {"TIME", 0}, {"ACTOR", 0}, {"ACTION", 0}, {"SKILL", k_max_skill_column}, {"NOTE", 0}},
      rows, color, 140);
}

std::string ledger_verify_text(const core::LedgerVerifyReport& report) {
  std::string out;
  for (const core::LedgerFinding& finding : report.problems) {
    out += finding_line(finding);
  }
  for (const core::LedgerFinding& finding : report.notes) {
    out += "note: " + finding_line(finding);
  }
  if (report.ok()) {
    out += "ledger intact: " + std::to_string(report.entries) + " entries, " + std::to_string(report.blobs) +
           " blobs checked\n";
  } else {
    out += "ledger NOT intact: " + std::to_string(report.problems.size()) + " problem" +
           (report.problems.size() == 1 ? "" : "s") + " in " + std::to_string(report.entries) + " entries\n";
  }
  return out;
}

std::string ledger_rollback_message(const core::LedgerRollback& rollback) {
  const core::LedgerEntry& undone = rollback.undone;
  std::string what;
  if (!undone.before) {
    what = "removed it (entry " + undone.id + " had created it)";
  } else if (!rollback.entry.before) {
    what = "recreated it as it was before entry " + undone.id;
  } else {
    what = "restored it as it was before entry " + undone.id;
  }
  return "Rolled back " + std::string(core::ledger_action_name(undone.action)) + " " + undone.id + " of '" +
         undone.skill + "': " + what + "; recorded as entry " + rollback.entry.id + ".";
}

} // namespace skillrt::protocol
