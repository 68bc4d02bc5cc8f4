// The one JSON policy of the core's own files (memory.json, todo.json,
// lock.json, the pending-install record, the prompt snapshot). The core
// reads and writes them with nlohmann::json inside its .cpp files; this
// header keeps nlohmann out of every core header (it costs each TU that
// includes it) and adds what nlohmann does not check by itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// Checks that `text` is exactly one JSON document the core will read: valid
// UTF-8 (no lone surrogate escapes either), no member name twice in one
// object, arrays and objects nested at most `max_depth` deep, nothing but
// whitespace after it. nlohmann refuses all of that except duplicate names
// (it keeps the last) and depth, so a caller checks with this first and
// then parses with nlohmann::json::parse. Walks the text once, builds nothing.
// Errors: parse_error, its message ending in " at byte N".
Result<void> check_strict_json(std::string_view text, std::size_t max_depth);

// `text` as a JSON string literal with its quotes, the way nlohmann::json
// writes strings (`"`, `\`, \b \f \n \r \t and other C0 controls escaped);
// bytes that are not valid UTF-8 become U+FFFD, so the file stays readable.
std::string json_quoted(std::string_view text);

} // namespace skillrt::core
