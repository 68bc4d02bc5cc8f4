#include "core/guard/unicode_smuggling.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/guard/snippet.hpp"
#include "core/limits.hpp"

namespace skillrt::core {
namespace {

struct Decoded {
  char32_t cp;
  std::size_t length;
};

// One code point at `i`; an ill-formed byte decodes as U+FFFD of length 1.
Decoded decode(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80) {
    return {b0, 1};
  }
  auto cont = [&](std::size_t k) -> int {
    if (i + k >= text.size()) {
      return -1;
    }
    const auto b = static_cast<unsigned char>(text[i + k]);
    return (b & 0xC0) == 0x80 ? (b & 0x3F) : -1;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    const int c1 = cont(1);
    if (c1 >= 0) {
      return {static_cast<char32_t>(((b0 & 0x1F) << 6) | c1), 2};
    }
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    const int c1 = cont(1);
    const int c2 = cont(2);
    if (c1 >= 0 && c2 >= 0) {
      const auto cp = static_cast<char32_t>(((b0 & 0x0F) << 12) | (c1 << 6) | c2);
      if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) {
        return {cp, 3};
      }
    }
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    const int c1 = cont(1);
    const int c2 = cont(2);
    const int c3 = cont(3);
    if (c1 >= 0 && c2 >= 0 && c3 >= 0) {
      const auto cp = static_cast<char32_t>(((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3);
      if (cp >= 0x10000 && cp <= 0x10FFFF) {
        return {cp, 4};
      }
    }
  }
  return {0xFFFD, 1};
}

const char* invisible_name(char32_t cp) {
  switch (cp) {
  case 0x200B:
    return "zero width space";
  case 0x200C:
    return "zero width non-joiner";
  case 0x200D:
    return "zero width joiner";
  case 0x2060:
    return "word joiner";
  case 0x2062:
    return "invisible times";
  case 0x2063:
    return "invisible separator";
  case 0x2064:
    return "invisible plus";
  case 0xFEFF:
    return "byte order mark";
  default:
    return nullptr;
  }
}

const char* bidi_name(char32_t cp) {
  switch (cp) {
  case 0x202A:
    return "left-to-right embedding";
  case 0x202B:
    return "right-to-left embedding";
  case 0x202C:
    return "pop directional formatting";
  case 0x202D:
    return "left-to-right override";
  case 0x202E:
    return "right-to-left override";
  case 0x2066:
    return "left-to-right isolate";
  case 0x2067:
    return "right-to-left isolate";
  case 0x2068:
    return "first strong isolate";
  case 0x2069:
    return "pop directional isolate";
  default:
    return nullptr;
  }
}

bool is_tag(char32_t cp) {
  return cp >= 0xE0000 && cp <= 0xE007F;
}

// Pictographs and their presentation selector: the neighbours of a ZWJ that
// glues an emoji sequence (family, profession, flag) together.
bool is_emoji_part(char32_t cp) {
  return (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) || cp == 0xFE0F ||
         (cp >= 0x1F3FB && cp <= 0x1F3FF) || cp == 0x2640 || cp == 0x2642 || cp == 0x2695;
}

// Scripts whose orthography needs ZWJ/ZWNJ between letters (Arabic, Persian,
// Indic scripts, Sinhala...).
bool is_joining_script(char32_t cp) {
  return (cp >= 0x0600 && cp <= 0x06FF) || (cp >= 0x0750 && cp <= 0x077F) || (cp >= 0x0900 && cp <= 0x0DFF) ||
         (cp >= 0xFB50 && cp <= 0xFDFF) || (cp >= 0xFE70 && cp <= 0xFEFC);
}

std::string code_label(char32_t cp, const char* name) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "U+%04X", static_cast<unsigned>(cp));
  return std::string(buf) + " (" + name + ")";
}

GuardFinding make(std::string_view rel_path, std::size_t line_no, std::size_t column, const char* id, ThreatSeverity severity,
                  std::string snippet, std::string description) {
  GuardFinding f;
  f.pattern_id = id;
  f.category = ThreatCategory::injection;
  f.severity = severity;
  f.file = std::string(rel_path);
  f.line = line_no;
  f.column = column;
  f.snippet = std::move(snippet);
  f.description = std::move(description);
  return f;
}

