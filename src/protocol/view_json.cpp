#include "protocol/view_json.hpp"

#include "core/discovery/roots.hpp"
#include "core/view/linked_files.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

Json groups_json(const core::FileGroups& groups) {
  Json out = Json::object();
  for (const auto& [group, files] : groups) {
    out[group] = json_text_list(files);
  }
  return out;
}

Json env_requirements_json(const std::vector<core::EnvRequirement>& entries) {
  Json out = Json::array();
  for (const core::EnvRequirement& entry : entries) {
    Json item = Json::object();
    item["name"] = entry.name;
    item["prompt"] = entry.prompt;
    if (entry.help) {
      item["help"] = *entry.help;
    }
    if (entry.required_for) {
      item["required_for"] = *entry.required_for;
    }
    if (entry.optional) {
      item["optional"] = true;
    }
    out.push_back(std::move(item));
  }
  return out;
}

} // namespace

Json view_failure_json(const core::ViewFailure& failure) {
  Json out = Json::object();
  out["success"] = false;
  out["error"] = json_text(failure.error);
  if (failure.matches) {
    out["matches"] = json_text_list(*failure.matches);
  }
  if (failure.available_skills) {
    out["available_skills"] = json_text_list(*failure.available_skills);
  }
  if (failure.available_files) {
    out["available_files"] = groups_json(*failure.available_files);
  }
  if (failure.readiness_status) {
    out["readiness_status"] = core::readiness_status_name(*failure.readiness_status);
  }
  if (failure.hint) {
    out["hint"] = *failure.hint;
  }
  return out;
}

Json skill_document_json(const core::SkillDocument& doc) {
  const core::Readiness& ready = doc.readiness;
  Json out = Json::object();
  out["success"] = true;
  out["name"] = json_text(doc.name);
  out["description"] = yaml_to_json(doc.description);
  out["tags"] = json_text_list(doc.tags);
  out["related_skills"] = json_text_list(doc.related_skills);
  out["content"] = doc.bundle_banner.empty() ? doc.content : doc.bundle_banner + "\n\n" + doc.content;
  out["path"] = json_text(doc.path);
  out["skill_dir"] = doc.skill_dir ? Json(json_text(doc.skill_dir->string())) : Json(nullptr);
  out["org_provenance"] = nullptr;
  out["linked_files"] = doc.linked_files.empty() ? Json(nullptr) : groups_json(doc.linked_files);
  out["usage_hint"] = doc.linked_files.empty() ? Json(nullptr) : Json(std::string(core::k_linked_files_usage_hint));
  out["required_environment_variables"] = env_requirements_json(ready.required_environment_variables);
  out["required_commands"] = Json::array();
  out["missing_required_environment_variables"] = ready.missing_required_environment_variables;
  out["missing_credential_files"] = json_text_list(ready.missing_credential_files);
  out["missing_required_commands"] = Json::array();
  out["setup_needed"] = ready.setup_needed;
  out["setup_skipped"] = ready.setup_skipped;
  out["readiness_status"] = core::readiness_status_name(ready.readiness_status);
  out["_source_path"] = json_text(doc.source_path.string());
  if (ready.setup_help) {
    out["setup_help"] = *ready.setup_help;
  }
  if (ready.setup_note) {
    out["setup_note"] = *ready.setup_note;
  }
  if (doc.compatibility) {
    out["compatibility"] = yaml_to_json(*doc.compatibility);
  }
  if (doc.metadata) {
    out["metadata"] = yaml_to_json(*doc.metadata);
  }
  out["source"] = core::tier_name(doc.tier);
  if (!doc.plugin.empty()) {
    out["plugin"] = json_text(doc.plugin);
  }
  return out;
}

Json skill_file_json(const core::SkillFile& file) {
  Json out = Json::object();
  out["success"] = true;
  out["name"] = json_text(file.name);
  out["file"] = json_text(file.file.file);
  if (file.file.is_binary) {
    // Hermes' binary shape: no file_type, no _source_path.
    out["is_binary"] = true;
    out["content"] = file.file.content;
    return out;
  }
  out["content"] = file.file.content;
  out["file_type"] = file.file.file_type;
  out["_source_path"] = json_text(file.file.source_path.string());
  return out;
}

Json skill_view_json(const core::Context& ctx, const core::Config& cfg, std::string_view name,
                     const std::optional<std::string>& file_path, std::vector<std::string>& warnings) {
  const auto answer = core::view_skill(ctx, cfg, name, file_path, warnings);
  if (!answer) {
    return view_failure_json(answer.error());
  }
  if (const auto* doc = std::get_if<core::SkillDocument>(&*answer)) {
    return skill_document_json(*doc);
  }
  return skill_file_json(std::get<core::SkillFile>(*answer));
}

} // namespace skillrt::protocol
