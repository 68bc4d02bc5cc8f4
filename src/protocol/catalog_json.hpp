// The catalog as JSON (`list` = Hermes skills_list, `doctor`) and as text for people.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "core/provenance/provenance.hpp"
#include "core/config/config.hpp"
#include "core/discovery/catalog.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// skills_list (spec §2.6 rules 3-4): no skills → {success, skills:[], categories:[],
// message}; else {success, skills:[{name, description, category, path, source}],
// categories, count, hint}, filtered by exact category when given.
Json list_json(const core::Catalog& catalog, const std::optional<std::string>& category);

// Writes exactly list_json(catalog, category).dump(indent) (indent < 0 =
// compact; invalid UTF-8 replaced) without building the JSON tree: at 50k
// skills the tree alone would need ~50 MB.
// With `provenance`, each skill also carries `provenance` (provenance_json.hpp):
// the CLI's list shows it; MCP's skills_list keeps Hermes' shape.
void write_list_json(std::ostream& out, const core::Catalog& catalog, const std::optional<std::string>& category,
                     int indent, const core::ProvenanceIndex* provenance = nullptr);

// doctor: {success, roots, shadowed, skipped, hidden, untrusted_project,
// dropped_external_dirs, config_problems}.
Json doctor_json(const core::Catalog& catalog, const core::Config& config);

// A table of the listing (name, category, source, origin when `provenance`
// is given, description) at most 100 columns wide.
std::string list_text(const core::Catalog& catalog, const std::optional<std::string>& category, bool color,
                      const core::ProvenanceIndex* provenance = nullptr);

// The doctor report for people: roots with counts, then every shadowed,
// hidden and skipped entry with its reason.
std::string doctor_text(const core::Catalog& catalog, const core::Config& config, bool color);

}  // namespace skillrt::protocol
