// The flow pass over shell (script_flow_model.hpp): pipelines of simple
// commands split without a parser (quotes, $(…), backticks, comments and
// here-documents respected), variables without scopes, files written with a
// tainted output remembered by path.
//
// Sources: a command that prints a credentials or memory file (cat, base64,
// tar …, `< file`, `$(< file)`), `env`/`printenv`/`export -p` (the whole
// environment), `history`, a secret-named variable the script never sets.
// Sinks: curl's -d/--data*/--json/-F/-T, wget's --post-data/--post-file,
// anything piped or redirected into nc, ncat, socat or telnet; a URL
// carrying a file's content or the environment.
#include <algorithm>
#include <initializer_list>
#include <optional>

#include "core/guard/script_flow_model.hpp"

namespace skillrt::core::flow {
namespace {

constexpr std::size_t k_max_words = 1024;
constexpr std::size_t k_max_stages = 64;
constexpr int k_max_depth = 3;
constexpr std::size_t k_max_heredoc_expand = 64 * 1024;

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> items) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

struct Word {
  std::string_view raw;
  std::size_t line = 0;
};

struct Redirect {
  std::string_view op; // "<" ">" ">>" "<<<" "<<" (here-document: target.raw is its body)
  Word target;
  bool expand = true; // a here-document with an unquoted delimiter
};

struct SimpleCommand {
  std::vector<Word> words;
  std::vector<Redirect> redirects;
};

struct Pipeline {
  std::vector<SimpleCommand> stages;
};

// Where the construct opening at `i` ("$(", "${", "`", "<(" …) closes: one past its end.
std::size_t skip_nested(std::string_view t, std::size_t i) {
  if (t[i] == '`') {
    for (std::size_t k = i + 1; k < t.size(); ++k) {
      if (t[k] == '\\') {
        ++k;
      } else if (t[k] == '`') {
        return k + 1;
      }
    }
    return t.size();
  }
  const char open = t[i + 1]; // '(' or '{'
  const char close = open == '(' ? ')' : '}';
  int depth = 0;
  for (std::size_t k = i + 1; k < t.size(); ++k) {
    const char c = t[k];
    if (c == '\\') {
      ++k;
    } else if (c == '\'') {
      const std::size_t q = t.find('\'', k + 1);
      k = q == std::string_view::npos ? t.size() : q;
    } else if (c == '"') {
      for (++k; k < t.size() && t[k] != '"'; ++k) {
        if (t[k] == '\\') {
          ++k;
        } else if (t[k] == '$' && k + 1 < t.size() && (t[k + 1] == '(' || t[k + 1] == '{')) {
          k = skip_nested(t, k) - 1;
        }
      }
    } else if (c == open) {
      ++depth;
    } else if (c == close) {
      if (--depth == 0) {
        return k + 1;
      }
    }
  }
  return t.size();
}

class ShellLexer {
public:
  ShellLexer(std::string_view text, std::size_t first_line) : m_text(text), m_line(first_line) {}

