// YAML node → JSON value, applying the YAML 1.2 core schema to plain scalars.
#pragma once

#include <nlohmann/json.hpp>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::protocol {

using Json = nlohmann::ordered_json;

// null → null; plain true/false → bool; plain ints/floats → numbers; other
// scalars → strings; sequences → arrays; mappings → objects in document order.
Json yaml_to_json(const core::YamlNode& node);

}  // namespace skillrt::protocol
