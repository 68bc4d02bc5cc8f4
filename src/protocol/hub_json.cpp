// JSON of the hub commands (see hub_json.hpp).
#include "protocol/hub_json.hpp"

#include "core/util/utf8.hpp"
#include "protocol/error_json.hpp"
#include "protocol/scan_json.hpp"

namespace skillrt::protocol {
namespace {

using namespace core::hub;

std::string text(const std::string& s) {
  return core::sanitize_utf8(s);
}
std::string text(const std::filesystem::path& p) {
  return core::sanitize_utf8(p.string());
}

// `success` first, then error and code when the operation could not run.
Json head(bool success, const std::optional<Error>& error) {
  Json out = Json::object();
  out["success"] = success && !error;
  if (error) {
    out["error"] = text(error->message);
    out["code"] = error_code_name(error->code);
  }
  return out;
}

Json recovered_json(const std::vector<RecoveryNote>& notes) {
  Json out = Json::array();
  for (const RecoveryNote& note : notes) {
    Json item = Json::object();
    item["name"] = text(note.name);
    item["action"] = audit_action_name(note.action);
    item["completed"] = note.completed;
    item["message"] = text(note.message);
    out.push_back(std::move(item));
  }
  return out;
}

Json signature_json(const std::optional<core::hub::SignatureCheck>& check, bool required) {
  Json out = Json::object();
  out["status"] = check ? signature_status_name(check->status) : "unknown";
  out["key"] = check ? text(check->key) : std::string();
  out["message"] = check ? text(check->message) : std::string();
  out["required"] = required;
  return out;
}

// A block by the install policy, explained: the findings over the line
// (blocked_by) and the operator dismissal file that would allow the skill
// (dismissal {file, yaml}); [] and null when the policy did not block.
void add_guard_block(Json& out, const Judgement& judgement) {
  Json blocked_by = Json::array();
  for (const core::GuardFinding& f : judgement.blocking) {
    Json item = Json::object();
    item["id"] = text(f.pattern_id);
    item["severity"] = core::threat_severity_name(f.severity);
    item["category"] = core::category_name(f.category);
    item["file"] = text(f.file);
    item["line"] = f.line;
    const std::optional<core::RuleHelp> help = core::rule_help(f.pattern_id);
    item["summary"] = help ? std::string(help->summary) : std::string();
    item["help_uri"] = core::help_uri(f.pattern_id);
    blocked_by.push_back(std::move(item));
  }
  out["blocked_by"] = std::move(blocked_by);
  if (judgement.dismissal_yaml.empty()) {
    out["dismissal"] = nullptr;
  } else {
    out["dismissal"] = {{"file", text(judgement.dismissal_file)}, {"yaml", text(judgement.dismissal_yaml)}};
  }
}

Json scan_json(const std::optional<core::ScanResult>& scan, const std::optional<core::PolicyDecision>& policy) {
  if (!scan || !policy) {
    return nullptr;
  }
  Json out = scan_result_json(*scan, *policy);
  out.erase("success");
  return out;
}

} // namespace

Json tree_diff_files_json(const core::diff::TreeDiff& diff) {
  Json out = Json::array();
  for (const core::diff::FileDiff& f : diff.files) {
    Json item = Json::object();
    item["path"] = text(f.path);
    item["change"] = core::diff::file_change_name(f.change);
    item["added"] = f.added_lines;
    item["removed"] = f.removed_lines;
    out.push_back(std::move(item));
  }
  return out;
}

Json lock_entry_json(const LockEntry& e) {
  Json out = Json::object();
  out["source"] = name_or_empty(e.source, source_kind_name);
  out["identifier"] = text(e.identifier);
  out["source_spec"] = text(e.source_spec);
  out["ref"] = text(e.ref);
  out["revision"] = text(e.revision);
  out["subdir"] = text(e.subdir);
  out["trust_level"] = name_or_empty(e.trust_level, core::trust_level_name);
  out["scan_verdict"] = name_or_empty(e.scan_verdict, core::verdict_name);
  out["scanner_version"] = text(e.scanner_version);
  out["findings"] = {{"total", e.findings.total},
                     {"critical", e.findings.critical},
                     {"high", e.findings.high},
                     {"medium", e.findings.medium},
                     {"low", e.findings.low}};
  out["content_hash"] = text(e.content_hash);
  out["install_path"] = text(e.install_path);
  Json files = Json::array();
  for (const std::string& f : e.files) {
    files.push_back(text(f));
  }
  out["files"] = std::move(files);
  out["signature"] = {{"status", name_or_empty(e.signature_status, signature_status_name)}, {"key", text(e.signature_key)}};
  out["installed_at"] = e.installed_at;
  out["updated_at"] = e.updated_at;
  return out;
}

namespace {

Json text_list(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& item : items) {
    out.push_back(text(item));
  }
  return out;
}

// The fields a judgement gives an install's answer, skill or plugin alike:
// warnings, the guard's scan, the signature and what lock.json recorded.
void add_judgement(Json& out, const Judgement& judgement, const std::optional<LockEntry>& entry) {
  out["warnings"] = text_list(judgement.warnings);
  out["scan"] = scan_json(judgement.scan, judgement.policy);
  add_guard_block(out, judgement);
  out["signature"] = signature_json(judgement.signature, judgement.signature_required);
  out["lock_entry"] = entry ? lock_entry_json(*entry) : Json(nullptr);
}

}  // namespace