  bool next(Pipeline& out) {
    out.stages.clear();
    out.stages.emplace_back();
    bool continued = false; // after |, && or ||: the pipeline goes on past a newline
    for (;;) {
      if (m_pos >= m_text.size()) {
        return has_content(out);
      }
      const char c = m_text[m_pos];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++m_pos;
        continue;
      }
      if (c == '\\' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n') {
        m_pos += 2;
        ++m_line;
        continue;
      }
      if (c == '\n') {
        ++m_pos;
        ++m_line;
        read_heredocs();
        if (!continued && has_content(out)) {
          return true;
        }
        continue;
      }
      if (c == '#') {
        const std::size_t nl = m_text.find('\n', m_pos);
        m_pos = nl == std::string_view::npos ? m_text.size() : nl;
        continue;
      }
      continued = false;
      if (c == ';' || (c == '&' && m_text.substr(m_pos, 2) != "&>")) {
        const bool two = m_pos + 1 < m_text.size() && m_text[m_pos + 1] == c;
        m_pos += two ? 2 : 1;
        if (c == '&' && two) {
          continued = true; // && ends this pipeline, but a newline may follow
        }
        if (has_content(out)) {
          return true;
        }
        continue;
      }
      if (c == '|') {
        if (m_text.substr(m_pos, 2) == "||") {
          m_pos += 2;
          if (has_content(out)) {
            return true;
          }
          continue;
        }
        m_pos += m_text.substr(m_pos, 2) == "|&" ? 2 : 1;
        if (out.stages.size() < k_max_stages && !out.stages.back().words.empty()) {
          out.stages.emplace_back();
        }
        continued = true;
        continue;
      }
      if (c == '(' || c == ')') {
        ++m_pos;
        if (c == ')' && has_content(out)) {
          return true;
        }
        continue;
      }
      if (c == '<' || c == '>') {
        if (c == '<' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '(') {
          add_word(out, read_word());
          continue;
        }
        read_redirect(out);
        continue;
      }
      const std::size_t start = m_pos;
      Word w = read_word();
      // "2>file": a file descriptor number before a redirection is not a word.
      const bool fd = m_pos < m_text.size() && (m_text[m_pos] == '<' || m_text[m_pos] == '>') &&
                      std::all_of(w.raw.begin(), w.raw.end(), [](char d) { return d >= '0' && d <= '9'; });
      if (!fd && m_pos > start) {
        add_word(out, w);
      }
      if (m_pos == start) {
        ++m_pos; // an unexpected character
      }
    }
  }

private:
  static bool has_content(const Pipeline& p) {
    return std::any_of(p.stages.begin(), p.stages.end(),
                       [](const SimpleCommand& s) { return !s.words.empty() || !s.redirects.empty(); });
  }

  void add_word(Pipeline& out, Word w) {
    if (out.stages.back().words.size() < k_max_words) {
      out.stages.back().words.push_back(w);
    }
  }

