// Small text helpers that many modules need with exactly the same meaning.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

// The six ASCII whitespace characters of C's isspace in the "C" locale
// (space, \t, \n, \v, \f, \r) — what Python's str.strip() removes from ASCII text.
constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// `text` without leading and trailing ASCII whitespace.
std::string_view trim_ascii_space(std::string_view text);

// Appends code point `code` (at most U+10FFFF, not a surrogate) as UTF-8.
void append_utf8(std::string& out, char32_t code);

// The C library's sentence for errno value `err` ("No such file or directory").
std::string errno_text(int err);

}  // namespace skillrt::core