Json install_report_json(const InstallReport& r) {
  Json item = Json::object();
  item["name"] = text(r.name);
  item["bundle_path"] = text(r.relative);
  item["path"] = text(r.path);
  item["outcome"] = skill_outcome_name(r.outcome);
  item["reason"] = text(r.reason);
  item["validation_errors"] = text_list(r.judgement.validation_errors);
  add_judgement(item, r.judgement, r.entry);
  item["content_hash"] = r.content_hash;
  return item;
}

namespace {

Json reports_json(const std::vector<InstallReport>& reports) {
  Json out = Json::array();
  for (const InstallReport& r : reports) {
    out.push_back(install_report_json(r));
  }
  return out;
}

}  // namespace

Json install_outcome_json(const InstallOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  out["root"] = text(outcome.root);
  out["identifier"] = text(outcome.identifier);
  out["recovered"] = recovered_json(outcome.recovered);
  out["skills"] = reports_json(outcome.skills);
  if (!outcome.error && !outcome.success) {
    out["error"] = "not every skill of the bundle was installed (see skills[].reason)";
  }
  return out;
}

Json plugin_install_outcome_json(const PluginInstallOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  out["root"] = text(outcome.root);
  out["identifier"] = text(outcome.identifier);
  out["name"] = text(outcome.name);
  out["version"] = text(outcome.version);
  out["path"] = text(outcome.path);
  out["outcome"] = skill_outcome_name(outcome.outcome);
  out["reason"] = text(outcome.reason);
  add_judgement(out, outcome.judgement, outcome.entry);
  out["recovered"] = recovered_json(outcome.recovered);
  out["skills"] = reports_json(outcome.skills);
  if (!outcome.error && !outcome.success) {
    out["error"] = "the plugin was not installed: " + text(outcome.reason);
  }
  return out;
}

Json uninstall_outcome_json(const UninstallOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  out["name"] = text(outcome.name);
  out["path"] = text(outcome.path);
  out["message"] = text(outcome.message);
  out["recovered"] = recovered_json(outcome.recovered);
  return out;
}

Json check_outcome_json(const CheckOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  Json skills = Json::array();
  for (const CheckRow& row : outcome.rows) {
    Json item = Json::object();
    item["name"] = text(row.name);
    item["status"] = core::hub::check_status_name(row.status);
    item["install_path"] = text(row.install_path);
    item["source"] = text(row.source_spec);
    item["invalid_install"] = row.invalid_install;
    item["missing"] = row.missing;
    item["locally_modified"] = row.locally_modified;
    item["upstream"] = upstream_status_name(row.upstream);
    item["recorded_hash"] = row.recorded_hash;
    item["current_hash"] = row.current_hash;
    item["latest_hash"] = row.latest_hash;
    item["message"] = text(row.message);
    skills.push_back(std::move(item));
  }
  out["skills"] = std::move(skills);
  out["recovered"] = recovered_json(outcome.recovered);
  return out;
}