  Word read_word() {
    const std::size_t start = m_pos;
    const std::size_t line = m_line;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == ')' ||
          (c == '(' && m_pos > start && m_text[m_pos - 1] != '$' && m_text[m_pos - 1] != '<') ||
          ((c == '<' || c == '>') && !(c == '<' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '('))) {
        break;
      }
      std::size_t next = m_pos + 1;
      if (c == '\\') {
        next = m_pos + 2;
      } else if (c == '\'') {
        const std::size_t q = m_text.find('\'', m_pos + 1);
        next = q == std::string_view::npos ? m_text.size() : q + 1;
      } else if (c == '"') {
        next = m_pos + 1;
        while (next < m_text.size() && m_text[next] != '"') {
          if (m_text[next] == '\\') {
            ++next;
          } else if (m_text[next] == '$' && next + 1 < m_text.size() &&
                     (m_text[next + 1] == '(' || m_text[next + 1] == '{')) {
            next = skip_nested(m_text, next) - 1;
          } else if (m_text[next] == '`') {
            next = skip_nested(m_text, next) - 1;
          }
          ++next;
        }
        next = std::min(next + 1, m_text.size());
      } else if ((c == '$' || c == '<') && m_pos + 1 < m_text.size() &&
                 (m_text[m_pos + 1] == '(' || (c == '$' && m_text[m_pos + 1] == '{'))) {
        next = skip_nested(m_text, m_pos);
      } else if (c == '`') {
        next = skip_nested(m_text, m_pos);
      }
      next = std::min(next, m_text.size());
      for (std::size_t k = m_pos; k < next; ++k) {
        if (m_text[k] == '\n') {
          ++m_line;
        }
      }
      m_pos = next;
    }
    return Word{m_text.substr(start, m_pos - start), line};
  }

  void read_redirect(Pipeline& out) {
    std::size_t len = 1;
    for (const std::string_view op : {"<<<", "<<-", ">>", "<<", "&>", ">&", "<&", ">|"}) {
      if (m_text.substr(m_pos, op.size()) == op) {
        len = op.size();
        break;
      }
    }
    std::string_view op = m_text.substr(m_pos, len);
    m_pos += len;
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t')) {
      ++m_pos;
    }
    const Word target = read_word();
    if (op == "<<" || op == "<<-") {
      std::string delimiter;
      bool quoted = false;
      for (const char c : target.raw) {
        if (c == '\'' || c == '"' || c == '\\') {
          quoted = true;
        } else {
          delimiter += c;
        }
      }
      if (m_heredocs.size() < 8) {
        m_heredocs.push_back(Heredoc{std::move(delimiter), op == "<<-", quoted, &out, out.stages.size() - 1,
                                     out.stages.back().redirects.size()});
      }
      out.stages.back().redirects.push_back(Redirect{"<<", Word{{}, target.line}, !quoted});
      return;
    }
    if (op == "&>" || op == ">|") {
      op = ">";
    }
    if (op == ">&" || op == "<&") {
      return; // 2>&1 and the like
    }
    out.stages.back().redirects.push_back(Redirect{op, target, true});
  }

  // The bodies of the here-documents opened on the line just ended.
  void read_heredocs() {
    for (Heredoc& h : m_heredocs) {
      const std::size_t body_start = m_pos;
      const std::size_t body_line = m_line;
      std::size_t body_end = m_text.size();
      while (m_pos < m_text.size()) {
        std::size_t nl = m_text.find('\n', m_pos);
        if (nl == std::string_view::npos) {
          nl = m_text.size();
        }
        std::string_view line = m_text.substr(m_pos, nl - m_pos);
        if (!line.empty() && line.back() == '\r') {
          line.remove_suffix(1);
        }
        if (h.strip_tabs) {
          while (!line.empty() && line.front() == '\t') {
            line.remove_prefix(1);
          }
        }
        const std::size_t here = m_pos;
        m_pos = nl < m_text.size() ? nl + 1 : nl;
        ++m_line;
        if (line == h.delimiter) {
          body_end = here;
          break;
        }
      }
      if (h.pipeline != nullptr && h.stage < h.pipeline->stages.size() &&
          h.index < h.pipeline->stages[h.stage].redirects.size()) {
        Redirect& r = h.pipeline->stages[h.stage].redirects[h.index];
        if (r.op == "<<" && r.target.raw.empty()) {
          r.target = Word{m_text.substr(body_start, std::min(body_end, m_text.size()) - body_start), body_line};
        }
      }
    }
    m_heredocs.clear();
  }

  struct Heredoc {
    std::string delimiter;
    bool strip_tabs;
    bool quoted;
    Pipeline* pipeline; // the pipeline being read (bodies are read before it is handed out)
    std::size_t stage;
    std::size_t index;
  };

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::size_t m_line;
  std::vector<Heredoc> m_heredocs;
};

// The result of expanding one word.
struct Expansion {
  Taint taint;
  std::string text;          // the word with quotes removed and variables replaced by their paths ("~" for HOME)
  std::size_t path_line = 0; // a variable's path_line, when one was used
  std::string path_label;    // what that variable's path named
};

class ShellAnalyser {
public:
  ShellAnalyser(Names& names, std::vector<Flow>& out) : m_names(names), m_out(out) {}

  void run(std::string_view text, std::size_t first_line, int depth);

private:
  Taint pipeline(const Pipeline& p, int depth);
  Taint command(const SimpleCommand& cmd, const Taint& stdin_taint, int depth);
  Expansion expand(std::string_view raw, std::size_t line, int depth, std::string_view context = {});
  Taint file_taint(const Expansion& path, std::size_t line);
  Taint substitution(std::string_view inner, std::size_t line, int depth);
  void sink(std::size_t line, Taint taint);
  void set_file(const std::string& path, const Taint& taint);

  Names& m_names;
  std::vector<Flow>& m_out;
};

void ShellAnalyser::sink(std::size_t line, Taint taint) {
  if (taint.kind != Kind::none) {
    m_out.push_back(Flow{std::move(taint), line, true});
  }
}

void ShellAnalyser::set_file(const std::string& path, const Taint& taint) {
  if (path.empty() || taint.kind == Kind::none) {
    return;
  }
  if (Value* v = m_names.slot("file:" + path)) {
    merge(v->taint, taint);
  }
}

