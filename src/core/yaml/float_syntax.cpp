#include "core/yaml/float_syntax.hpp"

#include <cstddef>

namespace skillrt::core {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Advances `i` over digits; returns how many.
std::size_t skip_digits(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  while (i < s.size() && is_digit(s[i])) {
    ++i;
  }
  return i - start;
}

}  // namespace

bool is_decimal_float(std::string_view s, bool signed_leading_dot) {
  std::size_t i = 0;
  const bool signed_value = i < s.size() && (s[i] == '-' || s[i] == '+');
  if (signed_value) {
    ++i;
  }
  const std::size_t int_digits = skip_digits(s, i);
  if (int_digits == 0) {
    // Only the ".5" form may lack integer digits, and it needs fraction digits.
    if ((signed_value && !signed_leading_dot) || i >= s.size() || s[i] != '.') {
      return false;
    }
    ++i;
    if (skip_digits(s, i) == 0) {
      return false;
    }
  } else if (i < s.size() && s[i] == '.') {
    ++i;
    skip_digits(s, i);
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
      ++i;
    }
    if (skip_digits(s, i) == 0) {
      return false;
    }
  }
  return i == s.size();
}

}  // namespace skillrt::core
