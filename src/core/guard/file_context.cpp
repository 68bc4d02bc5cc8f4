#include "core/guard/file_context.hpp"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>

#include "core/util/ascii_case.hpp"

namespace skillrt::core {
namespace {

constexpr std::size_t k_max_heading = 160;        // bytes of a heading or table header we keep
constexpr std::size_t k_max_statement_head = 240; // bytes of a statement's first line we keep
constexpr int k_max_bracket_depth = 64;           // past this a file is not code we can follow

std::string_view trim_left(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  return text;
}

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_one_of(std::string_view id, std::initializer_list<std::string_view> ids) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

enum class CommentStyle : unsigned char { none, hash, hash_or_semicolon, slashes, slashes_or_hash };

CommentStyle comment_style_for(std::string_view ext) {
  if (is_one_of(ext, {".py", ".sh", ".bash", ".zsh", ".rb", ".pl", ".r", ".jl", ".yaml", ".yml", ".toml", ".conf",
                      ".ps1", ".dockerfile", ".mk", ".env"})) {
    return CommentStyle::hash;
  }
  if (is_one_of(ext, {".cfg", ".ini"})) {
    return CommentStyle::hash_or_semicolon;
  }
  if (is_one_of(ext, {".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".go", ".java", ".c", ".cc", ".cpp", ".h", ".hpp",
                      ".rs", ".swift", ".kt", ".cs"})) {
    return CommentStyle::slashes;
  }
  if (ext == ".php") {
    return CommentStyle::slashes_or_hash;
  }
  return CommentStyle::none;
}

// The comment style of a fenced block's language.
CommentStyle comment_style_for_fence(std::string_view lang) {
  if (is_one_of(lang, {"bash",       "sh",  "shell",      "zsh",      "console", "python", "py",     "python3",
                       "ruby",       "rb",  "perl",       "yaml",     "yml",     "toml",   "r",      "julia",
                       "powershell", "ps1", "dockerfile", "makefile", "ini",     "conf",   "dotenv", "env"})) {
    return CommentStyle::hash;
  }
  if (is_one_of(lang, {"javascript", "js", "typescript", "ts", "jsx", "tsx", "go", "java", "c", "cpp", "c++", "rust",
                       "rs", "swift", "kotlin", "csharp", "cs", "jsonc"})) {
    return CommentStyle::slashes;
  }
  if (lang == "php") {
    return CommentStyle::slashes_or_hash;
  }
  return CommentStyle::none;
}

bool is_whole_line_comment(std::string_view line, CommentStyle style) {
  const std::string_view text = trim_left(line);
  const bool hash = !text.empty() && text.front() == '#' && !(text.size() > 1 && text[1] == '!');
  const bool semicolon = !text.empty() && text.front() == ';';
  const bool slashes =
      text.substr(0, 2) == "//" || text.substr(0, 2) == "/*" || (text.substr(0, 1) == "*" && text.substr(0, 2) != "*/");
  switch (style) {
  case CommentStyle::hash:
    return hash;
  case CommentStyle::hash_or_semicolon:
    return hash || semicolon;
  case CommentStyle::slashes:
    return slashes;
  case CommentStyle::slashes_or_hash:
    return slashes || hash;
  case CommentStyle::none:
    return false;
  }
  return false;
}

// Pattern ids that see Markdown with link destinations blanked (spec §2.12 rule 1).
bool is_link_blanked_id(std::string_view id) {
  return id == "path_traversal" || id == "path_traversal_deep";
}

// The info string's language, lower-cased ("```bash title=x" → "bash").
std::string fence_language(std::string_view info) {
  info = trim_left(info);
  std::size_t end = 0;
  while (end < info.size() && info[end] != ' ' && info[end] != '\t' && info[end] != '{' && info[end] != ',') {
    ++end;
  }
  return ascii_lower_copy(info.substr(0, end));
}

// Fences whose lines are commands someone runs; an unlabelled fence counts.
bool fence_runs_commands(std::string_view language) {
  return language.empty() || is_one_of(language, {"bash", "sh", "shell", "zsh", "console", "terminal", "powershell",
                                                  "ps1", "pwsh", "cmd", "bat", "batch", "dockerfile", "fish"});
}

FileContext::FileKind kind_for(std::string_view ext) {
  if (ext == ".md" || ext == ".markdown" || ext == ".mdx") {
    return FileContext::FileKind::markdown;
  }
  if (is_one_of(ext, {".html", ".htm", ".xhtml", ".css", ".scss", ".sass", ".less", ".svg", ".vue", ".svelte",
                      ".jinja", ".jinja2", ".j2", ".hbs", ".handlebars", ".mustache", ".liquid", ".ejs", ".njk",
                      ".twig", ".erb", ".tmpl", ".tpl"})) {
    return FileContext::FileKind::markup;
  }
  if (comment_style_for(ext) != CommentStyle::none &&
      !is_one_of(ext, {".yaml", ".yml", ".toml", ".conf", ".cfg", ".ini", ".env", ".mk"})) {
    return FileContext::FileKind::script;
  }
  return FileContext::FileKind::other;
}

// The text of an ATX heading ("## Security notes" → "security notes"), or
// nullopt when the line is not one.
std::optional<std::string_view> atx_heading(std::string_view text) {
  std::size_t level = 0;
  while (level < text.size() && text[level] == '#') {
    ++level;
  }
  if (level == 0 || level > 6 || (level < text.size() && text[level] != ' ' && text[level] != '\t')) {
    return std::nullopt;
  }
  return trim_left(text.substr(level));
}

// `- \`--force\`: …`, `* --yes, -y  …`, `- **--no-verify** …`: a list item
// that documents a command-line option.
bool is_option_list_item(std::string_view text) {
  if (text.empty() || (text.front() != '-' && text.front() != '*' && text.front() != '+')) {
    return false;
  }
  text = trim_left(text.substr(1));
  while (!text.empty() && (text.front() == '`' || text.front() == '*' || text.front() == '_')) {
    text.remove_prefix(1);
  }
  return text.substr(0, 1) == "-" || (text.size() > 1 && text[0] == '/' && text[1] != '/');
}

} // namespace

FileContext::FileContext(std::string_view rel_path) {
  const std::size_t slash = rel_path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) {
    m_ext = ascii_lower_copy(base.substr(dot));
  }
  m_kind = kind_for(m_ext);
}

