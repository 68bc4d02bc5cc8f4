// JSON of the hub commands (install, uninstall, check, update, audit): one
// object each, `success` first, `error` (and `code`) when the operation could
// not run. Paths and messages are made valid UTF-8.
#pragma once

#include <optional>
#include <string>

#include "core/diff/unified_diff.hpp"
#include "core/hub/audit.hpp"
#include "core/hub/check.hpp"
#include "core/hub/install.hpp"
#include "core/hub/plugin_install.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/uninstall.hpp"
#include "core/hub/update.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// A recorded enum as the files spell it (lock.json, audit.log): its name, or
// "" when nothing was recorded.
template <typename Enum>
std::string name_or_empty(const std::optional<Enum>& value, const char* (*name_of)(Enum)) {
  return value ? std::string(name_of(*value)) : std::string();
}

// The files of a tree diff: [{path, change (added|removed|modified|binary), added, removed}]
// (`update` and `sync --diff` use the same shape).
Json tree_diff_files_json(const core::diff::TreeDiff& diff);

// The lock.json entry as lock.json spells it.
Json lock_entry_json(const core::hub::LockEntry& entry);

// {success, error?, code?, root, identifier, recovered: [...], skills: [{name, bundle_path, path, outcome,
//  reason, validation_errors, warnings, scan (as `scan --json` without success), blocked_by, dismissal,
//  signature {status, key, message, required}, lock_entry?}]}
// blocked_by: [{id, severity, category, file, line, summary, help_uri}], the findings that put the skill over
// the install policy's line; dismissal: {file, yaml}, the operator dismissal file that would allow it (null
// when the policy did not block).
Json install_outcome_json(const core::hub::InstallOutcome& outcome);

// One skill's judgement in an install: {name, bundle_path, path, outcome, reason,
// validation_errors, warnings, scan, blocked_by, dismissal, signature, lock_entry, content_hash}.
Json install_report_json(const core::hub::InstallReport& report);

// {success, error?, code?, root, identifier, name (the namespace), version, path, outcome, reason,
//  warnings, scan (the whole plugin folder), signature, lock_entry, recovered, skills: [as in install]}
Json plugin_install_outcome_json(const core::hub::PluginInstallOutcome& outcome);

// {success, error?, code?, name, path, message, recovered}
Json uninstall_outcome_json(const core::hub::UninstallOutcome& outcome);

// {success, error?, code?, skills: [{name, status, install_path, source, invalid_install, missing,
//  locally_modified, upstream, recorded_hash, current_hash, latest_hash, message}], recovered}
Json check_outcome_json(const core::hub::CheckOutcome& outcome);

// {success, error?, code?, skills: [{name, status, reason, old_hash, new_hash, files: [{path, change,
//  added, removed}], diff, diff_truncated, scan?, signature?, blocked_by?, dismissal? (as in install)}],
//  recovered}
Json update_outcome_json(const core::hub::UpdateOutcome& outcome);

// {success, error?, code?, issues, skills: [{name, install_path, trust_level, recorded_verdict, verdict,
//  verdict_changed, decision, reason, drift, recorded_hash, current_hash, missing, invalid_install,
//  signature {status, key, ok, message}, findings, issues}], untracked, recovered}
Json audit_outcome_json(const core::hub::AuditOutcome& outcome);

// The same outcomes for people (hub_text.cpp), as tables in `list`'s layout
// (render_table): NAME, CATEGORY (the install path without the name; "-" at
// the top) and the columns of the command, then the details that do not fit a
// row (audit issues, update scan reports and diffs) under the skill's name.
std::string check_outcome_text(const core::hub::CheckOutcome& outcome, bool color);
std::string audit_outcome_text(const core::hub::AuditOutcome& outcome, bool color);
std::string update_outcome_text(const core::hub::UpdateOutcome& outcome, bool color);

// A policy block for people: each finding over the line (rule id, severity,
// where, summary) and the operator dismissal file to write, indented; "" when
// the judgement holds no block.
std::string guard_block_text(const core::hub::Judgement& judgement);

} // namespace skillrt::protocol
