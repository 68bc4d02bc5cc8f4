// Lookup, the rules document, dismissal snippets and the findings behind a
// block (rule_help.hpp). The help text itself is in rule_help_table.cpp.
#include "core/guard/rule_help.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <system_error>

#include "core/guard/rule_help_table.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

using C = ThreatCategory;
using S = ThreatSeverity;

// Ids that structure.cpp, skill_tree.cpp, scanner.cpp, unicode_smuggling.cpp
// and name_lookalike.cpp emit, with the category they report and the highest severity they use.
constexpr std::array k_non_pattern_rules{
    GuardRule{"oversized_file", C::structural, S::medium},
    GuardRule{"unexpected_executable", C::structural, S::medium},
    GuardRule{"hard_link", C::structural, S::low},
    GuardRule{"broken_symlink", C::traversal, S::medium},
    GuardRule{"symlink_escape", C::traversal, S::critical},
    GuardRule{"special_file", C::structural, S::medium},
    GuardRule{"too_many_files", C::structural, S::medium},
    GuardRule{"oversized_skill", C::structural, S::low},
    GuardRule{"binary_file", C::structural, S::critical},
    GuardRule{"binary_content", C::structural, S::medium},
    GuardRule{"unreadable_path", C::structural, S::medium},
    GuardRule{"scan_incomplete", C::structural, S::high},
    GuardRule{"malformed_dismissals", C::structural, S::medium},
    GuardRule{"invisible_unicode", C::injection, S::high},
    GuardRule{"bidi_override", C::injection, S::high},
    GuardRule{"unicode_tag_smuggling", C::injection, S::critical},
    GuardRule{"name_lookalike", C::supply_chain, S::high},
    GuardRule{"secret_file_flow", C::exfiltration, S::critical},
    GuardRule{"agent_memory_flow", C::exfiltration, S::critical},
    GuardRule{"env_secret_flow", C::exfiltration, S::high},
};

constexpr ThreatCategory k_categories[] = {
    C::exfiltration,         C::injection,           C::destructive, C::persistence, C::network,
    C::obfuscation,          C::execution,           C::traversal,   C::mining,      C::supply_chain,
    C::privilege_escalation, C::credential_exposure, C::structural};

// The help entries by id (the first entry wins should an id repeat; the unit test forbids that).
const std::map<std::string_view, RuleHelp>& help_index() {
  static const std::map<std::string_view, RuleHelp> index = [] {
    std::map<std::string_view, RuleHelp> out;
    for (const RuleHelpGroup& group : rule_help_groups()) {
      for (const RuleHelp& help : group.entries) {
        out.emplace(help.id, help);
      }
    }
    return out;
  }();
  return index;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Length of a valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  std::size_t n = 0;
  if (b < 0x80) {
    return 1;
  }
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  if (i + n > s.size()) {
    return 0;
  }
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      return 0;
    }
  }
  const unsigned char second = byte(i + 1);
  if ((b == 0xE0 && second < 0xA0) || (b == 0xED && second > 0x9F) || (b == 0xF0 && second < 0x90) ||
      (b == 0xF4 && second > 0x8F)) {
    return 0; // overlong, surrogate or beyond U+10FFFF
  }
  return n;
}

bool yaml_keyword(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  for (const std::string_view word : {"~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"}) {
    if (lower == word) {
      return true;
    }
  }
  return false;
}

// `text` as a YAML scalar: plain when that reads back as the same string,
// else double-quoted (invalid UTF-8 as U+FFFD, controls as \xNN).
std::string yaml_scalar(std::string_view text) {
  const auto plain_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '/' || c == '-' || c == '+' || c == '@';
  };
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), plain_char) && text.front() != '-' &&
                     text.front() != '@' && !(text.front() >= '0' && text.front() <= '9') && !yaml_keyword(text);
  if (plain) {
    return std::string(text);
  }
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\\uFFFD";
      ++i;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (n == 1 && (c < 0x20 || c == 0x7F)) {
      out += "\\x";
      out.push_back(k_hex[c >> 4]);
      out.push_back(k_hex[c & 0x0F]);
    } else if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  out.push_back('"');
  return out;
}

// One `dismiss:` entry (four-space fields under a two-space dash).
std::string dismissal_entry(const GuardFinding& finding) {
  std::string out = "  - id: " + yaml_scalar(finding.pattern_id) + "\n";
  if (!finding.file.empty()) {
    out += "    file: " + yaml_scalar(exact_glob(finding.file)) + "\n";
  }
  if (finding.line > 0) {
    out += "    line: " + std::to_string(finding.line) + "\n";
  }
  out += "    reason: " + std::string(k_dismissal_reason_placeholder) + "\n";
  return out;
}

std::string source_line(std::string_view source) {
  return source.empty() ? std::string() : "source: " + yaml_scalar(source) + "\n";
}

