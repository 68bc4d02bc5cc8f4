#include "core/guard/script_flow_lex.hpp"

#include <algorithm>
#include <initializer_list>

namespace skillrt::core::flow {
namespace {

constexpr std::size_t k_max_brackets = 256;
constexpr int k_max_nesting = 3; // f-strings inside f-strings …

bool ident_start(char c) {
  const auto b = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || b >= 0x80;
}

bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> items) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

constexpr std::string_view k_open_paren = "(";
constexpr std::string_view k_close_paren = ")";

// Where the interpolation that starts at `from` (just after its "{") ends: the
// offset of its closing "}" (or text.size()).
std::size_t interpolation_end(std::string_view text, std::size_t from) {
  int depth = 0;
  for (std::size_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"' || c == '`') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\') {
          ++i;
        }
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == '}') {
      if (depth == 0) {
        return i;
      }
      --depth;
    }
  }
  return text.size();
}

// A Python f-string expression without its `!r` conversion or `:spec`.
std::string_view without_format_spec(std::string_view expr) {
  int depth = 0;
  for (std::size_t i = 0; i < expr.size(); ++i) {
    const char c = expr[i];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (depth == 0 && (c == ':' || c == '!') && !(i + 1 < expr.size() && expr[i + 1] == '=')) {
      return expr.substr(0, i);
    }
  }
  return expr;
}

} // namespace

CodeLexer::CodeLexer(CodeLanguage language, std::string_view text, std::size_t first_line, int nesting)
    : m_lang(language), m_text(text), m_line(first_line), m_nesting(nesting) {}

void CodeLexer::push(Statement& out, TokType type, std::string_view text, std::size_t line) {
  if (out.tokens.empty()) {
    out.line = line;
    out.indent = m_pos >= m_line_start ? m_pos - m_line_start : 0;
  }
  out.tokens.push_back(Token{type, text, line, m_glue_next});
  m_glue_next = false;
  m_prev = text;
  m_prev_type = type;
}

bool CodeLexer::regex_allowed(const Statement& out) const {
  if (out.tokens.empty()) {
    return true;
  }
  if (m_prev_type == TokType::punct) {
    return !(m_prev == ")" || m_prev == "]" || m_prev == "}");
  }
  if (m_prev_type == TokType::name) {
    return is_one_of(m_prev, {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                              "yield", "await", "instanceof"});
  }
  return false;
}

bool CodeLexer::continues_next_line() const {
  if (m_prev_type == TokType::punct &&
      is_one_of(m_prev, {",",  "=",  "+", "-",  "*",   "/",  "%",   "&&", "||", "??", "?",  ":", "=>", "|", "&",
                         "+=", "-=", ".", "==", "===", "!=", "!==", "<",  ">",  "<=", ">=", "(", "[",  "{"})) {
    return true;
  }
  std::size_t p = m_pos;
  while (p < m_text.size() && (m_text[p] == ' ' || m_text[p] == '\t' || m_text[p] == '\r' || m_text[p] == '\n')) {
    ++p;
  }
  if (p >= m_text.size()) {
    return false;
  }
  const char c = m_text[p];
  if (c == '.') {
    return !(p + 1 < m_text.size() && m_text[p + 1] == '.');
  }
  return c == '?' || c == ':' || c == '+' || c == '&' || c == '|' || c == '*';
}

void CodeLexer::emit_interpolation(Statement& out, std::size_t from, std::size_t to, std::size_t line) {
  if (m_nesting >= k_max_nesting || out.tokens.size() >= 2 * k_max_statement_tokens) {
    return;
  }
  std::string_view expr = m_text.substr(from, to - from);
  if (m_lang == CodeLanguage::python) {
    expr = without_format_spec(expr);
  }
  push(out, TokType::punct, k_open_paren, line);
  CodeLexer inner(m_lang, expr, line, m_nesting + 1);
  Statement part;
  while (inner.next(part)) {
    for (const Token& t : part.tokens) {
      if (out.tokens.size() >= 2 * k_max_statement_tokens) {
        break;
      }
      out.tokens.push_back(t);
    }
  }
  push(out, TokType::punct, k_close_paren, line);
}

