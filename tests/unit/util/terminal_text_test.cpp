// terminal_safe: every class of control character becomes a visible escape,
// printable UTF-8 passes unchanged, invalid UTF-8 is escaped byte by byte, and
// the streaming escaper gives the same answer however the text is cut.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "core/util/terminal_text.hpp"

namespace skillrt::core {
namespace {

using namespace std::string_literals;

std::string single(std::string_view text) {
  return terminal_safe(text, TerminalLayout::single_line);
}
std::string multi(std::string_view text) {
  return terminal_safe(text, TerminalLayout::multi_line);
}

TEST(TerminalSafe, EscapesEscAndTheSequencesItStarts) {
  EXPECT_EQ(single("a\x1b[2Jb"), "a\\x1b[2Jb");                            // CSI: clear screen
  EXPECT_EQ(single("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");             // OSC: set title, BEL-terminated
  EXPECT_EQ(single("\x1b]8;;http://x\x1b\\"), "\\x1b]8;;http://x\\x1b\\"); // OSC 8 with ST
  EXPECT_EQ(multi("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
}

TEST(TerminalSafe, EscapesEveryC0ControlAndDel) {
  for (int c = 0; c < 0x20; ++c) {
    const std::string in(1, static_cast<char>(c));
    const std::string out = single(in);
    EXPECT_EQ(out.find_first_of(std::string("\0\x1b\x07\r\n\t"s)), std::string::npos) << "control " << c;
    EXPECT_EQ(out.front(), '\\') << "control " << c;
  }
  EXPECT_EQ(single("\0"s), "\\x00");
  EXPECT_EQ(single("\x08\x0b\x0c\x7f"), "\\x08\\x0b\\x0c\\u007f");
  EXPECT_EQ(multi("\x7f"), "\\u007f");
}

TEST(TerminalSafe, NewlineTabAndCarriageReturnDependOnTheLayout) {
  EXPECT_EQ(single("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(multi("a\nb\tc"), "a\nb\tc");
  // A lone \r could overwrite the line it is on; a CRLF line end cannot.
  EXPECT_EQ(multi("safe\rEVIL"), "safe\\rEVIL");
  EXPECT_EQ(multi("line\r\nnext\r"), "line\r\nnext\\r");
  EXPECT_EQ(single("line\r\n"), "line\\r\\n");
}

TEST(TerminalSafe, EscapesC1ControlsEncodedInUtf8) {
  EXPECT_EQ(single("\xC2\x80"), "\\u0080");
  EXPECT_EQ(single("a\xC2\x9B"
                   "2Jb"),
            "a\\u009b2Jb"); // CSI as one code point
  EXPECT_EQ(multi("\xC2\x9D"
                  "0;t\xC2\x9C"),
            "\\u009d0;t\\u009c"); // OSC ... ST
  EXPECT_EQ(single("\xC2\x9F"), "\\u009f");
  EXPECT_EQ(single("\xC2\xA0"), "\xC2\xA0"); // U+00A0 is printable: the range ends at U+009F
}

TEST(TerminalSafe, PassesValidUtf8Unchanged) {
  const std::string text = "plain ASCII ~ é ß € 中文 😀 \xF4\x8F\xBF\xBF \xEF\xBF\xBD";
  EXPECT_EQ(single(text), text);
  EXPECT_EQ(multi(text), text);
  EXPECT_EQ(single(""), "");
}

TEST(TerminalSafe, EscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(single("\x9b"
                   "2J"),
            "\\x9b2J");                                          // a raw 8-bit CSI byte
  EXPECT_EQ(single("\x80\xBF"), "\\x80\\xbf");                   // stray continuation bytes
  EXPECT_EQ(single("\xC0\xAF"), "\\xc0\\xaf");                   // overlong '/'
  EXPECT_EQ(single("\xE0\x80\xAF"), "\\xe0\\x80\\xaf");          // overlong 3-byte form
  EXPECT_EQ(single("\xED\xA0\x80"), "\\xed\\xa0\\x80");          // UTF-16 surrogate
  EXPECT_EQ(single("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // past U+10FFFF
  EXPECT_EQ(single("\xFF\xFE"), "\\xff\\xfe");
  EXPECT_EQ(single("ab\xE2\x82"), "ab\\xe2\\x82"); // cut short at the end
  EXPECT_EQ(single("\xE2\x82x"), "\\xe2\\x82x");   // cut short by an ASCII byte
  EXPECT_EQ(single("\xC2\x1b"), "\\xc2\\x1b");     // a lead byte cannot swallow the ESC after it
}

TEST(TerminalEscaper, PiecesGiveTheSameAnswerAsTheWhole) {
  const std::string text = "a\xE2\x82\xAC b\xF0\x9F\x98\x80 \xC2\x9B x\r\ny\rz\x1b]0;t\x07 \xE2\x82";
  for (const TerminalLayout layout : {TerminalLayout::single_line, TerminalLayout::multi_line}) {
    const std::string whole = terminal_safe(text, layout);
    // Every split point, including inside each multi-byte character and the CRLF.
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
      TerminalEscaper escaper(layout);
      std::string out;
      escaper.feed(std::string_view(text).substr(0, cut), out);
      escaper.feed(std::string_view(text).substr(cut), out);
      escaper.finish(out);
      EXPECT_EQ(out, whole) << "cut at " << cut;
    }
    // Byte by byte.
    TerminalEscaper escaper(layout);
    std::string out;
    for (char c : text) {
      escaper.feed(std::string_view(&c, 1), out);
    }
    escaper.finish(out);
    EXPECT_EQ(out, whole);
  }
}

TEST(TerminalSafe, OutputNeverHoldsAControlByte) {
  // Every byte value, alone and after each lead byte: no C0, DEL or raw C1 survives.
  for (int first = 0; first < 256; ++first) {
    for (int second : {0x1b, 0x80, 0x9b, 0xA0, 0xBF, 0xC2, 0x61}) {
      const std::string in{static_cast<char>(first), static_cast<char>(second)};
      for (const std::string& out : {single(in), multi(in)}) {
        for (std::size_t i = 0; i < out.size(); ++i) {
          const auto c = static_cast<unsigned char>(out[i]);
          const bool layout_char = c == '\n' || c == '\t';
          EXPECT_FALSE((c < 0x20 && !layout_char) || c == 0x7F) << first << ' ' << second;
          if (c == 0xC2 && i + 1 < out.size()) {
            EXPECT_GT(static_cast<unsigned char>(out[i + 1]), 0x9F) << first << ' ' << second;
          }
          if (c >= 0x80 && c <= 0x9F) {
            // A raw C1-valued byte may only be the continuation of a valid sequence.
            EXPECT_GT(i, 0U);
            EXPECT_GE(static_cast<unsigned char>(out[i - 1]), 0xC2);
          }
        }
      }
    }
  }
}

} // namespace
} // namespace skillrt::core
