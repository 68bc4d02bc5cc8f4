// A skill's provenance and folder policy (core/provenance) as list, view and
// doctor print them: JSON beside the Hermes fields, and one short text label.
#pragma once

#include <string>

#include "core/provenance/provenance.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {"kind", "source" (hub) | null, "trust" (hub) | null,
//  "folder": {"name", "trust", "approval", "owners", "indexed"} | null}
Json provenance_json(const core::Provenance& provenance);

// "hub: github.com/acme/skills", "agent", "user", ...
std::string provenance_label(const core::Provenance& provenance);

// The folder policy in words: "3rd (trust community)", "team-ops (approval all, owners alice)".
std::string folder_policy_text(const core::FolderPolicy& policy);

// doctor's summary: how many offered skills came from where, and each folder
// policy with the number of offered skills under it.
//   {"counts": {"bundled": n, ...}, "folders": [{"name", "trust", "approval", "owners", "indexed", "skills"}]}
Json provenance_summary_json(const core::Catalog& catalog, const core::ProvenanceIndex& index,
                             const core::FolderPolicies& policies);
std::string provenance_summary_text(const core::Catalog& catalog, const core::ProvenanceIndex& index,
                                    const core::FolderPolicies& policies);

}  // namespace skillrt::protocol
