// Internal to the flow pass: a light lexer for Python and JavaScript/TypeScript
// that yields one statement at a time as tokens. Comments are dropped, string
// literals become one token each (their content, quotes removed), and an
// f-string or template literal becomes its literal parts with each
// interpolation between "(" and ")", so `f"{home}/.ssh"` reads as
// `"" (home) "/.ssh"`. Statements end at a newline outside brackets (unless
// the line plainly continues), at ";", and in JavaScript at a block's braces,
// which are dropped (object literal braces stay). Everything is a view into
// the text; work is linear in its size.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/guard/script_flow_model.hpp"

namespace skillrt::core::flow {

enum class TokType : unsigned char { name, string, number, punct, other };

struct Token {
  TokType type = TokType::other;
  std::string_view text; // name: a dotted chain ("os.path.join", ".read"); string: its content; punct: "=", "+=", "("
  std::size_t line = 0;  // 1-based
  bool glue = false;     // concatenated to what precedes it: an f-string's next part or interpolation
};

struct Statement {
  std::vector<Token> tokens;
  std::size_t line = 0;        // of the first token
  std::size_t indent = 0;      // column of the first token (Python blocks)
  std::size_t block_depth = 0; // open block braces before the statement (JavaScript blocks)
};

// At most this many tokens make one statement; a longer one is cut.
inline constexpr std::size_t k_max_statement_tokens = 4096;

class CodeLexer {
public:
  CodeLexer(CodeLanguage language, std::string_view text, std::size_t first_line = 1, int nesting = 0);
  // The next statement (possibly empty of tokens at the end); false when the text is done.
  bool next(Statement& out);

private:
  enum class Step : unsigned char { token, boundary, end };
  Step lex(Statement& out);
  void lex_string(Statement& out, std::size_t quote_at, bool interpolated, bool raw);
  void emit_interpolation(Statement& out, std::size_t from, std::size_t to, std::size_t line);
  void push(Statement& out, TokType type, std::string_view text, std::size_t line);
  bool regex_allowed(const Statement& out) const;
  bool continues_next_line() const;

  CodeLanguage m_lang;
  std::string_view m_text;
  std::size_t m_pos = 0;
  std::size_t m_line;
  std::size_t m_line_start = 0;
  int m_nesting;
  std::vector<char> m_brackets; // '(' '[' '{' (object) or 'b' (JavaScript block)
  std::size_t m_blocks = 0;     // open 'b' entries
  bool m_compound = false;      // the statement began with a Python compound keyword (a ':' ends it)
  std::string_view m_prev;      // the previous significant token's text (regex and continuation rules)
  TokType m_prev_type = TokType::other;
  bool m_glue_next = false; // the next token pushed continues an f-string or template literal
};

} // namespace skillrt::core::flow
