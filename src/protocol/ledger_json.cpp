// JSON of the ledger commands (ledger_json.hpp).
#include "protocol/ledger_json.hpp"

#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

Json snapshot_json(const std::optional<core::LedgerSnapshot>& snapshot) {
  if (!snapshot) {
    return Json(nullptr);
  }
  Json files = Json::array();
  for (const core::LedgerFile& file : snapshot->files) {
    Json item = Json::object();
    item["path"] = json_text(file.path);
    item["size"] = file.size;
    item["sha256"] = file.sha256;
    item["mode"] = file.mode;
    files.push_back(std::move(item));
  }
  Json out = Json::object();
  out["hash"] = snapshot->hash;
  out["files"] = std::move(files);
  return out;
}

Json findings_json(const std::vector<core::LedgerFinding>& findings) {
  Json out = Json::array();
  for (const core::LedgerFinding& finding : findings) {
    Json item = Json::object();
    item["kind"] = core::ledger_check_name(finding.kind);
    item["seq"] = finding.seq;
    item["line"] = finding.line;
    item["message"] = json_text(finding.message);
    out.push_back(std::move(item));
  }
  return out;
}

} // namespace

Json ledger_entry_json(const core::LedgerEntry& entry) {
  Json out = Json::object();
  out["seq"] = entry.seq;
  out["id"] = entry.id;
  out["time"] = entry.time;
  out["actor"] = core::ledger_actor_name(entry.actor);
  out["actor_id"] = json_text(entry.actor_id);
  out["action"] = core::ledger_action_name(entry.action);
  out["layer"] = core::layer_name(entry.layer);
  out["skill"] = json_text(entry.skill);
  out["root"] = json_text(entry.root);
  out["path"] = json_text(entry.path);
  out["before"] = snapshot_json(entry.before);
  out["after"] = snapshot_json(entry.after);
  out["note"] = json_text(entry.note);
  out["rolls_back"] = entry.rolls_back;
  out["prev"] = entry.prev;
  out["hash"] = entry.hash;
  return out;
}

Json ledger_list_json(const core::Ledger& ledger, const std::vector<core::LedgerEntry>& entries) {
  Json out = Json::object();
  out["success"] = true;
  out["ledger"] = json_text(ledger.dir.string());
  Json items = Json::array();
  for (const core::LedgerEntry& entry : entries) {
    items.push_back(ledger_entry_json(entry));
  }
  out["entries"] = std::move(items);
  return out;
}

Json ledger_verify_json(const core::Ledger& ledger, const core::LedgerVerifyReport& report) {
  Json out = Json::object();
  out["success"] = report.ok();
  out["ledger"] = json_text(ledger.dir.string());
  out["entries"] = report.entries;
  out["blobs"] = report.blobs;
  out["problems"] = findings_json(report.problems);
  out["notes"] = findings_json(report.notes);
  return out;
}

Json ledger_rollback_json(const core::LedgerRollback& rollback) {
  Json out = Json::object();
  out["success"] = true;
  out["message"] = json_text(ledger_rollback_message(rollback));
  out["rolled_back"] = rollback.undone.id;
  out["skill"] = json_text(rollback.undone.skill);
  if (!rollback.skill_dir.empty()) {
    out["skill_dir"] = json_text(rollback.skill_dir.string());
  }
  out["entry"] = ledger_entry_json(rollback.entry);
  if (!rollback.warnings.empty()) {
    out["warnings"] = json_text_list(rollback.warnings);
  }
  return out;
}

} // namespace skillrt::protocol
