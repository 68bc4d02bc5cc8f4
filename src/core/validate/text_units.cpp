#include "core/validate/text_units.hpp"

#include <cstdint>

namespace skillrt::core {

namespace {

// Decodes one code point at text[i] and advances i; an ill-formed byte yields
// U+FFFD and advances by one.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0U;
  };
  auto cont = [&](std::size_t k) { return (byte(k) & 0xC0U) == 0x80U; };
  unsigned b0 = byte(0);
  if (b0 < 0x80U) {
    i += 1;
    return static_cast<char32_t>(b0);
  }
  if (b0 >= 0xC2U && b0 <= 0xDFU && cont(1)) {
    char32_t cp = ((b0 & 0x1FU) << 6) | (byte(1) & 0x3FU);
    i += 2;
    return cp;
  }
  if (b0 >= 0xE0U && b0 <= 0xEFU && cont(1) && cont(2)) {
    char32_t cp = ((b0 & 0x0FU) << 12) | ((byte(1) & 0x3FU) << 6) | (byte(2) & 0x3FU);
    i += 3;
    return cp;
  }
  if (b0 >= 0xF0U && b0 <= 0xF4U && cont(1) && cont(2) && cont(3)) {
    char32_t cp = ((b0 & 0x07U) << 18) | ((byte(1) & 0x3FU) << 12) | ((byte(2) & 0x3FU) << 6) | (byte(3) & 0x3FU);
    i += 4;
    return cp;
  }
  i += 1;
  return U'\uFFFD';
}

// Unicode White_Space (what both JavaScript's trim and Python's strip remove),
// plus U+FEFF for JavaScript.
bool is_unicode_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool is_js_space(char32_t c) {
  return c != 0x85 && (is_unicode_space(c) || c == 0xFEFF);
}

// Python's str.isspace() also covers the ASCII separators 0x1C-0x1F.
bool is_py_space(char32_t c) {
  return is_unicode_space(c) || (c >= 0x1C && c <= 0x1F);
}

template <typename Pred> std::string_view trim_with(std::string_view text, Pred is_space) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end) {
    std::size_t next = begin;
    if (!is_space(next_code_point(text, next))) {
      break;
    }
    begin = next;
  }
  // Walk back from the end one code point at a time (lead byte = not 10xxxxxx).
  while (end > begin) {
    std::size_t lead = end - 1;
    while (lead > begin && (static_cast<unsigned char>(text[lead]) & 0xC0U) == 0x80U && end - lead < 4) {
      --lead;
    }
    std::size_t next = lead;
    char32_t c = next_code_point(text, next);
    if (next != end) {
      // Not one well-formed sequence: treat the last byte alone.
      lead = end - 1;
      next = lead;
      c = next_code_point(text, next);
    }
    if (!is_space(c)) {
      break;
    }
    end = lead;
  }
  return text.substr(begin, end - begin);
}

} // namespace

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    out.push_back(next_code_point(text, i));
  }
  return out;
}

std::string encode_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    auto u = static_cast<std::uint32_t>(c);
    if (u < 0x80U) {
      out.push_back(static_cast<char>(u));
    } else if (u < 0x800U) {
      out.push_back(static_cast<char>(0xC0U | (u >> 6)));
      out.push_back(static_cast<char>(0x80U | (u & 0x3FU)));
    } else if (u < 0x10000U) {
      out.push_back(static_cast<char>(0xE0U | (u >> 12)));
      out.push_back(static_cast<char>(0x80U | ((u >> 6) & 0x3FU)));
      out.push_back(static_cast<char>(0x80U | (u & 0x3FU)));
    } else {
      out.push_back(static_cast<char>(0xF0U | (u >> 18)));
      out.push_back(static_cast<char>(0x80U | ((u >> 12) & 0x3FU)));
      out.push_back(static_cast<char>(0x80U | ((u >> 6) & 0x3FU)));
      out.push_back(static_cast<char>(0x80U | (u & 0x3FU)));
    }
  }
  return out;
}

std::size_t code_point_count(std::string_view text) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    next_code_point(text, i);
    ++n;
  }
  return n;
}

std::size_t utf16_length(std::string_view text) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    n += next_code_point(text, i) >= 0x10000 ? 2 : 1;
  }
  return n;
}

std::string_view js_trim(std::string_view text) {
  return trim_with(text, is_js_space);
}

std::string_view py_trim(std::string_view text) {
  return trim_with(text, is_py_space);
}

} // namespace skillrt::core
