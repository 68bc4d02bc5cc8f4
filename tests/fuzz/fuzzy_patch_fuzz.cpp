// Fuzzes the fuzzy find-and-replace (spec §2.11). The input is split into
// content / old / new at the first two "\n@@\n" separators; the first byte
// chooses replace_all. Invariants (abort on violation):
//  - a failure carries a message, and not_found exactly for the no-match one;
//  - a success made ≥ 1 replacement, and an exact one equals a naive
//    left-to-right replace of old by new;
//  - when content, old and new are valid UTF-8, so is the result (the
//    unicode strategy never splits a character).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/patch/fuzzy_replace.hpp"

namespace {

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    std::size_t length = 0;
    std::uint32_t value = 0;
    if (lead < 0x80U) {
      ++i;
      continue;
    }
    if (lead >= 0xC2U && lead <= 0xDFU) {
      length = 2;
      value = lead & 0x1FU;
    } else if (lead >= 0xE0U && lead <= 0xEFU) {
      length = 3;
      value = lead & 0x0FU;
    } else if (lead >= 0xF0U && lead <= 0xF4U) {
      length = 4;
      value = lead & 0x07U;
    } else {
      return false;
    }
    if (i + length > s.size()) {
      return false;
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto byte = static_cast<unsigned char>(s[i + k]);
      if ((byte & 0xC0U) != 0x80U) {
        return false;
      }
      value = (value << 6U) | (byte & 0x3FU);
    }
    if ((length == 3 && value < 0x800) || (length == 4 && (value < 0x10000 || value > 0x10FFFF)) ||
        (value >= 0xD800 && value <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

std::string naive_replace(std::string_view content, std::string_view old_string, std::string_view new_string,
                          std::size_t& count) {
  std::string out;
  count = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t found = content.find(old_string, start);
    if (found == std::string_view::npos) {
      break;
    }
    out.append(content.substr(start, found - start));
    out.append(new_string);
    start = found + old_string.size();
    ++count;
  }
  out.append(content.substr(start));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const bool replace_all = (data[0] & 1U) != 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  constexpr std::string_view kSeparator = "\n@@\n";
  const std::size_t first = input.find(kSeparator);
  const std::size_t second = first == std::string_view::npos ? first : input.find(kSeparator, first + kSeparator.size());
  if (second == std::string_view::npos) {
    return 0;
  }
  const std::string_view content = input.substr(0, first);
  const std::string_view old_string = input.substr(first + kSeparator.size(), second - first - kSeparator.size());
  const std::string_view new_string = input.substr(second + kSeparator.size());

  auto result = skillrt::core::fuzzy_find_replace(content, old_string, new_string, replace_all);
  if (!result) {
    check(!result.error().message.empty());
    check((result.error().code == skillrt::ErrorCode::not_found) == (result.error().message == "Could not find a match for old_string in the file"));
    if ((result.error().code == skillrt::ErrorCode::not_found)) {
      (void)skillrt::core::did_you_mean(content, old_string);
    }
  } else {
    check(result->count >= 1);
    check(!result->strategy.empty());
    if (result->strategy == "exact") {
      std::size_t naive_count = 0;
      const std::string expected = naive_replace(content, old_string, new_string, naive_count);
      check(naive_count == result->count);
      check(replace_all || naive_count == 1);
      check(expected == result->content);
    }
    if (valid_utf8(content) && valid_utf8(old_string) && valid_utf8(new_string)) {
      check(valid_utf8(result->content));
    }
  }
  (void)skillrt::core::is_already_applied(content, old_string, new_string);
  return 0;
}
