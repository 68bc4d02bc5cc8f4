#include "protocol/json_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/util/utf8.hpp"

namespace skillrt::protocol {

std::string json_text(std::string_view raw) {
  if (core::find_invalid_utf8(raw)) {
    return core::sanitize_utf8(raw);
  }
  return std::string(raw);
}

nlohmann::ordered_json json_text_list(const std::vector<std::string>& items) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::string& item : items) {
    out.push_back(json_text(item));
  }
  return out;
}

// Only '"', '\\' and control characters are escaped. Runs of plain bytes are
// copied whole; this loop writes every description of a listing.
void append_json_chars(std::string& out, std::string_view value) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::size_t run = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    // Skip eight plain bytes at a time: a word is plain when no byte is below
    // 0x20 and none equals '"' or '\\' (bytes >= 0x80 never trip the test).
    while (i + 8 <= value.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, value.data() + i, 8);
      constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
      constexpr std::uint64_t k_highs = 0x8080808080808080ULL;
      const std::uint64_t quote = word ^ (k_ones * '"');
      const std::uint64_t backslash = word ^ (k_ones * '\\');
      const std::uint64_t special = ((word - k_ones * 0x20) & ~word) | ((quote - k_ones) & ~quote) |
                                    ((backslash - k_ones) & ~backslash);
      if ((special & k_highs) != 0) {
        break;
      }
      i += 8;
    }
    if (i >= value.size()) {
      break;
    }
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      continue;
    }
    out.append(value.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        out.append("\\u00");
        out.push_back(k_hex[c >> 4U]);
        out.push_back(k_hex[c & 0xFU]);
    }
  }
  out.append(value.substr(run));
}

void append_json_string(std::string& out, std::string_view value) {
  if (core::find_invalid_utf8(value)) {
    const std::string clean = core::sanitize_utf8(value);
    out.push_back('"');
    append_json_chars(out, clean);
    out.push_back('"');
    return;
  }
  out.push_back('"');
  append_json_chars(out, value);
  out.push_back('"');
}

double rounded_score(double score, int significant) {
  if (!std::isfinite(score)) {
    return 0;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", significant, score);
  return std::strtod(text, nullptr);
}

std::string one_line_text(std::string_view raw) {
  std::string text = json_text(raw);
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      c = ' ';
    }
  }
  return text;
}

}  // namespace skillrt::protocol
