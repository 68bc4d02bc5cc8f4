// YamlNode → YAML text (block style), through libyaml's emitter.
#pragma once

#include <string>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

// Renders `node` as one YAML document that parse_yaml reads back with the same
// kinds, texts and scalar types. Plain scalars stay plain; strings that a YAML
// 1.2 or 1.1 reader (Hermes uses PyYAML) would type as null/bool/number/date
// are quoted. Invalid UTF-8 in texts is replaced by U+FFFD. Returns "" only if
// libyaml itself refuses (not expected for trees from parse_yaml).
std::string emit_yaml(const YamlNode& node);

}  // namespace skillrt::core
