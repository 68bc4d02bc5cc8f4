#include "protocol/manage_json.hpp"

#include "core/yaml/utf8.hpp"

namespace skillrt::protocol {
namespace {

std::string text(std::string_view raw) {
  return core::sanitize_utf8(raw);
}

Json text_list(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& item : items) {
    out.push_back(text(item));
  }
  return out;
}

Json change_json(const core::ManageResult& result) {
  Json change = Json::object();
  if (result.change_description) {
    change["description"] = text(*result.change_description);
  }
  if (result.full_rewrite_change) {
    change["full_rewrite"] = true;
  }
  if (result.change_old) {
    change["old"] = text(*result.change_old);
  }
  if (result.change_new) {
    change["new"] = text(*result.change_new);
  }
  return change;
}

} // namespace

Json manage_result_json(const core::ManageResult& result) {
  Json out = Json::object();
  out["success"] = result.success;
  if (result.success) {
    out["message"] = text(result.message);
    if (result.path) {
      out["path"] = text(*result.path);
    }
    if (result.skill_md) {
      out["skill_md"] = text(*result.skill_md);
    }
    Json change = change_json(result);
    if (!change.empty()) {
      out["_change"] = std::move(change);
    }
    if (result.category) {
      out["category"] = text(*result.category);
    }
    if (result.hint) {
      out["hint"] = text(*result.hint);
    }
    if (result.replacements) {
      out["replacements"] = *result.replacements;
    }
    if (result.strategy) {
      out["strategy"] = *result.strategy;
    }
    if (result.absorbed_into) {
      out["absorbed_into"] = text(*result.absorbed_into);
    }
  } else {
    out["error"] = text(result.error);
    if (result.matches) {
      out["matches"] = text_list(*result.matches);
    }
    if (result.available_skills) {
      out["available_skills"] = text_list(*result.available_skills);
    }
    if (result.has_available_files) {
      out["available_files"] = result.available_files.empty() ? Json(nullptr) : text_list(result.available_files);
    }
    if (result.file_preview) {
      out["file_preview"] = text(*result.file_preview);
    }
    if (result.hint) {
      out["hint"] = text(*result.hint);
    }
    if (result.confirmation_required) {
      out["confirmation_required"] = true;
    }
    if (result.scan_report) {
      out["scan_report"] = text(*result.scan_report);
    }
  }
  if (!result.warnings.empty()) {
    out["warnings"] = text_list(result.warnings);
  }
  return out;
}

Json skill_manage_json(const core::Context& ctx, const core::Config& cfg, const core::ManageRequest& request) {
  return manage_result_json(core::manage_skill(ctx, cfg, request));
}

} // namespace skillrt::protocol