// Every smuggling finding of one line.
void scan_line(std::string_view rel_path, std::string_view line, std::size_t line_no, std::vector<GuardFinding>& out) {
  std::size_t invisible_at = std::string_view::npos;
  char32_t invisible_cp = 0;
  std::size_t bidi_at = std::string_view::npos;
  char32_t bidi_cp = 0;
  std::size_t tag_at = std::string_view::npos;
  std::string hidden; // decoded tag text of the whole line
  std::size_t tag_count = 0;

  char32_t previous = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    const Decoded d = decode(line, i);
    const std::size_t next_i = i + d.length;
    if (invisible_name(d.cp) != nullptr && invisible_at == std::string_view::npos) {
      bool legitimate = false;
      if (d.cp == 0x200D || d.cp == 0x200C) {
        const char32_t next = next_i < line.size() ? decode(line, next_i).cp : 0;
        legitimate = (d.cp == 0x200D && is_emoji_part(previous) && is_emoji_part(next)) ||
                     (is_joining_script(previous) && is_joining_script(next));
      }
      if (d.cp == 0x200B || d.cp == 0x2060) {
        // A zero-width space or word joiner first on a line, before a fence
        // run, is the usual way to show a Markdown fence inside a fence
        // without closing it: visible in effect, hiding nothing.
        const std::string_view before = line.substr(0, i);
        const std::string_view after = line.substr(next_i);
        legitimate = before.find_first_not_of(" \t") == std::string_view::npos &&
                     (after.substr(0, 3) == "```" || after.substr(0, 3) == "~~~");
      }
      if (!legitimate) {
        invisible_at = i;
        invisible_cp = d.cp;
      }
    } else if (bidi_name(d.cp) != nullptr && bidi_at == std::string_view::npos) {
      bidi_at = i;
      bidi_cp = d.cp;
    } else if (is_tag(d.cp)) {
      // A subdivision flag (black flag + lower-case/digit tags + cancel tag,
      // e.g. England's) is the one legitimate use of tag characters.
      if (previous == 0x1F3F4) {
        std::size_t j = i;
        std::size_t run = 0;
        bool flag = false;
        while (j < line.size() && run <= 8) {
          const Decoded t = decode(line, j);
          if (t.cp == 0xE007F) {
            flag = run >= 2;
            j += t.length;
            break;
          }
          if (!((t.cp >= 0xE0061 && t.cp <= 0xE007A) || (t.cp >= 0xE0030 && t.cp <= 0xE0039))) {
            break;
          }
          ++run;
          j += t.length;
        }
        if (flag) {
          previous = 0xE007F;
          i = j;
          continue;
        }
      }
      if (tag_at == std::string_view::npos) {
        tag_at = i;
      }
      ++tag_count;
      if (hidden.size() < limits::k_guard_snippet_chars) {
        const char32_t ascii = d.cp - 0xE0000;
        hidden.push_back(ascii >= 0x20 && ascii < 0x7F ? static_cast<char>(ascii) : '?');
      }
    }
    previous = d.cp;
    i = next_i;
  }

  if (invisible_at != std::string_view::npos) {
    out.push_back(make(rel_path, line_no, invisible_at + 1, "invisible_unicode", ThreatSeverity::high,
                       code_label(invisible_cp, invisible_name(invisible_cp)),
                       "Invisible Unicode character: hides text from a human reviewer"));
  }
  if (bidi_at != std::string_view::npos) {
    out.push_back(make(rel_path, line_no, bidi_at + 1, "bidi_override", ThreatSeverity::high,
                       code_label(bidi_cp, bidi_name(bidi_cp)),
                       "Bidirectional control character: displayed text differs from what is read"));
  }
  if (tag_at != std::string_view::npos) {
    out.push_back(make(rel_path, line_no, tag_at + 1, "unicode_tag_smuggling", ThreatSeverity::critical,
                       truncate_chars("hidden text: " + hidden, limits::k_guard_snippet_chars),
                       "Unicode tag characters carry " + std::to_string(tag_count) +
                           " invisible ASCII characters that a model reads"));
  }
}

// Every reported character starts with one of these lead bytes.
bool is_candidate_lead(unsigned char b) {
  return b == 0xE2 || b == 0xEF || b == 0xF3;
}

} // namespace

void find_unicode_smuggling(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out) {
  std::size_t line_no = 1;
  std::size_t counted_to = 0; // newlines before this offset are in line_no
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    if (!is_candidate_lead(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const Decoded d = decode(text, i);
    if (invisible_name(d.cp) == nullptr && bidi_name(d.cp) == nullptr && !is_tag(d.cp)) {
      i += d.length;
      continue;
    }
    // Found one: examine the whole line it is on, then continue after it.
    std::size_t line_start = i;
    while (line_start > counted_to && text[line_start - 1] != '\n') {
      --line_start;
    }
    for (std::size_t k = counted_to; k < line_start; ++k) {
      if (text[k] == '\n') {
        ++line_no;
      }
    }
    const void* nl = std::memchr(text.data() + i, '\n', n - i);
    const std::size_t line_end =
        nl == nullptr ? n : static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
    std::string_view line = text.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    scan_line(rel_path, line, line_no, out);
    counted_to = line_start;
    i = line_end;
  }
}

} // namespace skillrt::core
