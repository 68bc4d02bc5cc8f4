#include "core/guard/file_context.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>

namespace skillrt::core {
namespace {

constexpr std::string_view k_comment_note = "(in a comment; informational)";
constexpr std::string_view k_denylist_note = "(in a denylist literal; confirm before installing)";
constexpr std::string_view k_auth_note = "(sent as the API's own credential; informational)";
constexpr std::string_view k_reported_note = "(quoted or described; confirm before installing)";
constexpr std::string_view k_signature_note = "(in a detection signature; informational)";
constexpr std::size_t k_max_statement_head = 240; // bytes of a statement's first line we keep
constexpr int k_max_bracket_depth = 64;           // past this a file is not code we can follow

char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lower_copy(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
  return out;
}

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

bool contains_ci(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) {
    return false;
  }
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    bool same = true;
    for (std::size_t j = 0; j < needle.size(); ++j) {
      if (ascii_lower(haystack[i + j]) != needle[j]) {
        same = false;
        break;
      }
    }
    if (same) {
      return true;
    }
  }
  return false;
}

bool contains_any_ci(std::string_view haystack, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(), [&](std::string_view n) { return contains_ci(haystack, n); });
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

// The language of a fenced block's info string ("```bash title=x" → "bash").
CommentStyle comment_style_for_fence(std::string_view info) {
  info = trim_left(info);
  std::size_t end = 0;
  while (end < info.size() && info[end] != ' ' && info[end] != '\t' && info[end] != '{' && info[end] != ',') {
    ++end;
  }
  const std::string lang = lower_copy(info.substr(0, end));
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

RE2::Options caseless() {
  RE2::Options options(RE2::Quiet);
  options.set_case_sensitive(false);
  return options;
}

// Pattern ids whose match may be an inert path reference (spec §2.12 rule 3).
bool is_path_reference_id(std::string_view id) {
  return is_one_of(id, {"ssh_dir_access", "aws_dir_access", "gpg_dir_access", "kube_dir_access", "docker_dir_access",
                        "ssh_backdoor", "system_passwd_access", "hermes_env_access", "read_secrets_file",
                        "js_read_secrets_file", "browser_credential_store", "sudoers_mod"});
}

// Pattern ids that see Markdown with link destinations blanked (spec §2.12 rule 1).
bool is_link_blanked_id(std::string_view id) {
  return id == "path_traversal" || id == "path_traversal_deep";
}

// Whether `head` (a statement's first line) assigns to a name that announces
// a list of things to refuse: DENY_PATHS = [, "blocked_files": …, skip_dirs:
bool starts_denylist_assignment(std::string_view head) {
  static const RE2 k_assignment(
      R"re(^\s*(?:[-*]\s+)?(?:export\s+|readonly\s+|local\s+|const\s+|let\s+|var\s+|static\s+|final\s+|private\s+|public\s+|declare\s+(?:-\w+\s+)*)*(?:[a-z_][\w.]*\s*:\s*)?["'`]?([a-z_][\w.-]*)["'`]?\s*(?::\s*[\w\[\]<>,. ]+?\s*)?(?:=|:=|\+=|:|=>)(?:\s|$|[\[({"']))re",
      caseless());
  static const RE2 k_word(
      R"re(deny|black|block|skip|exclu|ignor|forbid|refus|reject|never|unsafe|sensitive|secret_file|redact|protect|restrict|disallow|banned|dangerous|guard)re",
      caseless());
  std::string name;
  if (!RE2::PartialMatch(head, k_assignment, &name)) {
    return false;
  }
  return RE2::PartialMatch(name, k_word);
}

// An action on the line means the literal is used, not merely listed.
bool has_action_verb(std::string_view line) {
  static const RE2 k_action(
      R"re(\b(?:cat|cp|mv|rm|scp|rsync|curl|wget|ssh|sudo|eval|exec|system|popen|chmod|chown|tee|tar|zip|base64|source)\b|\bopen\s*\(|\.(?:read|write|read_text|write_text|readfile|readfilesync|writefile|writefilesync|append)\w*\s*\(|>>|\|\s*\w)re",
      caseless());
  return RE2::PartialMatch(line, k_action);
}

bool mentions_loopback(std::string_view line) {
  return contains_any_ci(line, {"://localhost", "://127.0.0.1", "://[::1]", "://0.0.0.0"});
}

// A curl/wget/fetch line whose every secret-named variable sits where an API
// expects its own credential (auth header, basic auth, key parameter) reads as
// ordinary API use; anywhere else (URL path, request body) it reads as sending
// the secret away.
bool secrets_only_in_auth_position(std::string_view line) {
  static const RE2 k_auth_use(
      R"re((?:(?:-h|--header)[=\s]\s*['"][^'"]*|(?:-u|--user)[=\s]\s*['"]?|[?&][a-z_]*(?:key|token)=|authorization['"]?\s*[:=]\s*['"]?(?:bearer\s+|token\s+|basic\s+)?|x-api-key['"]?\s*:\s*['"]?)\$\{?[a-z0-9_]*(?:key|token|secret|passwd|password|pass|credentials?|cookie|session)\b\}?)re",
      caseless());
  static const RE2 k_secret_var(
      R"re(\$\{?[a-z0-9_]*(?:key|token|secret|passwd|password|pass|credentials?|cookie|session)\b)re", caseless());
  std::string rest(line);
  if (RE2::GlobalReplace(&rest, k_auth_use, "") == 0) {
    return false;
  }
  return !RE2::PartialMatch(rest, k_secret_var);
}

// An injection phrase that the line quotes, reports or warns about ("reject
// phrases like \"ignore previous instructions\"", "ignore instructions
// embedded in the page") rather than says.
bool injection_phrase_is_reported(std::string_view line) {
  static const RE2 k_reported(
      R"re(["`“”]|\be\.g\.|\bsuch\s+as\b|\blike\s*["“`]|\basked\s+to\b|\b(?:tries|try|attempts?|attempting)\s+to\b|\bembedded\b|\bfound\s+in\b|\binside\b|\bwithin\s+(?:the\s+)?(?:data|input|content|source|page|file|document)|\binjection\b|\buntrusted\b|\battacker|\bmalicious\b|\bdetect|\bflag\b|\bexample\b)re",
      caseless());
  return RE2::PartialMatch(line, k_reported);
}

// A YARA string definition (`$name = "text" ascii wide`) is a detection
// signature: it names what to look for, it does not do it.
bool is_detection_signature(std::string_view line) {
  static const RE2 k_yara_string(
      R"re(^\s*\$[a-z_]\w*\s*=\s*(?:"[^"]*"|\{[^}]*\}|/[^/]*/)\s*(?:(?:ascii|wide|nocase|fullword|xor|base64|base64wide|private)\b\s*)*(?://.*)?$)re",
      caseless());
  return RE2::PartialMatch(line, k_yara_string);
}

bool is_markdown_ext(std::string_view ext) {
  return ext == ".md" || ext == ".markdown" || ext == ".mdx";
}

} // namespace

