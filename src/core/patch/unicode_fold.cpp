// Normalised views of a text that remember where every byte came from, so a
// match found in the normalised text maps back to whole original characters.
#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {

namespace {

// The ASCII stand-in for a foldable code point, or nullptr when it is kept.
const char* fold_of(char32_t cp) {
  switch (cp) {
    case 0x2018:
    case 0x2019:
      return "'";
    case 0x201C:
    case 0x201D:
      return "\"";
    case 0x2014:
      return "--";
    case 0x2013:
    case 0x2212:
      return "-";
    case 0x2026:
      return "...";
    case 0x00A0:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return " ";
    default:
      break;
  }
  if (cp >= 0x2000 && cp <= 0x200A) {
    return " ";
  }
  return nullptr;
}

void append_unit(MappedText& out, std::string_view bytes, std::size_t origin) {
  out.text.append(bytes);
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    out.origin.push_back(origin);
  }
}

}  // namespace

bool MappedText::is_unit_boundary(std::size_t k) const {
  return k == 0 || k >= text.size() || origin[k] != origin[k - 1];
}

Span MappedText::to_original(Span derived) const {
  std::size_t begin = derived.begin;
  while (!is_unit_boundary(begin)) {
    --begin;
  }
  std::size_t end = derived.end;
  while (!is_unit_boundary(end)) {
    ++end;
  }
  return Span{origin[begin], origin[end]};
}

bool has_foldable(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80U) {
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, i, cp);
    if (fold_of(cp) != nullptr) {
      return true;
    }
    i += length;
  }
  return false;
}

MappedText unicode_fold(std::string_view s) {
  MappedText out;
  out.text.reserve(s.size());
  out.origin.reserve(s.size() + 1);
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, i, cp);
    const char* replacement = length > 1 ? fold_of(cp) : nullptr;
    append_unit(out, replacement != nullptr ? std::string_view(replacement) : s.substr(i, length), i);
    i += length;
  }
  out.origin.push_back(s.size());
  return out;
}

std::string unicode_fold_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80U) {
      out.push_back(s[i++]);
      continue;
    }
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, i, cp);
    const char* replacement = length > 1 ? fold_of(cp) : nullptr;
    out.append(replacement != nullptr ? std::string_view(replacement) : s.substr(i, length));
    i += length;
  }
  return out;
}

MappedText collapse_blanks(std::string_view s) {
  MappedText out;
  out.text.reserve(s.size());
  out.origin.reserve(s.size() + 1);
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == ' ' || s[i] == '\t') {
      const std::size_t run_start = i;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
        ++i;
      }
      append_unit(out, " ", run_start);
      continue;
    }
    char32_t cp = 0;
    const std::size_t length = decode_utf8(s, i, cp);
    append_unit(out, s.substr(i, length), i);
    i += length;
  }
  out.origin.push_back(s.size());
  return out;
}

std::string collapse_blanks_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ' ' || s[i] == '\t') {
      while (i + 1 < s.size() && (s[i + 1] == ' ' || s[i + 1] == '\t')) {
        ++i;
      }
      out.push_back(' ');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace skillrt::core::fuzzy
