// Text that is safe to write to a terminal: a skill's name, description or
// body comes from whoever wrote the skill, and a raw ESC, CSI or OSC sequence
// in it could retitle, clear or rewrite the user's terminal. Every control
// character becomes a visible escape instead; printable UTF-8 passes through.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

// Where the text goes: one cell or line of a listing (newlines and tabs would
// break its layout), or a body of many lines (a SKILL.md, a diff, a report).
enum class TerminalLayout { single_line, multi_line };

// Escapes, in `text`:
//   - C0 controls U+0000–U+001F as `\xHH` (\t, \n, \r as `\t`, `\n`, `\r`),
//     except that multi_line keeps \n, \t and a \r directly before \n (a
//     CRLF line end moves nothing the LF does not);
//   - DEL and the C1 controls U+007F–U+009F (UTF-8 7F, C2 80–C2 9F) as
//     `\u007f`–`\u009f`: in JSON that passes through (scan --format json) a
//     raw one can only sit inside a string, where this escape means the same;
//   - each byte that is not part of a valid UTF-8 sequence (stray
//     continuation bytes, overlong forms, surrogates, past U+10FFFF, a sequence
//     cut short) as `\xHH`, so a lone 0x9B never reaches an 8-bit terminal as CSI.
// Everything else, multi-byte characters included, is copied unchanged.
std::string terminal_safe(std::string_view text, TerminalLayout layout);

// The same escaping for text that arrives in pieces (a stream): bytes of a
// UTF-8 sequence or a CRLF split across two pieces are held back until the
// next piece, so escaping pieces equals escaping their concatenation.
class TerminalEscaper {
public:
  explicit TerminalEscaper(TerminalLayout layout) : m_layout(layout) {}

  // Appends the escaped form of `piece` to `out`, holding back at most an
  // incomplete UTF-8 sequence or a trailing \r.
  void feed(std::string_view piece, std::string& out);
  // Appends whatever was held back (an incomplete sequence is escaped as bytes).
  void finish(std::string& out);

private:
  void escape_complete(std::string_view text, bool final, std::string& out);

  TerminalLayout m_layout;
  std::string m_held; // bytes held back from the last piece (at most 4)
};

} // namespace skillrt::core
