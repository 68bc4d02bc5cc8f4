// Flows inside one script (script_flow.hpp): which text is a script in which
// language (by extension, by shebang, or a fenced block of Markdown), and the
// findings made of the flows the analysers find.
//
// What the analysers track (script_flow_code.cpp, script_flow_shell.cpp):
//  - sources: a read of a credentials or key file (~/.ssh/id_*, ~/.aws/credentials,
//    .netrc, .git-credentials, ~/.kube/config, ~/.gnupg, .pgpass, .pypirc, .npmrc,
//    ~/.docker/config.json, browser login and cookie stores, wallets, .env),
//    however its path is built: string literals, home-folder calls and simple
//    variables are joined into the path before it is judged; a read of the
//    agent's memory or history (~/.bash_history, ~/.hermes/memories,
//    MEMORY.md, USER.md, ~/.claude/projects, ~/.codex/sessions); a
//    secret-named environment variable; the whole environment;
//  - propagation: assignments, reads of a tainted handle, string building
//    (f-strings, templates, +, .format), encoding calls, containers holding a
//    tainted name, function results and arguments within the file;
//  - sinks: an HTTP request's body (requests, httpx, aiohttp, urllib,
//    http.client, fetch, axios, https.request, sendBeacon), a socket or mail
//    send, curl/wget/nc in a shell line or run through subprocess or
//    child_process.
// Deliberately not a leak: a secret used as the credential of the call that
// carries it (a header, auth=, an api_key parameter, a token endpoint, the
// vendor it is named after), a URL taken from the environment, a secret read
// into configuration that never reaches a sink, anything in a comment or a
// docstring.
#include "core/guard/script_flow.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>

#include "core/guard/literal_matcher.hpp"
#include "core/guard/script_flow_model.hpp"
#include "core/guard/snippet.hpp"
#include "core/limits.hpp"