void CodeLexer::lex_string(Statement& out, std::size_t quote_at, bool interpolated, bool raw) {
  const char q = m_text[quote_at];
  const bool triple = m_lang == CodeLanguage::python && m_text.substr(quote_at, 3) == std::string(3, q);
  const bool multiline = triple || q == '`';
  std::size_t i = quote_at + (triple ? 3 : 1);
  std::size_t part = i;
  std::size_t part_line = m_line;
  for (;;) {
    if (i >= m_text.size()) {
      push(out, TokType::string, m_text.substr(part, i - part), part_line);
      m_pos = i;
      return;
    }
    const char c = m_text[i];
    if (c == '\\' && !raw) {
      if (i + 1 < m_text.size() && m_text[i + 1] == '\n') {
        ++m_line;
        m_line_start = i + 2;
      }
      i += 2;
      continue;
    }
    if (c == '\n') {
      if (!multiline) {
        // An unterminated string ends at the line's end.
        push(out, TokType::string, m_text.substr(part, i - part), part_line);
        m_pos = i;
        return;
      }
      ++m_line;
      m_line_start = i + 1;
      ++i;
      continue;
    }
    if (c == q && (!triple || m_text.substr(i, 3) == std::string(3, q))) {
      push(out, TokType::string, m_text.substr(part, i - part), part_line);
      m_pos = i + (triple ? 3 : 1);
      return;
    }
    if (interpolated) {
      const bool py_open = m_lang == CodeLanguage::python && c == '{';
      const bool js_open =
          m_lang == CodeLanguage::javascript && c == '$' && i + 1 < m_text.size() && m_text[i + 1] == '{';
      if (py_open && i + 1 < m_text.size() && m_text[i + 1] == '{') {
        i += 2; // "{{" is a literal brace
        continue;
      }
      if (py_open || js_open) {
        const std::size_t open_end = i + (js_open ? 2 : 1);
        const std::size_t close = interpolation_end(m_text, open_end);
        push(out, TokType::string, m_text.substr(part, i - part), part_line);
        m_glue_next = true; // the interpolation, then the next part, continue this string
        emit_interpolation(out, open_end, close, m_line);
        m_glue_next = true;
        for (std::size_t k = open_end; k < close; ++k) {
          if (m_text[k] == '\n') {
            ++m_line;
            m_line_start = k + 1;
          }
        }
        i = close < m_text.size() ? close + 1 : close;
        part = i;
        part_line = m_line;
        continue;
      }
    }
    ++i;
  }
}

