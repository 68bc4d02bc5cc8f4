// Where on a file a pattern matched, and what that changes (spec §2.12 rules 1
// and 3, issue 19): a path in a shell comment or a deny-list literal is not an
// attack, a flag described in a reference table is not an instruction, a
// vendor's published installer is not a dropper, and so on.
//
// Two halves, one class:
//  - file_context.cpp is the light structural pass. The scanner feeds it every
//    line of a file, in order, and it keeps what the line's place says: the
//    kind of file (Markdown, web markup, script, data), inside or outside a
//    fenced block and in which language, a table row or an option list item,
//    the heading the line sits under, and the code statement it belongs to.
//    No parser per language: each fact costs a few byte comparisons per line.
//  - context_judgement.cpp reads those facts and decides, per rule, whether a
//    match is a finding and at which severity.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/guard/threat_pattern.hpp"

namespace skillrt::core {

class FileContext {
public:
  // What a file is, from its extension: it decides which structure is tracked.
  enum class FileKind : unsigned char {
    markdown, // .md .markdown .mdx: prose, fences, tables, headings
    markup,   // web pages, styles, images and templates: HTML, CSS, SVG, Vue, Jinja …
    script,   // code that runs: Python, shell, JavaScript/TypeScript, …
    other,    // data and configuration (YAML, JSON, TOML …) and anything else
  };
  // Where a Markdown line outside a fence sits.
  enum class ProseKind : unsigned char { paragraph, heading, table_row, list_item, quote };

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
  // The severity to report for a match of `pattern` starting at byte `at` of
  // the current `line`, or nullopt when the match is not a finding at all in
  // this context (context_judgement.cpp).
  std::optional<Judgement> judge(const ThreatPattern& pattern, std::string_view line, std::size_t at = 0) const;

  // The facts judge() reads; public for tests.
  FileKind kind() const { return m_kind; }
  bool in_fence() const { return m_in_fence; }
  // A Markdown fence whose language runs commands (bash, console, PowerShell …);
  // an unlabelled fence counts, since commands are what skills show most.
  bool in_command_fence() const { return m_in_fence && m_fence_runs_commands; }
  ProseKind prose_kind() const { return m_prose; }
  // The text of the heading the current line sits under, lower-cased ("" before any).
  std::string_view heading() const { return m_heading; }
  // The text of the file's first top-level heading, lower-cased ("" before one).
  std::string_view title() const { return m_title; }
  // The header row of the Markdown table the current line belongs to, lower-cased.
  std::string_view table_header() const { return m_table_header; }

private:
  void reset_statement();
  void track_statement(std::string_view line);
  void track_prose(std::string_view text);
  // Whether the current heading or the file's title says the section is about
  // pitfalls or defence ("Common mistakes", "Vulnerable patterns").
  bool in_defensive_section() const;
  // Whether `line` is a whole-line comment in the current language (the
  // file's, or the open fence's).
  bool is_comment_line(std::string_view line) const;

  std::string m_ext; // lower-case extension with the dot, "" if none
  FileKind m_kind = FileKind::other;
  bool m_in_fence = false;            // inside a ``` or ~~~ fenced block (Markdown)
  bool m_fence_runs_commands = false; // the open fence's language runs commands
  unsigned char m_fence_comments = 0; // comment style of the open fence's language (file_context.cpp)
  std::string m_fence;                // the opening fence run
  ProseKind m_prose = ProseKind::paragraph;
  std::string m_heading;
  std::string m_title;
  std::string m_table_header;
  bool m_in_table = false;
  std::string m_statement;  // first line of the logical statement the current line belongs to
  int m_bracket_depth = 0;
  bool m_continued = false; // the previous line ended with a backslash
};

} // namespace skillrt::core
