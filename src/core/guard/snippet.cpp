#include "core/guard/snippet.hpp"

namespace skillrt::core {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Byte offset just past `count` code points from `from` (or text.size()).
std::size_t advance_chars(std::string_view text, std::size_t from, std::size_t count) {
  std::size_t i = from;
  while (i < text.size() && count > 0) {
    ++i;
    while (i < text.size() && is_continuation(text[i])) {
      ++i;
    }
    --count;
  }
  return i;
}

// Moves `offset` back to the start of the UTF-8 sequence it points into.
std::size_t char_start(std::string_view text, std::size_t offset) {
  while (offset > 0 && offset < text.size() && is_continuation(text[offset])) {
    --offset;
  }
  return offset;
}

} // namespace

std::string truncate_chars(std::string_view text, std::size_t max_chars) {
  const std::size_t whole = advance_chars(text, 0, max_chars);
  if (whole >= text.size()) {
    return std::string(text);
  }
  const std::size_t keep = max_chars >= 3 ? max_chars - 3 : 0;
  std::string out(text.substr(0, advance_chars(text, 0, keep)));
  out += "...";
  return out;
}

std::string make_snippet(std::string_view line, std::size_t match_offset, std::size_t max_chars) {
  std::size_t begin = 0;
  std::size_t end = line.size();
  while (begin < end && is_space(line[begin])) {
    ++begin;
  }
  while (end > begin && is_space(line[end - 1])) {
    --end;
  }
  const std::string_view stripped = line.substr(begin, end - begin);
  const std::size_t match = match_offset > begin ? match_offset - begin : 0;
  const std::size_t keep = max_chars >= 3 ? max_chars - 3 : 0;
  const std::size_t head_end = advance_chars(stripped, 0, keep);
  if (head_end >= stripped.size()) {
    return std::string(stripped);
  }
  // The plain cut shows the match when it starts well inside the kept head.
  if (match + 16 <= head_end || match >= stripped.size()) {
    return std::string(stripped.substr(0, head_end)) + "...";
  }
  // A window: a little context before the match, then as much as fits.
  const std::size_t lead = 16;
  std::size_t from = char_start(stripped, match > lead ? match - lead : 0);
  const std::size_t inner = max_chars >= 6 ? max_chars - 6 : 0;
  const std::size_t to = advance_chars(stripped, from, inner);
  std::string out = "...";
  out += stripped.substr(from, to - from);
  if (to < stripped.size()) {
    out += "...";
  }
  return out;
}

} // namespace skillrt::core
