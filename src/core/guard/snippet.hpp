// The short, single-line excerpt a finding shows (spec §2.12 rule 1).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace skillrt::core {

// `line` stripped of surrounding whitespace, at most `max_chars` code points:
// longer lines are cut to max_chars - 3 code points plus "...". When the match
// at byte `match_offset` of `line` would fall outside that cut, the excerpt is a
// window around the match instead ("..." on both sides), so a payload at the end
// of a long minified line is still visible. Never splits a UTF-8 sequence.
std::string make_snippet(std::string_view line, std::size_t match_offset, std::size_t max_chars);

// `text` cut to at most `max_chars` code points (the last three of them "..."
// when cut), never splitting a UTF-8 sequence.
std::string truncate_chars(std::string_view text, std::size_t max_chars);

} // namespace skillrt::core
