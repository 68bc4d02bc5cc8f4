// Percent-decoding (RFC 3986 §2.1), shared by the places that read it: the
// MCP server's skill:// URIs and the REST API's request targets. Each adds
// its own rules on top (the REST API refuses NUL and bytes that are not UTF-8).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

// The value of one hex digit (either case); -1 for anything else.
int hex_digit_value(char c);

// "%2F" → "/"; with `plus_is_space` (query strings) '+' → ' '. nullopt when a
// '%' is not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

}  // namespace skillrt::core
