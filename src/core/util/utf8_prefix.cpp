#include "core/util/utf8_prefix.hpp"

#include <algorithm>

namespace skillrt::core {

std::size_t utf8_length(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string utf8_prefix(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (chars == max_chars) {
        return std::string(text.substr(0, i));
      }
      ++chars;
    }
  }
  return std::string(text);
}

}  // namespace skillrt::core
