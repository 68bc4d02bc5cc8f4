// A small, tolerant reader for Python/JSON list literals such as
// `["a", 'b', 3]`, standing in for Hermes' `ast.literal_eval` on config strings.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

// The items of a Python list literal, each rendered as Python's str() would
// (strings as-is, numbers normalised, True/False/None, nested lists in repr
// form). Accepts single/double/triple-quoted strings (u/r prefixes, escapes,
// adjacent concatenation), numbers, True/False/None, nested lists and trailing
// commas. nullopt when `text` is not exactly one such list (literal_eval would
// raise, e.g. on JSON's true/false/null) or uses forms we do not model
// (tuples, dicts, sets, bytes, complex numbers).
std::optional<std::vector<std::string>> parse_list_literal(std::string_view text);

}  // namespace skillrt::core
