#include "core/commands/slug.hpp"
#include "core/util/text.hpp"

#include <array>
#include <utility>

namespace skillrt::core {
namespace {

// Non-ASCII ranges that are not word characters: punctuation, symbols,
// spaces, combining marks, format characters and emoji. Sorted, inclusive.
constexpr std::array<std::pair<char32_t, char32_t>, 30> k_non_word_ranges{{
    {0x0080, 0x00A9},                     // C1 controls, NBSP, Latin-1 punctuation and signs
    {0x00AB, 0x00B1},                     // « ¬ SHY ® ¯ ° ±
    {0x00B4, 0x00B4},                     // ´
    {0x00B6, 0x00B8},                     // ¶ · ¸
    {0x00BB, 0x00BB},                     // »
    {0x00BF, 0x00BF},                     // ¿
    {0x00D7, 0x00D7},                     // ×
    {0x00F7, 0x00F7},                     // ÷
    {0x02C2, 0x02C5},                     // modifier symbols
    {0x02D2, 0x02DF},   {0x0300, 0x036F}, // combining diacritical marks
    {0x037E, 0x037E},                     // Greek question mark
    {0x0387, 0x0387},                     // Greek ano teleia
    {0x055A, 0x055F},                     // Armenian punctuation
    {0x05BE, 0x05BE},                     // Hebrew maqaf
    {0x060C, 0x060D},                     // Arabic comma
    {0x061B, 0x061F},                     // Arabic semicolon, question mark
    {0x06D4, 0x06D4},                     // Arabic full stop
    {0x0964, 0x0965},                     // Devanagari danda
    {0x2000, 0x206F},                     // general punctuation, spaces, ZWJ, format characters
    {0x20A0, 0x20CF},                     // currency symbols
    {0x20D0, 0x20FF},                     // combining marks for symbols
    {0x2190, 0x2BFF},                     // arrows, math operators, technical, box drawing, shapes, dingbats
    {0x2E00, 0x2E7F},                     // supplemental punctuation
    {0x3000, 0x3004},                     // ideographic space and CJK punctuation (々 〆 〇 are letters)
    {0x3008, 0x3020},                     // CJK brackets and marks
    {0xFE00, 0xFE0F},                     // variation selectors
    {0xFE30, 0xFE6F},                     // CJK compatibility forms, small forms
    {0xFF00, 0xFF0F},                     // fullwidth punctuation (FF10-FF19 are digits)
    {0x1F000, 0x1FAFF},                   // emoji and pictographs
}};

bool in_extra_non_word(char32_t code) {
  // Fullwidth punctuation between the fullwidth letters, and the specials block.
  return (code >= 0xFF1A && code <= 0xFF20) || (code >= 0xFF3B && code <= 0xFF40) ||
         (code >= 0xFF5B && code <= 0xFF65) || (code >= 0xFFF0 && code <= 0xFFFF) ||
         (code >= 0xE000 && code <= 0xF8FF) || (code >= 0xE0000);
}

// Decodes one code point at `pos`; advances pos. Returns U+FFFF sentinel-free
// nullopt-like 0xFFFFFFFF for an invalid sequence (one byte consumed).
constexpr char32_t k_invalid = 0xFFFFFFFF;

char32_t decode(std::string_view text, std::size_t& pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  std::size_t length = 0;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    ++pos;
    return k_invalid;
  }
  if (pos + length > text.size()) {
    ++pos;
    return k_invalid;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char next = byte(pos + i);
    if ((next & 0xC0) != 0x80) {
      ++pos;
      return k_invalid;
    }
    code = (code << 6) | (next & 0x3F);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    ++pos;
    return k_invalid;
  }
  pos += length;
  return code;
}

char32_t to_lower(char32_t code) {
  if (code >= 'A' && code <= 'Z') {
    return code + 0x20;
  }
  if ((code >= 0xC0 && code <= 0xDE && code != 0xD7) || (code >= 0x391 && code <= 0x3AB && code != 0x3A2) ||
      (code >= 0x410 && code <= 0x42F)) {
    return code + 0x20; // Latin-1, Greek and basic Cyrillic capitals
  }
  if (code >= 0x400 && code <= 0x40F) {
    return code + 0x50; // Cyrillic Ѐ..Џ
  }
  return code;
}

} // namespace

bool is_word_code_point(char32_t code) {
  if (code < 0x80) {
    return (code >= 'a' && code <= 'z') || (code >= 'A' && code <= 'Z') || (code >= '0' && code <= '9') || code == '_';
  }
  for (const auto& [first, last] : k_non_word_ranges) {
    if (code < first) {
      break;
    }
    if (code <= last) {
      return false;
    }
  }
  return !in_extra_non_word(code);
}

std::string slugify_skill_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t pos = 0; pos < name.size();) {
    char32_t code = decode(name, pos);
    if (code == k_invalid) {
      continue;
    }
    code = to_lower(code);
    if (code == ' ') {
      code = '-';
    }
    if (code != '-' && !is_word_code_point(code)) {
      continue;
    }
    if (code == '-' && (out.empty() || out.back() == '-')) {
      continue; // collapse runs and drop a leading '-'
    }
    append_utf8(out, code);
  }
  while (!out.empty() && out.back() == '-') {
    out.pop_back();
  }
  return out;
}

std::string telegram_command_form(std::string_view command) {
  std::string out;
  out.reserve(command.size());
  for (std::size_t pos = 0; pos < command.size();) {
    char32_t code = decode(command, pos);
    if (code == k_invalid) {
      continue;
    }
    code = to_lower(code);
    if (code == '-') {
      code = '_';
    }
    const bool kept = (code >= 'a' && code <= 'z') || (code >= '0' && code <= '9') || code == '_';
    if (!kept) {
      if (is_word_code_point(code)) {
        return {}; // a letter Telegram cannot carry: no Telegram form
      }
      continue;
    }
    if (code == '_' && (out.empty() || out.back() == '_')) {
      continue;
    }
    out += static_cast<char>(code);
  }
  while (!out.empty() && out.back() == '_') {
    out.pop_back();
  }
  return out;
}

} // namespace skillrt::core