void FileContext::advance(std::string_view line) {
  line = trim_right(line);
  if (m_kind == FileKind::markdown) {
    const std::string_view text = trim_left(line);
    const char c = text.empty() ? '\0' : text.front();
    if (c == '`' || c == '~') {
      std::size_t run = 0;
      while (run < text.size() && text[run] == c) {
        ++run;
      }
      if (run >= 3) {
        if (!m_in_fence) {
          m_in_fence = true;
          m_fence.assign(run, c);
          const std::string language = fence_language(text.substr(run));
          m_fence_comments = static_cast<unsigned char>(comment_style_for_fence(language));
          m_fence_runs_commands = fence_runs_commands(language);
          m_in_table = false;
          reset_statement();
          return;
        }
        if (c == m_fence.front() && run >= m_fence.size() && trim_left(text.substr(run)).empty()) {
          m_in_fence = false;
          m_fence.clear();
          m_fence_comments = 0;
          m_fence_runs_commands = false;
          reset_statement();
          return;
        }
      }
    }
    if (!m_in_fence) {
      // Prose has no statements to trace.
      reset_statement();
      track_prose(text);
      return;
    }
  }
  track_statement(line);
}

void FileContext::track_prose(std::string_view text) {
  const bool table_row = !text.empty() && text.front() == '|';
  if (table_row && !m_in_table) {
    m_table_header = ascii_lower_copy(text.substr(0, k_max_heading));
  }
  m_in_table = table_row;
  if (table_row) {
    m_prose = ProseKind::table_row;
  } else if (const std::optional<std::string_view> heading = atx_heading(text)) {
    m_prose = ProseKind::heading;
    m_heading = ascii_lower_copy(heading->substr(0, k_max_heading));
    if (m_title.empty() && text.substr(0, 2) == "# ") {
      m_title = m_heading;
    }
  } else if (!text.empty() && text.front() == '>') {
    m_prose = ProseKind::quote;
  } else if (is_option_list_item(text)) {
    m_prose = ProseKind::list_item;
  } else {
    m_prose = ProseKind::paragraph;
  }
  if (!table_row) {
    m_table_header.clear();
  }
}

bool FileContext::is_comment_line(std::string_view line) const {
  const CommentStyle style =
      m_kind == FileKind::markdown
          ? (m_in_fence ? static_cast<CommentStyle>(m_fence_comments) : CommentStyle::none)
          : comment_style_for(m_ext);
  return is_whole_line_comment(line, style);
}

void FileContext::reset_statement() {
  m_statement.clear();
  m_bracket_depth = 0;
  m_continued = false;
}

void FileContext::track_statement(std::string_view line) {
  if (m_bracket_depth == 0 && !m_continued) {
    m_statement.assign(line.substr(0, std::min(line.size(), k_max_statement_head)));
  }
  // Count brackets outside quotes; good enough to follow a literal list or map.
  char quote = '\0';
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != '\0') {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = '\0';
      }
      continue;
    }
    if (c == '"' || c == '\'' || c == '`') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      break; // a trailing comment says nothing about structure
    } else if (c == '(' || c == '[' || c == '{') {
      ++m_bracket_depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --m_bracket_depth;
    }
  }
  if (m_bracket_depth < 0 || m_bracket_depth > k_max_bracket_depth) {
    m_bracket_depth = 0;
  }
  m_continued = !line.empty() && line.back() == '\\';
}

std::string_view FileContext::text_for(const ThreatPattern& pattern, std::string_view line,
                                       std::string& scratch) const {
  if (m_kind != FileKind::markdown || m_in_fence || !is_link_blanked_id(pattern.id) || line.find("](") == std::string_view::npos) {
    return line;
  }
  // Blank every inline link destination `](...)`, keeping offsets, so a
  // relative link to a sibling document is not read as path traversal.
  scratch.assign(line);
  std::size_t pos = 0;
  while ((pos = scratch.find("](", pos)) != std::string::npos) {
    std::size_t i = pos + 2;
    int depth = 1;
    while (i < scratch.size() && depth > 0) {
      if (scratch[i] == '(') {
        ++depth;
      } else if (scratch[i] == ')') {
        --depth;
        if (depth == 0) {
          break;
        }
      }
      scratch[i] = ' ';
      ++i;
    }
    pos = i;
  }
  return scratch;
}

} // namespace skillrt::core