std::size_t count_in(ThreatCategory category, const std::vector<GuardRule>& rules) {
  return static_cast<std::size_t>(
      std::count_if(rules.begin(), rules.end(), [&](const GuardRule& r) { return r.category == category; }));
}

} // namespace

std::span<const GuardRule> non_pattern_rules() {
  return k_non_pattern_rules;
}

std::vector<GuardRule> guard_rules() {
  std::vector<GuardRule> out;
  for (const ThreatPattern& p : threat_patterns()) {
    out.push_back(GuardRule{p.id, p.category, p.severity});
  }
  out.insert(out.end(), k_non_pattern_rules.begin(), k_non_pattern_rules.end());
  return out;
}

std::optional<GuardRule> find_guard_rule(std::string_view id) {
  for (const ThreatPattern& p : threat_patterns()) {
    if (p.id == id) {
      return GuardRule{p.id, p.category, p.severity};
    }
  }
  for (const GuardRule& r : k_non_pattern_rules) {
    if (r.id == id) {
      return r;
    }
  }
  return std::nullopt;
}

std::optional<RuleHelp> rule_help(std::string_view id) {
  const auto& index = help_index();
  const auto it = index.find(id);
  if (it == index.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::vector<RuleHelp> all_rule_help() {
  std::vector<RuleHelp> out;
  for (const RuleHelpGroup& group : rule_help_groups()) {
    out.insert(out.end(), group.entries.begin(), group.entries.end());
  }
  return out;
}

std::string markdown_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '<' || c == '>' || c == '~' ||
        c == '|' || c == '#') {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

std::string rule_anchor(std::string_view id) {
  return "rule-" + std::string(id);
}

std::string help_uri(std::string_view id) {
  return std::string(k_rules_document) + "#" + rule_anchor(id);
}

std::vector<std::string> closest_rule_ids(std::string_view id, std::size_t max) {
  std::string wanted(id);
  std::transform(wanted.begin(), wanted.end(), wanted.begin(), [](unsigned char c) {
    return static_cast<char>(c == '-' ? '_' : c >= 'A' && c <= 'Z' ? c + 32 : c);
  });
  struct Candidate {
    std::size_t score;
    std::string_view id;
  };
  std::vector<Candidate> candidates;
  std::set<std::string_view> seen;
  for (const GuardRule& rule : guard_rules()) {
    if (!seen.insert(rule.id).second) {
      continue;
    }
    std::size_t score = edit_distance(wanted, rule.id);
    // A fragment of an id ("reverse_shell" for bash_reverse_shell) is a good guess too.
    if (wanted.size() >= 3 && rule.id.find(wanted) != std::string_view::npos) {
      score = std::min<std::size_t>(score, 1);
    }
    candidates.push_back({score, rule.id});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
  std::vector<std::string> out;
  for (const Candidate& c : candidates) {
    if (out.size() >= max) {
      break;
    }
    out.emplace_back(c.id);
  }
  return out;
}

std::string rules_markdown() {
  const std::vector<GuardRule> rules = guard_rules();
  std::string out =
      "# Guard rules\n"
      "\n"
      "<!-- Generated from src/core/guard/rule_help_table.cpp by `skillrt scan --rules --format markdown`.\n"
      "     Do not edit by hand: the unit test RuleHelp.DocumentIsUpToDate fails when this file differs. -->\n"
      "\n"
      "Every rule the skills guard ([security.md](security.md)) can report: what it means, why it matters and\n"
      "how to fix the skill. `skillrt scan --explain RULE` prints the same text for one rule, and every report\n"
      "links here (`" +
      std::string(k_rules_document) +
      "#rule-<id>`).\n"
      "\n"
      "The severity shown is the highest the rule reports; the context rules of security.md can report a\n"
      "match lower (in a comment, a deny-list, a quoted example). A **critical** finding makes the skill\n"
      "*dangerous*, a **high** one *caution*; medium and low findings are informational.\n"
      "\n"
      "## Dismissing a finding\n"
      "\n"
      "When a person has read the line and it is not a threat, dismiss it instead of editing the scanner:\n"
      "\n"
      "- in the skill's own `.skillrt-guard.yaml` (at its root), for anything but a **critical** finding;\n"
      "- in an operator file, which may dismiss anything: a file in `HOME/guard/dismissals/` (read by\n"
      "  `install`, `update` and `audit`) or one passed to `skillrt scan --dismissals FILE`. Its `source:`\n"
      "  key limits it to one source and the paths below it.\n"
      "\n"
      "```yaml\n"
      "source: example-org/skills        # operator files only\n"
      "dismiss:\n"
      "  - id: curl_pipe_shell\n"
      "    file: SKILL.md                 # optional glob\n"
      "    line: 12                       # optional\n"
      "    reason: the official installer, checked by hand\n"
      "```\n"
      "\n"
      "Dismissed findings never count towards the verdict but stay listed, with their reason, in every\n"
      "report. `skillrt scan --explain RULE` prints both forms for a rule; a blocked install prints the\n"
      "exact entries that would allow it.\n"
      "\n"
      "## Rules by category\n"
      "\n";
  for (const ThreatCategory category : k_categories) {
    const std::string name = category_name(category);
    out += "- [" + markdown_escape(name) + "](#" + name + ") (" + std::to_string(count_in(category, rules)) + ")\n";
  }
  for (const ThreatCategory category : k_categories) {
    out += "\n## " + markdown_escape(category_name(category)) + "\n";
    for (const GuardRule& rule : rules) {
      if (rule.category != category) {
        continue;
      }
      const std::optional<RuleHelp> help = rule_help(rule.id);
      out += "\n<a id=\"" + rule_anchor(rule.id) + "\"></a>\n";
      out += "### " + markdown_escape(rule.id) + "\n\n";
      out += "**" + std::string(threat_severity_name(rule.severity)) + "** · " +
             markdown_escape(category_name(category)) + " — " +
             (help ? markdown_escape(help->summary) : std::string("(no help yet)")) + "\n";
      if (help) {
        out += "\n- **Why:** " + markdown_escape(help->why) + "\n";
        out += "- **Fix:** " + markdown_escape(help->fix) + "\n";
      }
    }
  }
  return out;
}

std::optional<DismissalSnippet> dismissal_snippet(const GuardFinding& finding, DismissalScope scope,
                                                  std::string_view source) {
  if (finding.pattern_id == "malformed_dismissals") {
    return std::nullopt;
  }
  DismissalSnippet out;
  out.scope = scope;
  if (scope == DismissalScope::skill_file && finding.severity == ThreatSeverity::critical) {
    out.scope = DismissalScope::operator_file;
    out.note = "a skill's own .skillrt-guard.yaml cannot dismiss a critical finding; only an operator's file can";
  }
  if (out.scope == DismissalScope::operator_file) {
    out.yaml = source_line(source);
  }
  out.yaml += "dismiss:\n" + dismissal_entry(finding);
  return out;
}

std::string operator_dismissal_yaml(std::string_view source, const std::vector<GuardFinding>& findings) {
  std::string out = source_line(source) + "dismiss:\n";
  for (const GuardFinding& f : findings) {
    if (f.pattern_id != "malformed_dismissals") {
      out += dismissal_entry(f);
    }
  }
  return out;
}

std::string exact_glob(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out.push_back('?'); // one byte, whatever it is
      ++i;
      continue;
    }
    const char c = text[i];
    if (n == 1 && (c == '*' || c == '?' || c == '[')) {
      out.push_back('[');
      out.push_back(c);
      out.push_back(']');
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

fs::path operator_dismissal_dir(const fs::path& home) {
  return home / "guard" / "dismissals";
}

std::vector<fs::path> operator_dismissal_files(const fs::path& home) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(operator_dismissal_dir(home), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    const std::string ext = path.extension().string();
    if (name.empty() || name.front() == '.' || (ext != ".yaml" && ext != ".yml")) {
      continue;
    }
    std::error_code status_ec;
    if (fs::is_regular_file(path, status_ec)) {
      out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string operator_dismissal_file_name(std::string_view source) {
  std::string out;
  for (const char c : source) {
    const bool keep =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    const char mapped = keep ? c : '-';
    if (mapped == '-' && !out.empty() && out.back() == '-') {
      continue;
    }
    out.push_back(mapped);
    if (out.size() >= 80) {
      break;
    }
  }
  while (!out.empty() && (out.front() == '-' || out.front() == '.')) {
    out.erase(out.begin());
  }
  while (!out.empty() && out.back() == '-') {
    out.pop_back();
  }
  return (out.empty() ? std::string("all-sources") : out) + ".yaml";
}

std::vector<GuardFinding> blocking_findings(const ScanResult& result, bool force) {
  std::vector<GuardFinding> out;
  for (const GuardFinding& f : result.findings) {
    ScanResult alone;
    alone.trust = result.trust;
    alone.verdict = verdict_for({f});
    if (decide_install(alone, force).decision != InstallDecision::allow) {
      out.push_back(f);
    }
  }
  return out;
}

std::string rule_list_sentence(const std::vector<GuardFinding>& findings, std::size_t max) {
  std::vector<std::string_view> ids;
  for (const GuardFinding& f : findings) {
    if (std::find(ids.begin(), ids.end(), f.pattern_id) == ids.end()) {
      ids.push_back(f.pattern_id);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < max; ++i) {
    const std::optional<RuleHelp> help = rule_help(ids[i]);
    out += (i == 0 ? "" : ", ") + std::string(ids[i]);
    if (help) {
      out += " (" + std::string(help->summary) + ")";
    }
  }
  if (ids.size() > max) {
    out += " and " + std::to_string(ids.size() - max) + " more";
  }
  return out;
}

} // namespace skillrt::core
