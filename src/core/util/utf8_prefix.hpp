// Counting and cutting valid UTF-8 by code points (listing descriptions,
// memory and todo budgets are measured in characters, as Hermes counts them).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace skillrt::core {

// The first `max_chars` code points of valid UTF-8 `text` (whole text when shorter).
std::string utf8_prefix(std::string_view text, std::size_t max_chars);
// Number of code points in valid UTF-8 `text`.
std::size_t utf8_length(std::string_view text);

}  // namespace skillrt::core
