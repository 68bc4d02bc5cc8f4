// The decimal float grammar that YAML's core schema and js-yaml share.
#pragma once

#include <string_view>

namespace skillrt::core {

// True when `s` is `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`.
// js-yaml forbids a sign before the leading-dot form ("-.5"); YAML 1.2's core
// schema allows it: `signed_leading_dot` picks which.
bool is_decimal_float(std::string_view s, bool signed_leading_dot);

}  // namespace skillrt::core
