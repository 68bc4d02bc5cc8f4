// ASCII case folding for text matched against ASCII keywords (guard rules,
// host names): locale-free, and bytes outside A-Z, including UTF-8, unchanged.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

constexpr char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// `text` with A-Z lower-cased.
inline std::string ascii_lower_copy(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = ascii_lower(c);
  }
  return out;
}

// Whether `haystack` contains `needle_lower` (already lower case), ignoring ASCII case.
inline bool contains_ascii_ci(std::string_view haystack, std::string_view needle_lower) {
  if (needle_lower.size() > haystack.size()) {
    return false;
  }
  for (std::size_t i = 0; i + needle_lower.size() <= haystack.size(); ++i) {
    std::size_t j = 0;
    while (j < needle_lower.size() && ascii_lower(haystack[i + j]) == needle_lower[j]) {
      ++j;
    }
    if (j == needle_lower.size()) {
      return true;
    }
  }
  return false;
}

} // namespace skillrt::core
