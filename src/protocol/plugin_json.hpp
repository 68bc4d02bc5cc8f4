// The plugins of a context (`plugin list`, GET /api/v1/plugins): each with
// its manifest, whether it is on and what switched it, and its skills as the
// catalog lists them; then every folder left out and why.
#pragma once

#include <string>

#include "core/discovery/catalog.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success, plugins: [{name, version, description, enabled, switched_by, layer, path, manifest,
//  skills_dirs, skills: ["ns:skill", ...], skill_count}], problems: [{path, message}], folders: [...]}
Json plugin_list_json(const core::Catalog& catalog);

// The same for people: a table NAME, VERSION, STATE, SKILLS, PATH, then the problems.
std::string plugin_list_text(const core::Catalog& catalog, bool color);

}  // namespace skillrt::protocol