namespace skillrt::core {
namespace {

// More flows than this in one file add nothing a reader can use.
constexpr std::size_t k_max_findings_per_file = 1000;

enum class Language : unsigned char { none, python, javascript, shell, markdown };

std::string lower_ext(std::string_view rel_path) {
  const std::size_t slash = rel_path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) {
    return {};
  }
  return ascii_lower_copy(base.substr(dot));
}

Language language_of_shebang(std::string_view text) {
  if (text.substr(0, 2) != "#!") {
    return Language::none;
  }
  const std::string first = ascii_lower_copy(text.substr(0, std::min(text.find('\n'), std::size_t{200})));
  if (first.find("python") != std::string::npos) {
    return Language::python;
  }
  if (first.find("node") != std::string::npos || first.find("deno") != std::string::npos ||
      first.find("bun") != std::string::npos) {
    return Language::javascript;
  }
  if (first.find("sh") != std::string::npos) {
    return Language::shell;
  }
  return Language::none;
}

Language language_of(std::string_view rel_path, std::string_view text) {
  const std::string ext = lower_ext(rel_path);
  if (ext == ".py" || ext == ".pyw") {
    return Language::python;
  }
  if (ext == ".js" || ext == ".mjs" || ext == ".cjs" || ext == ".ts" || ext == ".tsx" || ext == ".jsx" ||
      ext == ".mts" || ext == ".cts") {
    return Language::javascript;
  }
  if (ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh") {
    return Language::shell;
  }
  if (ext == ".md" || ext == ".markdown" || ext == ".mdx") {
    return Language::markdown;
  }
  if (ext.empty()) {
    return language_of_shebang(text);
  }
  return Language::none;
}

// The language of a fenced block's info string; `console` when its lines carry prompts.
Language language_of_fence(std::string_view info, bool& console) {
  std::size_t b = 0;
  while (b < info.size() && (info[b] == ' ' || info[b] == '\t')) {
    ++b;
  }
  std::size_t e = b;
  while (e < info.size() && info[e] != ' ' && info[e] != '\t' && info[e] != '{' && info[e] != ',' && info[e] != '`') {
    ++e;
  }
  const std::string lang = ascii_lower_copy(info.substr(b, e - b));
  console = false;
  if (lang == "python" || lang == "py" || lang == "python3" || lang == "py3" || lang == "ipython") {
    return Language::python;
  }
  if (lang == "javascript" || lang == "js" || lang == "node" || lang == "typescript" || lang == "ts" || lang == "jsx" ||
      lang == "tsx" || lang == "mjs" || lang == "cjs") {
    return Language::javascript;
  }
  if (lang == "bash" || lang == "sh" || lang == "shell" || lang == "zsh" || lang == "ksh") {
    return Language::shell;
  }
  if (lang == "console" || lang == "terminal" || lang == "shell-session" || lang == "shellsession") {
    console = true;
    return Language::shell;
  }
  return Language::none;
}

// A cheap gate before the analysers: a flow needs a sink and a source, and
// each needs one of these literals (matched case-insensitively in one pass).
// In Python and JavaScript a secret variable is read through environ, getenv
// or process.env; in shell any $NAME can be one, hence the name words.
enum GateBits : unsigned char { k_sink = 1, k_code_source = 2, k_shell_source = 4 };
struct GateLiteral {
  std::string_view text;
  unsigned char bits;
};
constexpr unsigned char k_any_source = k_code_source | k_shell_source;
constexpr GateLiteral k_gate_literals[] = {
    // Sinks.
    {".post", k_sink},
    {".put", k_sink},
    {".patch", k_sink},
    {"request", k_sink},
    {"urlopen", k_sink},
    {".send", k_sink},
    {"storbinary", k_sink},
    {"storlines", k_sink},
    {".write", k_sink},
    {".end", k_sink},
    {"fetch", k_sink},
    {"axios", k_sink},
    {"got(", k_sink},
    {"got.", k_sink},
    {"ky(", k_sink},
    {"ky.", k_sink},
    {"curl", k_sink},
    {"wget", k_sink},
    {"nc ", k_sink},
    {"ncat", k_sink},
    {"netcat", k_sink},
    {"socat", k_sink},
    {"telnet", k_sink},
    {"dig ", k_sink},
    {"nslookup", k_sink},
    {"drill ", k_sink},
    {"invoke-webrequest", k_sink},
    {"invoke-restmethod", k_sink},
    {"iwr ", k_sink},
    {"irm ", k_sink},
    {"s_client", k_sink},
    // The environment.
    {"environ", k_any_source},
    {"getenv", k_any_source},
    {".env", k_any_source},
    {"printenv", k_any_source},
    {"export -p", k_any_source},
    {"\"env", k_any_source},
    {"'env", k_any_source},
    {"env ", k_shell_source},
    {"env|", k_shell_source},
    {"env)", k_shell_source},
    {"env>", k_shell_source},
    {"env;", k_shell_source},
    {"env`", k_shell_source},
    {"env\"", k_shell_source},
    {"declare", k_shell_source},
    // Secret variable names ($GITHUB_TOKEN) in shell.
    {"token", k_shell_source},
    {"secret", k_shell_source},
    {"key", k_shell_source},
    {"pass", k_shell_source},
    {"auth", k_shell_source},
    {"cred", k_shell_source},
    {"pwd", k_shell_source},
    {"cookie", k_shell_source},
    {"_pat", k_shell_source},
    {"history", k_shell_source},
    // Credentials files, memory and history.
    {".ssh", k_any_source},
    {".aws", k_any_source},
    {".docker", k_any_source},
    {".kube", k_any_source},
    {".codex", k_any_source},
    {".claude", k_any_source},
    {"netrc", k_any_source},
    {".git-credentials", k_any_source},
    {".pgpass", k_any_source},
    {".pypirc", k_any_source},
    {".npmrc", k_any_source},
    {".gnupg", k_any_source},
    {".azure", k_any_source},
    {"wallet", k_any_source},
    {"electrum", k_any_source},
    {"bitcoin", k_any_source},
    {"login data", k_any_source},
    {"cookies", k_any_source},
    {"key4", k_any_source},
    {"logins.json", k_any_source},
    {"nkbihf", k_any_source},
    {"ethereum", k_any_source},
    {"solana", k_any_source},
    {"exodus", k_any_source},
    {"web data", k_any_source},
    {"local state", k_any_source},
    {"gcloud", k_any_source},
    {"hosts.yml", k_any_source},
    {"_history", k_any_source},
    {".history", k_any_source},
    {"history.jsonl", k_any_source},
    {"memory.md", k_any_source},
    {"user.md", k_any_source},
    {".hermes", k_any_source},
    {"/proc/", k_any_source}};

const LiteralMatcher& gate_matcher() {
  static const LiteralMatcher matcher = [] {
    std::vector<std::string> literals;
    for (const GateLiteral& l : k_gate_literals) {
      literals.emplace_back(l.text);
    }
    return LiteralMatcher(literals);
  }();
  return matcher;
}

bool worth_analysing(Language language, std::string_view text) {
  unsigned char seen = 0;
  gate_matcher().scan(text, [&](std::size_t, std::uint32_t literal) { seen |= k_gate_literals[literal].bits; });
  const unsigned char source = language == Language::shell ? k_shell_source : k_code_source;
  return (seen & k_sink) != 0 && (seen & source) != 0;
}

void analyse(Language language, std::string_view text, std::size_t first_line, std::vector<flow::Flow>& out) {
  if (!worth_analysing(language, text)) {
    return;
  }
  const std::size_t from = out.size();
  switch (language) {
  case Language::python:
    flow::analyse_code(flow::CodeLanguage::python, text, out);
    break;
  case Language::javascript:
    flow::analyse_code(flow::CodeLanguage::javascript, text, out);
    break;
  case Language::shell:
    flow::analyse_shell(text, out);
    break;
  case Language::none:
  case Language::markdown:
    break;
  }
  for (std::size_t i = from; i < out.size(); ++i) {
    out[i].sink_line += first_line - 1;
    out[i].source.line += first_line - 1;
  }
}

// The start of the line when `at` is preceded on its line only by up to 12
// spaces or tabs (a fence may be indented, as in a list); npos otherwise.
std::size_t indented_line_start(std::string_view text, std::size_t at) {
  std::size_t i = at;
  while (i > 0 && at - i < 12 && (text[i - 1] == ' ' || text[i - 1] == '\t')) {
    --i;
  }
  return (i == 0 || text[i - 1] == '\n') ? i : std::string_view::npos;
}

// Each fenced block of a script language, analysed on its own. Fences are
// found by searching for their runs, so prose costs a memchr-speed search.
void analyse_markdown(std::string_view text, std::vector<flow::Flow>& out) {
  std::size_t pos = 0;
  std::size_t line = 1; // the line number of offset `counted`
  std::size_t counted = 0;
  const auto line_at = [&](std::size_t offset) {
    line += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                                text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    counted = offset;
    return line;
  };
  std::size_t next_backticks = text.find("```");
  std::size_t next_tildes = text.find("~~~");
  std::string prompts; // a console block's commands, other lines blank
  for (;;) {
    if (next_backticks != std::string_view::npos && next_backticks < pos) {
      next_backticks = text.find("```", pos);
    }
    if (next_tildes != std::string_view::npos && next_tildes < pos) {
      next_tildes = text.find("~~~", pos);
    }
    const std::size_t at = std::min(next_backticks, next_tildes);
    if (at == std::string_view::npos) {
      return;
    }
    if (indented_line_start(text, at) == std::string_view::npos) {
      pos = at + 3;
      continue;
    }
    // An opening fence: its run and info string.
    const char fence_char = text[at];
    std::size_t run_end = at;
    while (run_end < text.size() && text[run_end] == fence_char) {
      ++run_end;
    }
    const std::size_t run = run_end - at;
    if (run > 64) {
      pos = run_end; // not a fence anyone writes; skipping it keeps the closing search linear
      continue;
    }
    std::size_t open_end = text.find('\n', run_end);
    if (open_end == std::string_view::npos) {
      return; // a fence on the last line opens nothing
    }
    bool console = false;
    const Language language = language_of_fence(text.substr(run_end, open_end - run_end), console);
    const std::size_t block_start = open_end + 1;
    // Its closing fence: a run at least as long, alone on its line.
    const std::string closing(run, fence_char);
    std::size_t close = block_start;
    std::size_t block_end = text.size();
    std::size_t after = text.size();
    while ((close = text.find(closing, close)) != std::string_view::npos) {
      const std::size_t start = indented_line_start(text, close);
      std::size_t k = close;
      while (k < text.size() && text[k] == fence_char) {
        ++k;
      }
      if (start != std::string_view::npos && start >= block_start) {
        std::size_t eol = text.find('\n', k);
        if (eol == std::string_view::npos) {
          eol = text.size();
        }
        if (text.substr(k, eol - k).find_first_not_of(" \t\r") == std::string_view::npos) {
          block_end = start;
          after = eol;
          break;
        }
      }
      close = k;
    }
    if (close == std::string_view::npos) {
      return; // an unclosed fence is prose to the end: not analysed
    }
    if (language != Language::none) {
      const std::size_t first_line = line_at(block_start);
      const std::string_view block = text.substr(block_start, block_end - block_start);
      if (console) {
        prompts.clear();
        std::size_t p = 0;
        while (p < block.size()) {
          std::size_t nl = block.find('\n', p);
          if (nl == std::string_view::npos) {
            nl = block.size();
          }
          std::string_view cmd = block.substr(p, nl - p);
          const std::size_t lead = cmd.find_first_not_of(" \t");
          cmd = lead == std::string_view::npos ? std::string_view() : cmd.substr(lead);
          if (cmd.substr(0, 2) == "$ " || cmd.substr(0, 2) == "% ") {
            prompts.append(cmd.substr(2));
          }
          prompts += '\n';
          p = nl + 1;
        }
        analyse(language, prompts, first_line, out);
      } else {
        analyse(language, block, first_line, out);
      }
    }
    pos = after;
  }
}

// The rules of this pass, by source kind (the ids of script_flow.hpp).
struct FlowRule {
  flow::Kind kind;
  std::string_view id;
  ThreatSeverity severity;
};
constexpr FlowRule k_flow_rules[] = {
    {flow::Kind::secret_file, "secret_file_flow", ThreatSeverity::critical},
    {flow::Kind::agent_memory, "agent_memory_flow", ThreatSeverity::critical},
    {flow::Kind::env_dump, "env_secret_flow", ThreatSeverity::critical}, // the whole environment
    {flow::Kind::env_secret, "env_secret_flow", ThreatSeverity::high},
};
static_assert(k_flow_rules[0].id == k_secret_file_flow_id && k_flow_rules[1].id == k_agent_memory_flow_id &&
              k_flow_rules[2].id == k_env_secret_flow_id && k_flow_rules[3].id == k_env_secret_flow_id);

const FlowRule& rule_for(flow::Kind kind) {
  for (const FlowRule& r : k_flow_rules) {
    if (r.kind == kind) {
      return r;
    }
  }
  return k_flow_rules[3];
}

int kind_rank(flow::Kind kind) {
  switch (kind) {
  case flow::Kind::secret_file:
    return 4;
  case flow::Kind::agent_memory:
    return 3;
  case flow::Kind::env_dump:
    return 2;
  case flow::Kind::env_secret:
    return 1;
  case flow::Kind::none:
    break;
  }
  return 0;
}

// A label from the file, safe to print: printable ASCII and UTF-8 kept, the rest "?".
std::string clean_label(std::string_view label) {
  std::string out;
  for (const char c : label) {
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 || b == 0x7f) ? '?' : c;
  }
  return truncate_chars(out, 80);
}

