// JSON of `sync` and `reset` (see sync_json.hpp).
#include "protocol/sync_json.hpp"

#include <string>
#include <vector>

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
  out["action"] = result.action;
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

} // namespace skillrt::protocol
