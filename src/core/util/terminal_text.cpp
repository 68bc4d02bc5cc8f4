#include "core/util/terminal_text.hpp"

namespace skillrt::core {

namespace {

constexpr char k_hex[] = "0123456789abcdef";

void append_hex_byte(std::string& out, unsigned char byte) {
  out += "\\x";
  out += k_hex[byte >> 4];
  out += k_hex[byte & 0xF];
}

// Length of the valid UTF-8 sequence at text[i], 0 when the byte at i does not
// start one; `complete` is false when the bytes so far are a valid prefix cut
// off by the end of `text`.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i, bool& complete) {
  complete = true;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80;  // the valid range of the second byte, which rules out
  unsigned char high = 0xBF; // overlong forms, surrogates and code points past U+10FFFF
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;
    high = lead == 0xED ? 0x9F : 0xBF;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= text.size()) {
      complete = false;
      return 0;
    }
    const unsigned char next = byte(i + k);
    const unsigned char lo = k == 1 ? low : 0x80;
    const unsigned char hi = k == 1 ? high : 0xBF;
    if (next < lo || next > hi) {
      return 0;
    }
  }
  return length;
}

} // namespace

void TerminalEscaper::escape_complete(std::string_view text, bool final, std::string& out) {
  const bool multi = m_layout == TerminalLayout::multi_line;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      // Copy the run of printable ASCII in one go: by far the common case.
      std::size_t end = i + 1;
      while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x20 &&
             static_cast<unsigned char>(text[end]) < 0x7F) {
        ++end;
      }
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    if (c < 0x80) {
      if (multi && (c == '\n' || c == '\t')) {
        out += static_cast<char>(c);
      } else if (c == '\r' && multi && i + 1 == text.size() && !final) {
        m_held.assign(1, '\r'); // CRLF or not: the next piece decides
      } else if (c == '\r' && multi && i + 1 < text.size() && text[i + 1] == '\n') {
        out += "\r\n";
        ++i;
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == 0x7F) {
        out += "\\u007f";
      } else {
        append_hex_byte(out, c);
      }
      ++i;
      continue;
    }
    bool complete = true;
    const std::size_t length = utf8_sequence_length(text, i, complete);
    if (!complete && !final) {
      m_held.assign(text.substr(i)); // the rest of this character comes with the next piece
      return;
    }
    if (length == 0) {
      append_hex_byte(out, c);
      ++i;
      continue;
    }
    if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      out += "\\u00";
      out += k_hex[static_cast<unsigned char>(text[i + 1]) >> 4];
      out += k_hex[static_cast<unsigned char>(text[i + 1]) & 0xF];
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
}

void TerminalEscaper::feed(std::string_view piece, std::string& out) {
  if (m_held.empty()) {
    escape_complete(piece, false, out);
    return;
  }
  // Join what was held back with the start of this piece; a held sequence
  // needs at most 3 more bytes and a held \r one.
  std::string joined = std::move(m_held);
  m_held.clear();
  joined.append(piece);
  escape_complete(joined, false, out);
}

void TerminalEscaper::finish(std::string& out) {
  std::string held = std::move(m_held);
  m_held.clear();
  escape_complete(held, true, out);
}

std::string terminal_safe(std::string_view text, TerminalLayout layout) {
  std::string out;
  out.reserve(text.size());
  TerminalEscaper escaper(layout);
  escaper.feed(text, out);
  escaper.finish(out);
  return out;
}

} // namespace skillrt::core
