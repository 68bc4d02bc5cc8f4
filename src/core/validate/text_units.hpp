// How long a string is depends on who counts: Hermes (Python) counts code
// points, skills-ref (JavaScript) counts UTF-16 code units. These helpers count
// both and trim the way each language does. Inputs are valid UTF-8 (YAML
// scalars, already sanitised); an ill-formed byte counts as one code point.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace skillrt::core {

// The code points of `text`.
std::u32string decode_utf8(std::string_view text);

// `text` encoded as UTF-8.
std::string encode_utf8(std::u32string_view text);

// Python's len(str): code points.
std::size_t code_point_count(std::string_view text);

// JavaScript's String.length: UTF-16 code units (astral code points count 2).
std::size_t utf16_length(std::string_view text);

// JavaScript's String.prototype.trim (White_Space and line terminators, incl. U+FEFF).
std::string_view js_trim(std::string_view text);

// Python's str.strip() with no argument (Unicode whitespace).
std::string_view py_trim(std::string_view text);

} // namespace skillrt::core
