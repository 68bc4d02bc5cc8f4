// Where on a file a pattern matched, and what that changes: a path in a shell
// comment or a deny-list literal is not an attack, Markdown link targets are
// not traversal, and so on (spec §2.12 rules 1 and 3). The scanner feeds every
// line of a file through one FileContext, in order.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/guard/threat_pattern.hpp"

namespace skillrt::core {

class FileContext {
public:
  // `rel_path` (POSIX, relative to the skill) decides the language rules.
  explicit FileContext(std::string_view rel_path);

  // Call once per line, in order, before asking about that line.
  void advance(std::string_view line);

  // The text `pattern` must match on the current line: usually `line`
  // itself; for the traversal patterns in Markdown, the line with inline link
  // destinations blanked (offsets kept). May use `scratch` as storage.
  std::string_view text_for(const ThreatPattern& pattern, std::string_view line, std::string& scratch) const;

  struct Judgement {
    ThreatSeverity severity;
    std::string_view note; // appended to the description, e.g. "(in a comment; informational)"; "" for none
  };
  // The severity to report for a match of `pattern` on the current line, or
  // nullopt when the match is not a finding at all in this context.
  std::optional<Judgement> judge(const ThreatPattern& pattern, std::string_view line) const;

private:
  void reset_statement();
  void track_statement(std::string_view line);

  std::string m_ext; // lower-case extension with the dot, "" if none
  bool m_markdown = false;
  bool m_in_fence = false;            // inside a ``` or ~~~ fenced block (Markdown)
  unsigned char m_fence_comments = 0; // comment style of the open fence's language (file_context.cpp)
  std::string m_fence;                // the opening fence run
  std::string m_statement;            // first line of the logical statement the current line belongs to
  int m_bracket_depth = 0;
  bool m_continued = false; // the previous line ended with a backslash
};

} // namespace skillrt::core