std::string describe(const flow::Flow& f) {
  std::string what;
  switch (f.source.kind) {
  case flow::Kind::secret_file:
    what = "credentials file " + clean_label(f.source.label);
    break;
  case flow::Kind::agent_memory:
    what = "agent memory or history " + clean_label(f.source.label);
    break;
  case flow::Kind::env_dump:
    what = "the whole environment";
    break;
  case flow::Kind::env_secret:
    what = "secret environment variable " + clean_label(f.source.label);
    break;
  case flow::Kind::none:
    break;
  }
  return what + " (line " + std::to_string(f.source.line) + ") is sent over the network (line " +
         std::to_string(f.sink_line) + ")";
}

// The highest severity at which a line pattern reports each line as
// exfiltration or execution: (line, severity) sorted by line.
std::vector<std::pair<std::size_t, ThreatSeverity>> line_pattern_severities(const std::vector<GuardFinding>& out,
                                                                            std::size_t from) {
  std::vector<std::pair<std::size_t, ThreatSeverity>> lines;
  for (std::size_t i = from; i < out.size(); ++i) {
    const GuardFinding& f = out[i];
    if (f.category == ThreatCategory::exfiltration || f.category == ThreatCategory::execution) {
      lines.emplace_back(f.line, f.severity);
    }
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Whether a line pattern already reports `line` at `severity` or higher.
bool reported_by_line_pattern(const std::vector<std::pair<std::size_t, ThreatSeverity>>& lines, std::size_t line,
                              ThreatSeverity severity) {
  auto it = std::upper_bound(lines.begin(), lines.end(), std::pair(line, ThreatSeverity::critical));
  return it != lines.begin() && (--it)->first == line && it->second >= severity;
}

} // namespace

void find_script_flows(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out,
                       std::size_t line_findings_from) {
  const Language language = language_of(rel_path, text);
  if (language == Language::none || text.empty()) {
    return;
  }
  std::vector<flow::Flow> flows;
  if (language == Language::markdown) {
    analyse_markdown(text, flows);
  } else {
    analyse(language, text, 1, flows);
  }
  if (flows.empty()) {
    return;
  }
  // One finding per sink line: its strongest source.
  std::map<std::size_t, flow::Flow> by_line;
  for (flow::Flow& f : flows) {
    auto it = by_line.find(f.sink_line);
    if (it == by_line.end()) {
      by_line.emplace(f.sink_line, std::move(f));
    } else if (kind_rank(f.source.kind) > kind_rank(it->second.source.kind)) {
      it->second = std::move(f);
    }
  }
  const auto reported = line_pattern_severities(out, std::min(line_findings_from, out.size()));
  std::size_t pos = 0;
  std::size_t line = 1;
  std::size_t reported_flows = 0;
  for (const auto& [sink_line, f] : by_line) {
    if (reported_flows >= k_max_findings_per_file) {
      break;
    }
    const FlowRule& rule = rule_for(f.source.kind);
    const ThreatSeverity severity = rule.severity;
    if (f.source.line == sink_line && reported_by_line_pattern(reported, sink_line, severity)) {
      continue;
    }
    // The sink line's text (lines arrive in order).
    while (line < sink_line && pos < text.size()) {
      const std::size_t nl = text.find('\n', pos);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      ++line;
    }
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view sink_text = text.substr(pos, end - pos);
    if (!sink_text.empty() && sink_text.back() == '\r') {
      sink_text.remove_suffix(1);
    }
    GuardFinding finding;
    finding.pattern_id = std::string(rule.id);
    finding.category = ThreatCategory::exfiltration;
    finding.severity = severity;
    finding.file = std::string(rel_path);
    finding.line = sink_line;
    finding.column = 1;
    finding.related_line = f.source.line;
    finding.snippet =
        make_snippet(sink_text.substr(0, limits::k_guard_line_piece_bytes), 0, limits::k_guard_snippet_chars);
    finding.description = describe(f);
    out.push_back(std::move(finding));
    ++reported_flows;
  }
}

} // namespace skillrt::core
