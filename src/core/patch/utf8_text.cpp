// UTF-8 decoding and the Python str helpers (strip, split('\n'), isspace) the
// fuzzy matcher is specified in terms of. Invalid UTF-8 never fails: each bad
// byte becomes its own pseudo character.
#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {

namespace {

constexpr char32_t kEscapedByteBase = 0xDC00;

bool is_continuation(unsigned char byte) { return (byte & 0xC0U) == 0x80U; }

}  // namespace

std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& cp) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80U) {
    cp = lead;
    return 1;
  }
  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2U && lead <= 0xDFU) {
    length = 2;
    value = lead & 0x1FU;
    minimum = 0x80;
  } else if (lead >= 0xE0U && lead <= 0xEFU) {
    length = 3;
    value = lead & 0x0FU;
    minimum = 0x800;
  } else if (lead >= 0xF0U && lead <= 0xF4U) {
    length = 4;
    value = lead & 0x07U;
    minimum = 0x10000;
  }
  if (length == 0 || i + length > s.size()) {
    cp = kEscapedByteBase + lead;
    return 1;
  }
  for (std::size_t k = 1; k < length; ++k) {
    const auto byte = static_cast<unsigned char>(s[i + k]);
    if (!is_continuation(byte)) {
      cp = kEscapedByteBase + lead;
      return 1;
    }
    value = (value << 6U) | (byte & 0x3FU);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
    cp = kEscapedByteBase + lead;
    return 1;
  }
  cp = value;
  return length;
}

bool is_space(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20);
  }
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

std::string_view lstrip(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, i, cp);
    if (!is_space(cp)) {
      break;
    }
    i += length;
  }
  return s.substr(i);
}

std::string_view rstrip(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0) {
    // Step back to the start of the last unit: at most 3 continuation bytes.
    std::size_t start = end - 1;
    while (start > 0 && end - start < 4 && is_continuation(static_cast<unsigned char>(s[start]))) {
      --start;
    }
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, start, cp);
    if (start + length != end) {
      // The trailing bytes are not one valid unit: they are escaped bytes, never spaces.
      break;
    }
    if (!is_space(cp)) {
      break;
    }
    end = start;
  }
  return s.substr(0, end);
}

std::string_view strip(std::string_view s) { return rstrip(lstrip(s)); }

bool is_blank(std::string_view s) { return lstrip(s).empty(); }

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t newline = s.find('\n', start);
    if (newline == std::string_view::npos) {
      lines.push_back(s.substr(start));
      return lines;
    }
    lines.push_back(s.substr(start, newline - start));
    start = newline + 1;
  }
}

std::u32string to_code_points(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    i += decode_utf8(s, i, cp);
    out.push_back(cp);
  }
  return out;
}

std::size_t count_code_points(std::string_view s) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) {
    char32_t cp = 0;
    i += decode_utf8(s, i, cp);
  }
  return count;
}

std::string_view truncate_code_points(std::string_view s, std::size_t max_code_points) {
  std::size_t i = 0;
  for (std::size_t count = 0; i < s.size() && count < max_code_points; ++count) {
    char32_t cp = 0;
    i += decode_utf8(s, i, cp);
  }
  return s.substr(0, i);
}

std::string_view leading_indent(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
    ++i;
  }
  return line.substr(0, i);
}

}  // namespace skillrt::core::fuzzy
