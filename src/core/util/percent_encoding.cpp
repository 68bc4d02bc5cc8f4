#include "core/util/percent_encoding.hpp"

namespace skillrt::core {

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+' && plus_is_space) {
      out += ' ';
      continue;
    }
    if (c != '%') {
      out += c;
      continue;
    }
    const int high = i + 1 < text.size() ? hex_digit_value(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? hex_digit_value(text[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return std::nullopt;
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace skillrt::core