CodeLexer::Step CodeLexer::lex(Statement& out) {
  const bool js = m_lang == CodeLanguage::javascript;
  for (;;) {
    if (m_pos >= m_text.size()) {
      return Step::end;
    }
    const char c = m_text[m_pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++m_pos;
      continue;
    }
    const bool top = m_brackets.empty() || m_brackets.back() == 'b';
    if (c == '\n') {
      ++m_pos;
      ++m_line;
      m_line_start = m_pos;
      if (top && !out.tokens.empty() && !(js && continues_next_line())) {
        return Step::boundary;
      }
      continue;
    }
    if (c == '\\' && m_pos + 1 < m_text.size() && (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
      m_pos += m_text[m_pos + 1] == '\r' ? 2 : 1; // the newline itself is skipped below
      if (m_pos < m_text.size() && m_text[m_pos] == '\n') {
        ++m_pos;
        ++m_line;
        m_line_start = m_pos;
      }
      continue;
    }
    // Comments.
    if ((!js && c == '#') || (js && c == '#' && m_pos == 0 && m_text.substr(0, 2) == "#!") ||
        (js && c == '/' && m_text.substr(m_pos, 2) == "//")) {
      const std::size_t nl = m_text.find('\n', m_pos);
      m_pos = nl == std::string_view::npos ? m_text.size() : nl;
      continue;
    }
    if (js && c == '/' && m_text.substr(m_pos, 2) == "/*") {
      const std::size_t close = m_text.find("*/", m_pos + 2);
      const std::size_t end = close == std::string_view::npos ? m_text.size() : close + 2;
      for (std::size_t k = m_pos; k < end; ++k) {
        if (m_text[k] == '\n') {
          ++m_line;
          m_line_start = k + 1;
        }
      }
      m_pos = end;
      continue;
    }
    // Strings.
    if (c == '"' || c == '\'' || (js && c == '`')) {
      lex_string(out, m_pos, js && c == '`', false);
      return Step::token;
    }
    if (!js && ident_start(c)) {
      // A string prefix: r"", f'', rb"", …
      std::size_t k = m_pos;
      bool f = false;
      bool r = false;
      while (k < m_text.size() && k - m_pos < 2 &&
             std::string_view("rRbBuUfF").find(m_text[k]) != std::string_view::npos) {
        f = f || m_text[k] == 'f' || m_text[k] == 'F';
        r = r || m_text[k] == 'r' || m_text[k] == 'R';
        ++k;
      }
      if (k > m_pos && k < m_text.size() && (m_text[k] == '"' || m_text[k] == '\'')) {
        lex_string(out, k, f, r);
        return Step::token;
      }
    }
    // Names, as dotted chains.
    if (ident_start(c) || (c == '.' && m_pos + 1 < m_text.size() && ident_start(m_text[m_pos + 1])) ||
        (js && c == '?' && m_text.substr(m_pos, 2) == "?." && m_pos + 2 < m_text.size() &&
         ident_start(m_text[m_pos + 2]))) {
      if (c == '?') {
        ++m_pos;
      }
      const std::size_t start = m_pos;
      std::size_t k = m_pos + (m_text[m_pos] == '.' ? 1 : 0);
      for (;;) {
        while (k < m_text.size() && ident_char(m_text[k])) {
          ++k;
        }
        if (k + 1 < m_text.size() && m_text[k] == '.' && ident_start(m_text[k + 1])) {
          ++k;
          continue;
        }
        break;
      }
      const std::string_view name = m_text.substr(start, k - start);
      if (!js && out.tokens.empty()) {
        m_compound = is_one_of(
            name, {"if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class", "async"});
      }
      push(out, TokType::name, name, m_line);
      m_pos = k;
      return Step::token;
    }
    if (c >= '0' && c <= '9') {
      std::size_t k = m_pos;
      while (k < m_text.size() && (ident_char(m_text[k]) || m_text[k] == '.')) {
        ++k;
      }
      push(out, TokType::number, m_text.substr(m_pos, k - m_pos), m_line);
      m_pos = k;
      return Step::token;
    }
    // A JavaScript regular expression literal.
    if (js && c == '/' && regex_allowed(out)) {
      std::size_t k = m_pos + 1;
      bool in_class = false;
      bool closed = false;
      while (k < m_text.size() && m_text[k] != '\n') {
        if (m_text[k] == '\\') {
          k += 2;
          continue;
        }
        if (m_text[k] == '[') {
          in_class = true;
        } else if (m_text[k] == ']') {
          in_class = false;
        } else if (m_text[k] == '/' && !in_class) {
          closed = true;
          break;
        }
        ++k;
      }
      if (closed) {
        ++k;
        while (k < m_text.size() && ident_char(m_text[k])) {
          ++k;
        }
        push(out, TokType::other, m_text.substr(m_pos, k - m_pos), m_line);
        m_pos = k;
        return Step::token;
      }
    }
    // Brackets.
    if (c == '(' || c == '[' || c == '{') {
      if (c == '{' && js) {
        const bool block = out.tokens.empty() ||
                           (m_prev_type == TokType::punct && (m_prev == ")" || m_prev == "=>" || m_prev == ";")) ||
                           (m_prev_type == TokType::name &&
                            !is_one_of(m_prev, {"return", "yield", "await", "typeof", "case", "in", "of", "void",
                                                "delete", "throw", "export", "default"}));
        if (block) {
          ++m_pos;
          if (m_brackets.size() < k_max_brackets) {
            m_brackets.push_back('b');
            ++m_blocks;
          }
          return Step::boundary;
        }
      }
      if (m_brackets.size() < k_max_brackets) {
        m_brackets.push_back(c);
      }
      push(out, TokType::punct, m_text.substr(m_pos, 1), m_line);
      ++m_pos;
      return Step::token;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (c == '}' && !m_brackets.empty() && m_brackets.back() == 'b') {
        m_brackets.pop_back();
        --m_blocks;
        ++m_pos;
        return Step::boundary;
      }
      const char open = c == ')' ? '(' : (c == ']' ? '[' : '{');
      if (!m_brackets.empty() && m_brackets.back() == open) {
        m_brackets.pop_back();
      }
      push(out, TokType::punct, m_text.substr(m_pos, 1), m_line);
      ++m_pos;
      return Step::token;
    }
    if (top && c == ';') {
      ++m_pos;
      return Step::boundary;
    }
    if (top && !js && c == ':' && m_compound && m_text.substr(m_pos, 2) != ":=") {
      ++m_pos;
      m_compound = false;
      return Step::boundary;
    }
    // Operators: one, two or three characters.
    std::size_t len = 1;
    const char n1 = m_pos + 1 < m_text.size() ? m_text[m_pos + 1] : '\0';
    const char n2 = m_pos + 2 < m_text.size() ? m_text[m_pos + 2] : '\0';
    const bool doubled = n1 == c && std::string_view("*/&|?<>+-.").find(c) != std::string_view::npos;
    if (n1 == '=' && std::string_view("=!<>+-*/%&|^:").find(c) != std::string_view::npos) {
      len = (n2 == '=' && (c == '=' || c == '!')) ? 3 : 2; // == != <= … ; === !==
    } else if (doubled) {
      len = (n2 == '=' || (c == '.' && n2 == '.')) ? 3 : 2; // ** // && || ?? << >> ++ -- ; **= … ...
      if (c == '.' && n2 != '.') {
        len = 1;
      }
    } else if ((c == '=' && n1 == '>') || (c == '-' && n1 == '>')) {
      len = 2; // => ->
    }
    push(out, TokType::punct, m_text.substr(m_pos, len), m_line);
    m_pos += len;
    return Step::token;
  }
}

bool CodeLexer::next(Statement& out) {
  out.tokens.clear();
  out.line = m_line;
  out.indent = 0;
  out.block_depth = m_blocks;
  m_compound = false;
  m_prev = {};
  m_prev_type = TokType::other;
  for (;;) {
    const Step step = lex(out);
    if (step == Step::end) {
      return !out.tokens.empty();
    }
    if (step == Step::boundary) {
      if (!out.tokens.empty()) {
        return true;
      }
      out.block_depth = m_blocks;
      m_compound = false;
      continue;
    }
    if (out.tokens.size() >= k_max_statement_tokens) {
      return true;
    }
  }
}

} // namespace skillrt::core::flow
