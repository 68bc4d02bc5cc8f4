#include "protocol/manage_json.hpp"

#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

Json change_json(const core::ManageResult& result) {
  Json change = Json::object();
  if (result.change_description) {
    change["description"] = json_text(*result.change_description);
  }
  if (result.full_rewrite_change) {
    change["full_rewrite"] = true;
  }
  if (result.change_old) {
    change["old"] = json_text(*result.change_old);
  }
  if (result.change_new) {
    change["new"] = json_text(*result.change_new);
  }
  return change;
}

} // namespace

Json manage_result_json(const core::ManageResult& result) {
  Json out = Json::object();
  out["success"] = result.success;
  if (result.success) {
    out["message"] = json_text(result.message);
    if (result.path) {
      out["path"] = json_text(*result.path);
    }
    if (result.skill_md) {
      out["skill_md"] = json_text(*result.skill_md);
    }
    Json change = change_json(result);
    if (!change.empty()) {
      out["_change"] = std::move(change);
    }
    if (result.category) {
      out["category"] = json_text(*result.category);
    }
    if (result.hint) {
      out["hint"] = json_text(*result.hint);
    }
    if (result.replacements) {
      out["replacements"] = *result.replacements;
    }
    if (result.strategy) {
      out["strategy"] = *result.strategy;
    }
    if (result.absorbed_into) {
      out["absorbed_into"] = json_text(*result.absorbed_into);
    }
  } else {
    out["error"] = json_text(result.error);
    if (result.matches) {
      out["matches"] = json_text_list(*result.matches);
    }
    if (result.available_skills) {
      out["available_skills"] = json_text_list(*result.available_skills);
    }
    if (result.has_available_files) {
      out["available_files"] = result.available_files.empty() ? Json(nullptr) : json_text_list(result.available_files);
    }
    if (result.file_preview) {
      out["file_preview"] = json_text(*result.file_preview);
    }
    if (result.hint) {
      out["hint"] = json_text(*result.hint);
    }
    if (result.confirmation_required) {
      out["confirmation_required"] = true;
    }
    if (result.scan_report) {
      out["scan_report"] = json_text(*result.scan_report);
    }
  }
  if (!result.warnings.empty()) {
    out["warnings"] = json_text_list(result.warnings);
  }
  return out;
}

Json skill_manage_json(const core::Context& ctx, const core::Config& cfg, const core::ManageRequest& request) {
  return manage_result_json(core::manage_skill(ctx, cfg, request));
}

} // namespace skillrt::protocol
