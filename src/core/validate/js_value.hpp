// How the reference validator (skills-ref, JavaScript + js-yaml's default
// schema) sees a YAML value: its JavaScript type and what String(value) gives.
// Needed because skills-ref coerces `name: 123` to "123", `name:` to "null",
// and demands typeof compatibility === "string".
#pragma once

#include <string>

#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

enum class JsType : unsigned char { null, boolean, number, string, date, array, object };

// js-yaml's implicit resolution of `node` (plain scalars: null, bool, int,
// float, timestamp; quoted scalars are strings).
JsType js_type(const YamlNode& node);

// JavaScript's String(value) of what js-yaml would have built from `node`.
std::string js_string(const YamlNode& node);

// "a number", "null", "a list", ... for messages.
std::string_view js_type_phrase(JsType type);

} // namespace skillrt::core
