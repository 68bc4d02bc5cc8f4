// UTF-8 validation and byte-offset → line/column conversion for diagnostics.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// Offset of the first byte that does not start a well-formed UTF-8 sequence
// (overlong forms, surrogates and code points above U+10FFFF are ill-formed);
// nullopt when the whole text is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// The text with every ill-formed subsequence replaced by U+FFFD, as Python's
// `decode("utf-8", errors="replace")` does (one U+FFFD per maximal subpart).
std::string sanitize_utf8(std::string_view text);

// 1-based line and column (counted in code points, like libyaml) of `offset`;
// "\n", "\r\n" and a lone "\r" each end a line.
SourcePos offset_to_pos(std::string_view text, std::size_t offset);

}  // namespace skillrt::core
