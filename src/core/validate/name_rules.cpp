#include "core/validate/name_rules.hpp"

#include <array>

#include "core/limits.hpp"
#include "core/validate/text_units.hpp"

namespace skillrt::core {

namespace {

// The character classes skills-ref 0.1.5 accepts as "letters" (its isLetter):
// ASCII letters and digits, Latin-1 and Latin Extended-A/B letters, combining
// diacritics, Cyrillic and CJK ideographs (incl. extension A).
bool is_spec_letter(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9') ||
         (c >= 0x0400 && c <= 0x04FF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x0300 && c <= 0x036F) || (c >= 0x00C0 && c <= 0x024F);
}

struct Run {
  char32_t first;
  char32_t last;
  char32_t step;
};

// Code points inside is_spec_letter's ranges that lowercasing changes (Unicode
// case data): runs of every `step`-th code point from `first` to `last`.
constexpr std::array k_upper_runs{
    Run{0x41, 0x5A, 1},   Run{0xC0, 0xD6, 1},   Run{0xD8, 0xDE, 1},   Run{0x100, 0x136, 2}, Run{0x139, 0x147, 2},
    Run{0x14A, 0x178, 2}, Run{0x179, 0x17D, 2}, Run{0x181, 0x182, 1}, Run{0x184, 0x186, 2}, Run{0x187, 0x189, 2},
    Run{0x18A, 0x18B, 1}, Run{0x18E, 0x191, 1}, Run{0x193, 0x194, 1}, Run{0x196, 0x198, 1}, Run{0x19C, 0x19D, 1},
    Run{0x19F, 0x1A0, 1}, Run{0x1A2, 0x1A6, 2}, Run{0x1A7, 0x1A9, 2}, Run{0x1AC, 0x1AE, 2}, Run{0x1AF, 0x1B1, 2},
    Run{0x1B2, 0x1B3, 1}, Run{0x1B5, 0x1B7, 2}, Run{0x1B8, 0x1B8, 1}, Run{0x1BC, 0x1BC, 1}, Run{0x1C4, 0x1C5, 1},
    Run{0x1C7, 0x1C8, 1}, Run{0x1CA, 0x1CB, 1}, Run{0x1CD, 0x1DB, 2}, Run{0x1DE, 0x1EE, 2}, Run{0x1F1, 0x1F2, 1},
    Run{0x1F4, 0x1F6, 2}, Run{0x1F7, 0x1F8, 1}, Run{0x1FA, 0x232, 2}, Run{0x23A, 0x23B, 1}, Run{0x23D, 0x23E, 1},
    Run{0x241, 0x243, 2}, Run{0x244, 0x246, 1}, Run{0x248, 0x24E, 2}, Run{0x400, 0x42F, 1}, Run{0x460, 0x480, 2},
    Run{0x48A, 0x4C0, 2}, Run{0x4C1, 0x4CD, 2}, Run{0x4D0, 0x4FE, 2},
};

bool is_upper_spec_letter(char32_t c) {
  for (const Run& run : k_upper_runs) {
    if (c >= run.first && c <= run.last && (c - run.first) % run.step == 0) {
      return true;
    }
  }
  return false;
}

// Outside skills-ref's letter ranges we only know the uppercase letters of a few
// common scripts; any such character already fails the charset rule anyway.
bool is_upper_elsewhere(char32_t c) {
  return (c >= 0x0391 && c <= 0x03A9 && c != 0x03A2) || // Greek capitals
         (c >= 0x0531 && c <= 0x0556) ||                // Armenian capitals
         (c >= 0x1E00 && c <= 0x1EFF && c % 2 == 0) ||  // Latin Extended Additional pairs
         (c >= 0xFF21 && c <= 0xFF3A);                  // fullwidth A-Z (before folding)
}

} // namespace

std::string spec_normalize(std::string_view text) {
  std::u32string cps = decode_utf8(text);
  for (char32_t& c : cps) {
    if (c >= 0xFF01 && c <= 0xFF5E) {
      c = c - 0xFF01 + 0x21;
    } else if (c == 0x3000) {
      c = U' ';
    }
  }
  return encode_utf8(cps);
}

SpecNameCheck check_spec_name(std::string_view name) {
  SpecNameCheck check;
  check.normalized = spec_normalize(js_trim(name));
  check.utf16_length = utf16_length(check.normalized);
  check.code_points = code_point_count(check.normalized);
  std::u32string cps = decode_utf8(check.normalized);
  for (char32_t c : cps) {
    if (is_upper_spec_letter(c) || is_upper_elsewhere(c)) {
      check.uppercase = true;
    }
    if (!is_spec_letter(c) && c != U'-') {
      check.bad_chars = true;
      if (check.bad_char_list.find(c) == std::u32string::npos) {
        check.bad_char_list.push_back(c);
      }
    }
  }
  const std::string& n = check.normalized;
  check.bad_hyphens = (!n.empty() && (n.front() == '-' || n.back() == '-')) || n.find("--") != std::string::npos;
  return check;
}

bool is_hermes_name(std::string_view name) {
  if (name.empty() || name.size() > limits::k_max_name_length) {
    return false;
  }
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front())) {
    return false;
  }
  for (char c : name) {
    if (!alnum(c) && c != '.' && c != '_' && c != '-') {
      return false;
    }
  }
  return true;
}

} // namespace skillrt::core
