#include "protocol/provenance_json.hpp"

#include <map>

namespace skillrt::protocol {

namespace {

constexpr core::ProvenanceKind k_kinds[] = {core::ProvenanceKind::bundled, core::ProvenanceKind::hub,
                                            core::ProvenanceKind::agent,   core::ProvenanceKind::user,
                                            core::ProvenanceKind::external, core::ProvenanceKind::project,
                                            core::ProvenanceKind::plugin};

Json folder_json(const core::FolderPolicy& policy) {
  Json folder = Json::object();
  folder["name"] = policy.folder;
  folder["trust"] = policy.trust ? Json(*policy.trust) : Json(nullptr);
  folder["approval"] = policy.approval_all ? "all" : "default";
  folder["owners"] = policy.owners;
  folder["indexed"] = policy.index;
  return folder;
}

struct Tally {
  std::map<core::ProvenanceKind, std::size_t> kinds;
  std::map<std::string, std::size_t> folders;
};

Tally tally(const core::Catalog& catalog, const core::ProvenanceIndex& index) {
  Tally out;
  for (const std::size_t i : catalog.listed) {
    const core::Provenance provenance = index.of(catalog, catalog.records[i]);
    ++out.kinds[provenance.kind];
    if (provenance.policy) {
      ++out.folders[provenance.policy->folder];
    }
  }
  return out;
}

}  // namespace

Json provenance_json(const core::Provenance& provenance) {
  Json out = Json::object();
  out["kind"] = core::provenance_kind_name(provenance.kind);
  out["source"] = provenance.source.empty() ? Json(nullptr) : Json(provenance.source);
  out["trust"] = provenance.trust.empty() ? Json(nullptr) : Json(provenance.trust);
  out["folder"] = provenance.policy ? folder_json(*provenance.policy) : Json(nullptr);
  return out;
}

std::string provenance_label(const core::Provenance& provenance) {
  std::string label = core::provenance_kind_name(provenance.kind);
  if (!provenance.source.empty()) {
    label += ": " + provenance.source;
  }
  return label;
}

std::string folder_policy_text(const core::FolderPolicy& policy) {
  std::string details;
  auto add = [&](const std::string& part) { details += (details.empty() ? "" : ", ") + part; };
  if (policy.trust) {
    add("trust " + *policy.trust);
  }
  if (policy.approval_all) {
    add("approval all");
  }
  if (!policy.owners.empty()) {
    std::string owners;
    for (const std::string& owner : policy.owners) {
      owners += (owners.empty() ? "" : " ") + owner;
    }
    add("owners " + owners);
  }
  if (!policy.index) {
    add("not indexed");
  }
  return details.empty() ? policy.folder : policy.folder + " (" + details + ")";
}

Json provenance_summary_json(const core::Catalog& catalog, const core::ProvenanceIndex& index,
                             const core::FolderPolicies& policies) {
  const Tally counted = tally(catalog, index);
  Json counts = Json::object();
  for (const core::ProvenanceKind kind : k_kinds) {
    const auto found = counted.kinds.find(kind);
    counts[core::provenance_kind_name(kind)] = found == counted.kinds.end() ? 0 : found->second;
  }
  Json folders = Json::array();
  for (const core::FolderPolicy& policy : policies.folders) {
    Json folder = folder_json(policy);
    const auto found = counted.folders.find(policy.folder);
    folder["skills"] = found == counted.folders.end() ? 0 : found->second;
    folders.push_back(std::move(folder));
  }
  return Json{{"counts", std::move(counts)}, {"folders", std::move(folders)}};
}

std::string provenance_summary_text(const core::Catalog& catalog, const core::ProvenanceIndex& index,
                                    const core::FolderPolicies& policies) {
  const Tally counted = tally(catalog, index);
  std::string out = "  offered skills by origin:";
  for (const core::ProvenanceKind kind : k_kinds) {
    const auto found = counted.kinds.find(kind);
    out += std::string(" ") + core::provenance_kind_name(kind) + " " +
           std::to_string(found == counted.kinds.end() ? 0 : found->second);
  }
  out += "\n";
  for (const core::FolderPolicy& policy : policies.folders) {
    const auto found = counted.folders.find(policy.folder);
    out += "  folder " + folder_policy_text(policy) + ": " +
           std::to_string(found == counted.folders.end() ? 0 : found->second) + " skill(s)\n";
  }
  return out;
}

}  // namespace skillrt::protocol