Taint ShellAnalyser::substitution(std::string_view inner, std::size_t line, int depth) {
  if (depth >= k_max_depth) {
    return {};
  }
  // $(< file)
  std::size_t b = 0;
  while (b < inner.size() && (inner[b] == ' ' || inner[b] == '\t')) {
    ++b;
  }
  if (b < inner.size() && inner[b] == '<') {
    std::size_t e = inner.size();
    while (e > b + 1 && (inner[e - 1] == ' ' || inner[e - 1] == '\n')) {
      --e;
    }
    return file_taint(expand(inner.substr(b + 1, e - b - 1), line, depth + 1), line);
  }
  Taint out;
  ShellLexer lexer(inner, line);
  Pipeline p;
  while (lexer.next(p)) {
    merge(out, pipeline(p, depth + 1));
  }
  return out;
}

Expansion ShellAnalyser::expand(std::string_view raw, std::size_t line, int depth, std::string_view context) {
  Expansion x;
  std::size_t physical_line = line;
  bool in_double = false;
  const auto take = [&](const Taint& atom) {
    if (atom.kind == Kind::none) {
      return;
    }
    if (atom.kind == Kind::env_secret) {
      std::string before(context);
      before += x.text.size() > 64 ? x.text.substr(x.text.size() - 64) : x.text;
      if (credential_context_before(before)) {
        return;
      }
    }
    merge(x.taint, atom);
  };
  const auto append = [&](std::string_view s) {
    if (x.text.size() < k_max_path) {
      x.text.append(s.substr(0, k_max_path - x.text.size()));
    }
  };
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '\n') {
      ++physical_line;
    }
    if (c == '\\' && i + 1 < raw.size()) {
      append(raw.substr(i + 1, 1));
      ++i;
      continue;
    }
    if (c == '\'' && !in_double) {
      const std::size_t q = raw.find('\'', i + 1);
      const std::size_t end = q == std::string_view::npos ? raw.size() : q;
      append(raw.substr(i + 1, end - i - 1));
      i = end;
      continue;
    }
    if (c == '"') {
      in_double = !in_double;
      continue;
    }
    if (c == '~' && !in_double && (i == 0 || raw[i - 1] == '=' || raw[i - 1] == ':')) {
      append("~");
      continue;
    }
    if (c == '`' || (c == '$' && i + 1 < raw.size() && raw[i + 1] == '(') ||
        (c == '<' && i + 1 < raw.size() && raw[i + 1] == '(')) {
      const std::size_t end = skip_nested(raw, i);
      const std::size_t open = c == '`' ? i + 1 : i + 2;
      const std::size_t close = c == '`' ? (end > open ? end - 1 : open) : (end > open ? end - 1 : open);
      if (c == '$' && i + 2 < raw.size() && raw[i + 2] == '(') {
        i = end - 1; // $(( arithmetic ))
        continue;
      }
      take(substitution(raw.substr(open, close - open), physical_line, depth));
      i = end - 1;
      continue;
    }
    if (c == '$' && i + 1 < raw.size()) {
      std::string_view name;
      std::size_t end = i + 1;
      if (raw[i + 1] == '{') {
        end = skip_nested(raw, i);
        std::string_view inner = raw.substr(i + 2, end > i + 3 ? end - i - 3 : 0);
        std::size_t k = 0;
        while (k < inner.size() && (name_char(inner[k]) || (k == 0 && inner[k] == '!'))) {
          ++k;
        }
        name = inner.substr(0, k);
      } else {
        std::size_t k = i + 1;
        while (k < raw.size() && name_char(raw[k])) {
          ++k;
        }
        name = raw.substr(i + 1, k - i - 1);
        end = k;
      }
      if (name.empty()) {
        append("$");
        continue;
      }
      if (name == "HOME") {
        append("~");
      } else if (const Value* v = m_names.find(name)) {
        append(v->path);
        if (v->path_line != 0 && x.path_line == 0) {
          x.path_line = v->path_line;
          x.path_label = v->path_label;
        }
        take(v->taint);
      } else if (is_secret_env_name(name)) {
        take(Taint{Kind::env_secret, physical_line, std::string(name)});
      }
      i = end - 1;
      continue;
    }
    append(raw.substr(i, 1));
  }
  return x;
}