Json update_outcome_json(const UpdateOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  Json skills = Json::array();
  for (const UpdateReport& r : outcome.skills) {
    Json item = Json::object();
    item["name"] = text(r.name);
    item["status"] = core::hub::update_status_name(r.status);
    item["reason"] = text(r.reason);
    item["old_hash"] = r.old_hash;
    item["new_hash"] = r.new_hash;
    item["files"] = r.diff ? tree_diff_files_json(*r.diff) : Json::array();
    item["diff"] = r.diff ? text(r.diff->text) : std::string();
    item["diff_truncated"] = r.diff ? r.diff->truncated : false;
    if (r.judgement) {
      item["scan"] = scan_json(r.judgement->scan, r.judgement->policy);
      item["signature"] = signature_json(r.judgement->signature, r.judgement->signature_required);
      add_guard_block(item, *r.judgement);
    }
    skills.push_back(std::move(item));
  }
  out["skills"] = std::move(skills);
  out["recovered"] = recovered_json(outcome.recovered);
  if (!outcome.error && !outcome.success) {
    out["error"] = "some skills could not be updated (see skills[].status)";
  }
  return out;
}

Json audit_outcome_json(const AuditOutcome& outcome) {
  Json out = head(outcome.success, outcome.error);
  out["issues"] = outcome.issue_count;
  Json skills = Json::array();
  for (const AuditRow& row : outcome.rows) {
    Json item = Json::object();
    item["name"] = text(row.name);
    item["install_path"] = text(row.install_path);
    item["trust_level"] = name_or_empty(row.trust_level, core::trust_level_name);
    item["recorded_verdict"] = name_or_empty(row.recorded_verdict, core::verdict_name);
    item["verdict"] = row.scan ? core::verdict_name(row.scan->verdict) : "n/a";
    item["verdict_changed"] = row.verdict_changed;
    item["decision"] = row.policy ? core::install_decision_name(row.policy->decision) : "n/a";
    item["reason"] = row.policy ? text(row.policy->reason) : std::string();
    item["recorded_scanner_version"] = text(row.recorded_scanner);
    item["scanner_version"] = std::string(core::scanner_version());
    item["drift"] = row.drift;
    item["recorded_hash"] = text(row.recorded_hash);
    item["current_hash"] = row.current_hash;
    item["missing"] = row.missing;
    item["invalid_install"] = row.invalid_install;
    Json sig = Json::object();
    sig["status"] = row.signature ? signature_status_name(row.signature->status) : "unknown";
    sig["key"] = row.signature ? text(row.signature->key) : std::string();
    sig["ok"] = row.signature_ok;
    sig["message"] = text(row.signature_message);
    item["signature"] = std::move(sig);
    Json findings = Json::array();
    if (row.scan) {
      for (const core::GuardFinding& f : row.scan->findings) {
        findings.push_back(guard_finding_json(f));
      }
    }
    item["findings"] = std::move(findings);
    Json issues = Json::array();
    for (const std::string& i : row.issues) {
      issues.push_back(text(i));
    }
    item["issues"] = std::move(issues);
    skills.push_back(std::move(item));
  }
  out["skills"] = std::move(skills);
  Json untracked = Json::array();
  for (const std::string& u : outcome.untracked) {
    untracked.push_back(text(u));
  }
  out["untracked"] = std::move(untracked);
  out["recovered"] = recovered_json(outcome.recovered);
  if (!outcome.error && !outcome.success) {
    out["error"] = std::to_string(outcome.issue_count) + " issue(s) found";
  }
  return out;
}

} // namespace skillrt::protocol
