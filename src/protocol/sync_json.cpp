// JSON of `sync` and `reset` (see sync_json.hpp).
#include "protocol/sync_json.hpp"

#include <string>
#include <vector>

#include "core/util/utf8.hpp"
#include "protocol/hub_json.hpp"

namespace skillrt::protocol {
namespace {

Json names(const std::vector<std::string>& list) {
  Json out = Json::array();
  for (const std::string& name : list) {
    out.push_back(name);
  }
  return out;
}

// The §2.13 rule 9 keys and ours, after success/error.
void add_counters(Json& out, const core::sync::SyncResult& result) {
  out["copied"] = names(result.copied);
  out["updated"] = names(result.updated);
  out["skipped"] = result.skipped;
  out["user_modified"] = names(result.user_modified);
  out["cleaned"] = names(result.cleaned);
  out["relocated"] = names(result.relocated);
  out["symlinked"] = names(result.symlinked);
  out["total_bundled"] = result.total_bundled;
  out["shadowed_by_external"] = names(result.shadowed_by_external);
  out["skipped_opt_out"] = result.skipped_opt_out;
  out["bundled_dir"] = result.bundled_dir.string();
  out["descriptions_copied"] = names(result.descriptions_copied);
  out["warnings"] = names(result.warnings);
  out["errors"] = names(result.errors);
}

// success/error of a report whose per-skill problems land in `errors`.
Json head_for(const std::vector<std::string>& errors, const char* what) {
  Json out = Json::object();
  out["success"] = errors.empty();
  if (!errors.empty()) {
    out["error"] = std::to_string(errors.size()) + (errors.size() == 1 ? " problem" : " problems") + " during " + what +
                   "; first: " + errors.front();
  }
  return out;
}

std::string path_text(const std::filesystem::path& path) {
  return core::sanitize_utf8(path.string());
}

} // namespace

Json sync_result_json(const core::sync::SyncResult& result) {
  Json out = Json::object();
  out["success"] = result.errors.empty();
  if (!result.errors.empty()) {
    out["error"] = std::to_string(result.errors.size()) + (result.errors.size() == 1 ? " problem" : " problems") +
                   " during sync; first: " + result.errors.front();
  }
  add_counters(out, result);
  return out;
}

Json reset_result_json(const core::sync::ResetResult& result, std::string_view name) {
  Json out = Json::object();
  out["success"] = result.ok;
  if (!result.ok) {
    out["error"] = result.message;
  }
  out["name"] = std::string(name);
  out["action"] = core::sync::reset_action_name(result.action);
  out["message"] = result.message;
  if (result.synced) {
    Json synced = Json::object();
    add_counters(synced, *result.synced);
    out["synced"] = std::move(synced);
  } else {
    out["synced"] = nullptr;
  }
  return out;
}

Json bundled_diff_json(const core::sync::BundledDiff& diff) {
  Json out = Json::object();
  out["success"] = true;
  out["name"] = diff.name;
  out["path"] = path_text(diff.path);
  out["bundled_path"] = path_text(diff.bundled_path);
  out["tracked"] = diff.tracked;
  out["origin_known"] = diff.origin_known;
  if (diff.state) {
    out["state"] = core::sync::copy_state_name(*diff.state);
  } else {
    out["state"] = nullptr;
  }
  out["identical"] = diff.identical;
  out["files"] = tree_diff_files_json(diff.diff);
  out["diff"] = core::sanitize_utf8(diff.diff.text);
  out["diff_truncated"] = diff.diff.truncated;
  return out;
}

Json modified_report_json(const core::sync::ModifiedReport& report) {
  Json out = head_for(report.errors, "the check");
  Json modified = Json::array();
  for (const core::sync::ModifiedSkill& skill : report.modified) {
    modified.push_back({{"name", skill.name}, {"path", path_text(skill.path)}, {"origin_known", skill.origin_known}});
  }
  out["modified"] = std::move(modified);
  out["symlinked"] = names(report.symlinked);
  out["total_bundled"] = report.total_bundled;
  out["bundled_dir"] = path_text(report.bundled_dir);
  out["errors"] = names(report.errors);
  return out;
}

Json opt_out_result_json(const core::sync::OptOutResult& result) {
  Json out = Json::object();
  out["success"] = true;
  out["action"] = core::sync::opt_out_action_name(result.action);
  out["message"] = result.message;
  out["opted_out"] = result.opted_out;
  out["changed"] = result.changed;
  out["marker"] = path_text(result.marker);
  return out;
}

Json prune_result_json(const core::sync::PruneResult& result) {
  Json out = head_for(result.errors, "prune");
  out["dry_run"] = result.dry_run;
  Json removed = Json::array();
  for (const core::sync::PrunedSkill& skill : result.removed) {
    removed.push_back({{"name", skill.name}, {"path", path_text(skill.path)}});
  }
  out["removed"] = std::move(removed);
  out["kept_differing"] = names(result.kept_differing);
  out["symlinked"] = names(result.symlinked);
  out["bundled_dir"] = path_text(result.bundled_dir);
  out["errors"] = names(result.errors);
  return out;
}

} // namespace skillrt::protocol