// The content of the file a word names: a credentials file, or one this script wrote a secret into.
Taint ShellAnalyser::file_taint(const Expansion& path, std::size_t line) {
  const PathClass c = classify_path(path.text);
  if (c.kind != Kind::none) {
    return Taint{c.kind, path_source_line(c, path.path_line, path.path_label, line), c.label};
  }
  if (const Value* v = m_names.find("file:" + path.text)) {
    return v->taint;
  }
  return {};
}

// A word's text without its quotes, for code handed to an interpreter (`node -e "…"`).
std::string unquote(std::string_view raw) {
  if (raw.size() >= 2 && raw.front() == '\'' && raw.back() == '\'') {
    return std::string(raw.substr(1, raw.size() - 2));
  }
  if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') {
    std::string out;
    const std::string_view inner = raw.substr(1, raw.size() - 2);
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (inner[i] == '\\' && i + 1 < inner.size() &&
          (inner[i + 1] == '"' || inner[i + 1] == '\\' || inner[i + 1] == '$' || inner[i + 1] == '`')) {
        ++i;
      }
      out += inner[i];
    }
    return out;
  }
  return std::string(raw);
}

// The language of an interpreter the shell hands code to.
std::optional<CodeLanguage> interpreter_language(std::string_view program) {
  if (program == "python" || program == "python3" || program == "python2" || program == "py" || program == "uv") {
    return CodeLanguage::python;
  }
  if (program == "node" || program == "nodejs" || program == "bun" || program == "deno" || program == "tsx" ||
      program == "ts-node") {
    return CodeLanguage::javascript;
  }
  return std::nullopt;
}

bool is_assignment(std::string_view raw) {
  std::size_t k = 0;
  while (k < raw.size() && name_char(raw[k])) {
    ++k;
  }
  return k > 0 && !(raw[0] >= '0' && raw[0] <= '9') && (raw.substr(k, 1) == "=" || raw.substr(k, 2) == "+=");
}

std::string_view program_name(std::string_view word) {
  const std::size_t slash = word.rfind('/');
  return slash == std::string_view::npos ? word : word.substr(slash + 1);
}

// Commands whose output is (a transform of) their input and arguments.
bool passes_data_through(std::string_view program) {
  return is_one_of(program,
                   {"echo",    "printf", "cat", "base64",  "xxd",     "od",     "jq",     "tr",     "sed",     "awk",
                    "gzip",    "bzip2",  "xz",  "openssl", "tee",     "rev",    "head",   "tail",   "sort",    "uniq",
                    "cut",     "gpg",    "tar", "zip",     "hexdump", "basenc", "base32", "python", "python3", "node",
                    "strings", "grep",   "tac", "nl",      "column",  "fold",   "zstd"});
}

bool reads_files(std::string_view program) {
  return is_one_of(program, {"cat",  "head",  "tail",    "base64", "xxd",   "od",     "strings", "tar",    "zip",
                             "gzip", "bzip2", "xz",      "7z",     "less",  "more",   "sqlite3", "gpg",    "openssl",
                             "tac",  "nl",    "jq",      "grep",   "awk",   "sed",    "hexdump", "base32", "basenc",
                             "zstd", "cp",    "install", "dd",     "rsync", "source", "."});
}

