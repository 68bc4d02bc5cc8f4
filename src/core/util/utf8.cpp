#include "core/util/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace skillrt::core {

namespace {

std::uint32_t clamp_u32(std::size_t value) {
  return value > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(value);
}

// Length of the well-formed sequence at text[i], or 0 when it is ill-formed
// (the table of well-formed byte sequences of Unicode §3.9, D92).
std::size_t sequence_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0x100U;
  };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  unsigned b0 = byte(0);
  if (b0 < 0x80) {
    return 1;
  }
  if (in(b0, 0xC2, 0xDF)) {
    return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  }
  if (in(b0, 0xE0, 0xEF)) {
    unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned hi = b0 == 0xED ? 0x9F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(b0, 0xF0, 0xF4)) {
    unsigned lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// Length of the maximal subpart of an ill-formed sequence at text[i] (>= 1):
// the lead byte plus the continuation bytes that were still acceptable.
std::size_t ill_formed_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0x100U;
  };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  unsigned b0 = byte(0);
  std::size_t needed = 0;
  unsigned lo = 0x80;
  unsigned hi = 0xBF;
  if (in(b0, 0xC2, 0xDF)) {
    needed = 1;
  } else if (in(b0, 0xE0, 0xEF)) {
    needed = 2;
    lo = b0 == 0xE0 ? 0xA0 : 0x80;
    hi = b0 == 0xED ? 0x9F : 0xBF;
  } else if (in(b0, 0xF0, 0xF4)) {
    needed = 3;
    lo = b0 == 0xF0 ? 0x90 : 0x80;
    hi = b0 == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 1;
  }
  std::size_t len = 1;
  for (std::size_t k = 1; k <= needed; ++k) {
    unsigned b = byte(k);
    bool ok = k == 1 ? in(b, lo, hi) : in(b, 0x80, 0xBF);
    if (!ok) {
      break;
    }
    ++len;
  }
  return len;
}

// Length of the pure-ASCII prefix of text[from..], scanned eight bytes at a
// time: skill files are overwhelmingly ASCII and this is the listing's hot loop.
std::size_t ascii_run(std::string_view text, std::size_t from) {
  constexpr std::uint64_t k_high_bits = 0x8080808080808080ULL;
  std::size_t i = from;
  while (i + 8 <= text.size()) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, 8);
    if ((word & k_high_bits) != 0) {
      break;
    }
    i += 8;
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) {
    ++i;
  }
  return i - from;
}

}  // namespace

std::string sanitize_utf8(std::string_view text) {
  std::optional<std::size_t> first_bad = find_invalid_utf8(text);
  if (!first_bad) {
    return std::string(text);
  }
  std::string out;
  out.reserve(text.size() + 16);
  out.append(text.substr(0, *first_bad));
  std::size_t i = *first_bad;
  while (i < text.size()) {
    std::size_t len = sequence_length(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      i += ill_formed_length(text, i);
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    i += ascii_run(text, i);
    if (i >= text.size()) {
      break;
    }
    std::size_t len = sequence_length(text, i);
    if (len == 0) {
      return i;
    }
    i += len;
  }
  return std::nullopt;
}

SourcePos offset_to_pos(std::string_view text, std::size_t offset) {
  if (offset > text.size()) {
    offset = text.size();
  }
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    char c = text[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      column = 1;
    } else if (c != '\r' && (static_cast<unsigned char>(c) & 0xC0U) != 0x80U) {
      ++column;  // continuation bytes belong to the code point already counted
    }
  }
  return SourcePos{clamp_u32(line), clamp_u32(column)};
}

}  // namespace skillrt::core