FileContext::FileContext(std::string_view rel_path) {
  const std::size_t slash = rel_path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) {
    m_ext = lower_copy(base.substr(dot));
  }
  m_markdown = is_markdown_ext(m_ext);
}

void FileContext::advance(std::string_view line) {
  line = trim_right(line);
  if (m_markdown) {
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
          m_fence_comments = static_cast<unsigned char>(comment_style_for_fence(text.substr(run)));
          reset_statement();
          return;
        }
        if (c == m_fence.front() && run >= m_fence.size() && trim_left(text.substr(run)).empty()) {
          m_in_fence = false;
          m_fence.clear();
          m_fence_comments = 0;
          reset_statement();
          return;
        }
      }
    }
    if (!m_in_fence) {
      // Prose has no statements to trace.
      reset_statement();
      return;
    }
  }
  track_statement(line);
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
  if (!m_markdown || m_in_fence || !is_link_blanked_id(pattern.id) || line.find("](") == std::string_view::npos) {
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

std::optional<FileContext::Judgement> FileContext::judge(const ThreatPattern& pattern, std::string_view line) const {
  const std::string_view id = pattern.id;

  // Requests to the machine itself carry no secret anywhere.
  if (is_one_of(id, {"env_exfil_curl", "env_exfil_wget", "env_exfil_fetch", "env_exfil_httpx", "env_exfil_requests",
                     "raw_ip_url"}) &&
      mentions_loopback(line)) {
    return std::nullopt;
  }
  // "Don't tell the user until …" is a sequencing instruction, not deception.
  if (id == "deception_hide" && contains_any_ci(line, {"unless", "except", "until", "confirm", "diagnos", "verify",
                                                       "check", "before", "first"})) {
    return std::nullopt;
  }
  // The public package indexes of well-known projects are not an attack, and
  // a package straight from a public code host is attributable to its repo.
  if ((id == "pip_untrusted_index" || id == "pip_install_url") &&
      contains_any_ci(line, {"download.pytorch.org", "pypi.org", "pypi.nvidia.com", "data.pyg.org",
                             "huggingface.github.io", "storage.googleapis.com/jax-releases"})) {
    return std::nullopt;
  }
  if (id == "pip_install_url" &&
      (contains_any_ci(line, {"index-url"}) ||
       contains_any_ci(line, {"://github.com/", "://gitlab.com/", "://bitbucket.org/", "://huggingface.co/"}))) {
    return std::nullopt;
  }

  if (is_one_of(id, {"env_exfil_curl", "env_exfil_wget", "env_exfil_fetch"}) && secrets_only_in_auth_position(line)) {
    return Judgement{ThreatSeverity::medium, k_auth_note};
  }
  // AWS documents its examples with keys ending in EXAMPLE.
  if (id == "aws_access_key_leaked" && line.find("EXAMPLE") != std::string_view::npos) {
    return std::nullopt;
  }
  if (pattern.category == ThreatCategory::injection && pattern.severity == ThreatSeverity::critical &&
      injection_phrase_is_reported(line)) {
    return Judgement{ThreatSeverity::high, k_reported_note};
  }
  // Executing a variable is a code-injection sink in a script; in prose it is
  // usually an explanation.
  if (id == "exec_dynamic" && !m_markdown) {
    return Judgement{ThreatSeverity::high, ""};
  }
  if (is_detection_signature(line)) {
    return Judgement{ThreatSeverity::low, k_signature_note};
  }

  // A whole-line comment in code is not executed: a path, a command or a
  // payload there is a reference (rule 3a, extended to every code-shaped
  // category). Instructions to the agent and leaked keys count anywhere.
  const CommentStyle style = m_markdown
                                 ? (m_in_fence ? static_cast<CommentStyle>(m_fence_comments) : CommentStyle::none)
                                 : comment_style_for(m_ext);
  if (pattern.category != ThreatCategory::injection && pattern.category != ThreatCategory::credential_exposure &&
      is_whole_line_comment(line, style)) {
    return Judgement{std::min(pattern.severity, ThreatSeverity::low), k_comment_note};
  }
  if (is_path_reference_id(id)) {
    const bool code = !m_markdown || m_in_fence;
    if (code && !m_statement.empty() && starts_denylist_assignment(m_statement) && !has_action_verb(line)) {
      return Judgement{std::min(pattern.severity, ThreatSeverity::high), k_denylist_note};
    }
  }
  return Judgement{pattern.severity, ""};
}

} // namespace skillrt::core