Taint ShellAnalyser::command(const SimpleCommand& cmd, const Taint& stdin_taint, int depth) {
  const std::vector<Word>& w = cmd.words;
  std::size_t i = 0;
  // Leading keywords and wrappers.
  while (i < w.size() && is_one_of(w[i].raw, {"if",      "then",    "else", "elif", "do",   "while",  "until",
                                              "{",       "}",       "!",    "time", "sudo", "nohup",  "exec",
                                              "command", "builtin", "fi",   "done", "esac", "timeout"})) {
    ++i;
    if (i < w.size() && w[i - 1].raw == "timeout" && !w[i].raw.empty() && w[i].raw[0] >= '0' && w[i].raw[0] <= '9') {
      ++i;
    }
  }
  // `for NAME in WORDS`
  if (i + 2 < w.size() && w[i].raw == "for" && w[i + 2].raw == "in") {
    if (Value* v = m_names.slot(w[i + 1].raw)) {
      Value value;
      for (std::size_t k = i + 3; k < w.size(); ++k) {
        const Expansion x = expand(w[k].raw, w[k].line, depth);
        merge(value.taint, x.taint);
        const PathClass c = classify_path(x.text);
        if (value.path.empty() || c.kind != Kind::none) {
          value.path = x.text;
          value.path_line = c.kind != Kind::none ? path_source_line(c, x.path_line, x.path_label, w[k].line) : 0;
          value.path_label = c.label;
        }
      }
      *v = value;
    }
    return {};
  }
  // Assignments (export/local/declare/readonly NAME=VALUE, or a prefix of a command).
  bool declaration = false;
  if (i < w.size() && is_one_of(w[i].raw, {"export", "local", "declare", "readonly", "typeset"})) {
    if (w[i].raw == "export" && i + 1 < w.size() && w[i + 1].raw == "-p") {
      return Taint{Kind::env_dump, w[i].line, "the environment"};
    }
    declaration = true;
    ++i;
    while (i < w.size() && starts_with(w[i].raw, "-")) {
      ++i;
    }
  }
  while (i < w.size() && is_assignment(w[i].raw)) {
    const std::string_view raw = w[i].raw;
    const std::size_t eq = raw.find('=');
    const bool append_mode = eq > 0 && raw[eq - 1] == '+';
    const std::string_view name = raw.substr(0, append_mode ? eq - 1 : eq);
    const Expansion x = expand(raw.substr(eq + 1), w[i].line, depth);
    if (Value* v = m_names.slot(name)) {
      const PathClass c = classify_path(x.text);
      if (append_mode) {
        merge(v->taint, x.taint);
      } else {
        v->taint = x.taint;
        v->path = x.text;
        v->path_line = c.kind != Kind::none ? path_source_line(c, x.path_line, x.path_label, w[i].line) : 0;
        v->path_label = c.label;
      }
    }
    ++i;
  }
  if (declaration || i >= w.size()) {
    return {};
  }
  const std::string_view program = program_name(w[i].raw);
  const std::size_t line = w[i].line;
  // Each word is expanded at most once (nested substitutions would otherwise multiply the work).
  std::vector<std::optional<Expansion>> expanded(w.size());
  const auto word = [&](std::size_t k) -> const Expansion& {
    if (!expanded[k]) {
      expanded[k] = expand(w[k].raw, w[k].line, depth);
    }
    return *expanded[k];
  };
  const auto value_of = [&](std::string_view value, std::size_t k, std::size_t value_line) {
    return value.data() == w[k].raw.data() && value.size() == w[k].raw.size() ? word(k)
                                                                              : expand(value, value_line, depth);
  };

  // Input: the pipe, `< file`, `<<< word`, a here-document.
  Taint input = stdin_taint;
  for (const Redirect& r : cmd.redirects) {
    if (r.op == "<") {
      merge(input, file_taint(expand(r.target.raw, r.target.line, depth), r.target.line));
    } else if (r.op == "<<<") {
      merge(input, expand(r.target.raw, r.target.line, depth).taint);
    } else if (r.op == "<<" && r.expand && r.target.raw.size() <= k_max_heredoc_expand) {
      merge(input, expand(r.target.raw, r.target.line, depth, "\"").taint);
    }
  }

  // Code handed to an interpreter: `python3 -c "…"`, `node -e "…"`, `python3 - <<'EOF'`.
  if (const std::optional<CodeLanguage> code_language = interpreter_language(program)) {
    const auto code = [&](std::string_view text, std::size_t first_line) {
      const std::size_t from = m_out.size();
      analyse_code(*code_language, text, m_out);
      for (std::size_t k = from; k < m_out.size(); ++k) {
        m_out[k].sink_line += first_line - 1;
        m_out[k].source.line += first_line - 1;
      }
    };
    for (std::size_t k = i + 1; k + 1 < w.size(); ++k) {
      if (is_one_of(w[k].raw, {"-c", "-e", "--eval", "-p", "--print", "eval"})) {
        code(unquote(w[k + 1].raw), w[k + 1].line);
        break;
      }
    }
    for (const Redirect& r : cmd.redirects) {
      if (r.op == "<<" && !r.target.raw.empty()) {
        code(r.target.raw, r.target.line);
      }
    }
  }

  Taint output;
  // Sources.
  if ((program == "env" || program == "printenv") &&
      std::none_of(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end(),
                   [](const Word& a) { return !starts_with(a.raw, "-") && !is_assignment(a.raw); })) {
    output = Taint{Kind::env_dump, line, "the environment"};
  } else if (program == "printenv") {
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      if (is_secret_env_name(w[k].raw)) {
        merge(output, Taint{Kind::env_secret, line, std::string(w[k].raw)});
      }
    }
  } else if ((program == "set" || program == "declare") && i + 1 >= w.size()) {
    output = Taint{Kind::env_dump, line, "the environment"};
  } else if (program == "history") {
    output = Taint{Kind::agent_memory, line, "shell history"};
  }
  if (reads_files(program)) {
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      if (starts_with(w[k].raw, "-")) {
        continue;
      }
      merge(output, file_taint(word(k), w[k].line));
    }
  }
  if (passes_data_through(program)) {
    merge(output, input);
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      merge(output, word(k).taint);
    }
  }
  if (program == "cp" || program == "install" || program == "rsync") {
    // cp SOURCE… DEST: the destination now holds the secret.
    if (w.size() >= i + 3 && output.kind != Kind::none) {
      set_file(word(w.size() - 1).text, output);
    }
    output = {};
  }
  if (program == "read") {
    // read [-r] NAME < file
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      if (!starts_with(w[k].raw, "-")) {
        if (Value* v = m_names.slot(w[k].raw)) {
          v->taint = input;
          v->path.clear();
          v->path_line = 0;
        }
      }
    }
  }

  // Sinks.
  if (program == "curl") {
    const std::initializer_list<std::string_view> k_body = {
        "-d",     "--data",        "--data-raw", "--data-binary", "--data-urlencode", "--json", "-F",
        "--form", "--form-string", "-T",         "--upload-file"};
    const std::initializer_list<std::string_view> k_skip = {"-H",
                                                            "--header",
                                                            "-u",
                                                            "--user",
                                                            "--oauth2-bearer",
                                                            "-A",
                                                            "--user-agent",
                                                            "-e",
                                                            "--referer",
                                                            "-b",
                                                            "--cookie",
                                                            "-o",
                                                            "--output",
                                                            "-w",
                                                            "--write-out",
                                                            "-X",
                                                            "--request",
                                                            "-m",
                                                            "--max-time",
                                                            "--connect-timeout",
                                                            "-x",
                                                            "--proxy",
                                                            "--cacert",
                                                            "--cert",
                                                            "--key",
                                                            "-K",
                                                            "--config",
                                                            "--retry",
                                                            "-c",
                                                            "--cookie-jar",
                                                            "--resolve",
                                                            "--interface",
                                                            "-r",
                                                            "--range",
                                                            "-z",
                                                            "--time-cond",
                                                            "--proxy-user",
                                                            "-U",
                                                            "--max-filesize",
                                                            "--limit-rate",
                                                            "-Y",
                                                            "-y",
                                                            "--url-query",
                                                            "--variable",
                                                            "--expand-data",
                                                            "--aws-sigv4"};
    Taint found;
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      std::string_view opt = w[k].raw;
      std::string_view value;
      std::size_t value_line = w[k].line;
      bool body = false;
      if (starts_with(opt, "--")) {
        const std::size_t eq = opt.find('=');
        const std::string_view flag = eq == std::string_view::npos ? opt : opt.substr(0, eq);
        body = is_one_of(flag, k_body);
        const bool skip = is_one_of(flag, k_skip);
        if (body || skip) {
          if (eq != std::string_view::npos) {
            value = opt.substr(eq + 1);
          } else if (k + 1 < w.size()) {
            value = w[++k].raw;
            value_line = w[k].line;
          }
        }
        opt = flag;
        if (!body) {
          continue;
        }
      } else if (starts_with(opt, "-") && opt.size() >= 2) {
        const std::string_view flag = opt.substr(0, 2);
        body = is_one_of(flag, k_body);
        const bool skip = is_one_of(flag, k_skip);
        if (body || skip) {
          if (opt.size() > 2) {
            value = opt.substr(2);
          } else if (k + 1 < w.size()) {
            value = w[++k].raw;
            value_line = w[k].line;
          }
        }
        opt = flag;
        if (!body) {
          continue;
        }
      } else {
        // A URL: only a file's content or the environment counts there.
        const Taint t = word(k).taint;
        if (t.kind != Kind::env_secret) {
          merge(found, t);
        }
        continue;
      }
      // A body value: @file, @-, name=@file, name=<file, or data.
      const Expansion x = value_of(value, k, value_line);
      std::string_view text = x.text;
      if (opt == "-F" || opt == "--form") {
        const std::size_t eq = text.find('=');
        if (eq != std::string_view::npos && eq + 1 < text.size() && (text[eq + 1] == '@' || text[eq + 1] == '<')) {
          text = text.substr(eq + 1);
        }
      }
      if (opt == "-T" || opt == "--upload-file") {
        if (text == "-" || text == ".") {
          merge(found, input);
        } else {
          Expansion path = x;
          merge(found, file_taint(path, value_line));
        }
        continue;
      }
      if (!text.empty() && (text.front() == '@' || text.front() == '<')) {
        const std::string_view file = text.substr(1);
        if (file == "-") {
          merge(found, input);
        } else {
          Expansion path = x;
          path.text = std::string(file.substr(0, file.find(';')));
          merge(found, file_taint(path, value_line));
        }
        continue;
      }
      merge(found, x.taint);
    }
    sink(line, found);
  } else if (program == "wget") {
    Taint found;
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      const std::string_view a = w[k].raw;
      const std::size_t eq = a.find('=');
      const std::string_view flag = eq == std::string_view::npos ? a : a.substr(0, eq);
      std::string_view value;
      if (is_one_of(flag, {"--post-data", "--body-data", "--post-file", "--body-file", "--header"})) {
        if (eq != std::string_view::npos) {
          value = a.substr(eq + 1);
        } else if (k + 1 < w.size()) {
          value = w[++k].raw;
        }
        if (flag == "--header") {
          continue;
        }
        const Expansion x = value_of(value, k, w[k].line);
        if (flag == "--post-file" || flag == "--body-file") {
          merge(found, x.text == "/dev/stdin" || x.text == "-" ? input : file_taint(x, w[k].line));
        } else {
          merge(found, x.taint);
        }
      } else if (!starts_with(a, "-")) {
        const Taint t = word(k).taint;
        if (t.kind != Kind::env_secret) {
          merge(found, t);
        }
      }
    }
    sink(line, found);
  } else if (is_one_of(program, {"nc", "ncat", "netcat", "socat", "telnet"}) ||
             (program == "openssl" && i + 1 < w.size() && w[i + 1].raw == "s_client")) {
    sink(line, input);
  }

  // Output: `> file` remembers what was written.
  for (const Redirect& r : cmd.redirects) {
    if ((r.op == ">" || r.op == ">>") && output.kind != Kind::none) {
      set_file(expand(r.target.raw, r.target.line, depth).text, output);
    }
  }
  if (program == "tee" && output.kind != Kind::none) {
    for (std::size_t k = i + 1; k < w.size(); ++k) {
      if (!starts_with(w[k].raw, "-")) {
        set_file(word(k).text, output);
      }
    }
  }
  return output;
}

Taint ShellAnalyser::pipeline(const Pipeline& p, int depth) {
  Taint flowing;
  for (const SimpleCommand& stage : p.stages) {
    if (stage.words.empty() && stage.redirects.empty()) {
      continue;
    }
    flowing = command(stage, flowing, depth);
  }
  return flowing;
}

void ShellAnalyser::run(std::string_view text, std::size_t first_line, int depth) {
  ShellLexer lexer(text, first_line);
  Pipeline p;
  while (lexer.next(p)) {
    pipeline(p, depth);
  }
}

} // namespace

void analyse_shell(std::string_view text, std::vector<Flow>& out) {
  Names names;
  ShellAnalyser analyser(names, out);
  analyser.run(text, 1, 0);
}

} // namespace skillrt::core::flow
