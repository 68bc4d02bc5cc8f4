#include "core/guard/name_lookalike.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

#include "core/util/ascii_case.hpp"
#include "core/util/text.hpp"
#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {
namespace {

// Distinctive names of tools, services and packages, none of them an English
// word: a word one letter changed, two swapped or one doubled from one of
// these ("githuh", "reqeusts") imitates it. Letters added or dropped are left
// out: they make too many real names ("openapi" beside "openai").
constexpr std::array k_brands = {
    "github",     "gitlab",     "bitbucket",  "kubernetes", "kubectl",    "terraform", "ansible",    "pytest",
    "pandas",     "numpy",      "scipy",      "requests",   "django",     "fastapi",   "jupyter",    "webpack",
    "eslint",     "typescript", "javascript", "postgres",   "postgresql", "mongodb",   "openai",     "anthropic",
    "twilio",     "shopify",    "salesforce", "hubspot",    "zapier",     "selenium",  "playwright", "puppeteer",
    "vercel",     "netlify",    "supabase",   "firebase",   "cloudflare", "heroku",    "ollama",     "huggingface",
    "langchain",  "matplotlib", "tensorflow", "pytorch",    "sklearn",    "bigquery",  "datadog",    "grafana",
    "prometheus", "openclaw",   "chatgpt",    "webapp",
};

// Everyday words of skill names: only a swap of neighbouring letters or a
// doubled letter imitates one ("parsre", "webbapp"); a letter added, dropped
// or changed too often makes another real word ("manage", "pester").
constexpr std::array k_common_words = {
    "parser",    "config",    "configuration", "validator",  "validation", "formatter", "linter",     "tester",
    "testing",   "helper",    "manager",       "generator",  "builder",    "checker",   "scanner",    "analyzer",
    "reporter",  "converter", "diagnostics",   "diagnostic", "debugger",   "monitor",   "logger",     "server",
    "client",    "runner",    "installer",     "deploy",     "deployment", "security",  "summarizer", "translator",
    "reviewer",  "changelog", "utility",       "toolkit",    "workflow",   "pipeline",  "dataset",    "database",
    "directory", "terminal",  "command",       "template",   "document",   "research",  "analysis",   "analytics",
    "dashboard", "markdown",  "browser",       "website",    "frontend",   "backend",   "notebook",   "python",
};

// Words that sit one slip from a listed name and are names themselves.
constexpr std::array k_known_apart = {
    "openapi",
    "bitquery",
    "parsers",
    "configs",
};

bool contains(const auto& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Same length, one letter different ("githuh" beside "github").
bool one_letter_changed(std::string_view word, std::string_view known) {
  if (word.size() != known.size()) {
    return false;
  }
  std::size_t differences = 0;
  for (std::size_t i = 0; i < word.size() && differences < 2; ++i) {
    differences += word[i] != known[i] ? 1 : 0;
  }
  return differences == 1;
}

// Two neighbouring letters swapped ("parsre"), or one letter doubled
// ("webbapp"): the slips of a typing hand, rarely another real word.
bool slipped_keys(std::string_view word, std::string_view known) {
  if (word.size() == known.size()) {
    std::size_t first = 0;
    while (first < word.size() && word[first] == known[first]) {
      ++first;
    }
    return first + 1 < word.size() && word[first] == known[first + 1] && word[first + 1] == known[first] &&
           word.substr(first + 2) == known.substr(first + 2);
  }
  if (word.size() != known.size() + 1) {
    return false;
  }
  std::size_t i = 0;
  while (i < known.size() && word[i] == known[i]) {
    ++i;
  }
  // word[i] is the extra letter: a doubling of its neighbour.
  return word.substr(i + 1) == known.substr(i) && i > 0 && word[i] == word[i - 1];
}

// The value of `name:` in the frontmatter of `text` (fenced as the catalog
// fences it, core/yaml/frontmatter.hpp), and its line. A plain line scan
// rather than a YAML parse: the scanner reads every SKILL.md it is given, and
// only this one key matters here.
std::optional<std::pair<std::string_view, std::size_t>> frontmatter_name(std::string_view text) {
  const std::optional<FenceSpan> fences = find_fences(text);
  if (!fences) {
    return std::nullopt;
  }
  std::size_t line_no = 1 + static_cast<std::size_t>(std::count(
                                text.begin(), text.begin() + static_cast<std::ptrdiff_t>(fences->yaml_begin), '\n'));
  std::string_view yaml = text.substr(fences->yaml_begin, fences->yaml_end - fences->yaml_begin);
  while (!yaml.empty()) {
    const std::size_t eol = yaml.find('\n');
    std::string_view line = yaml.substr(0, eol);
    yaml = eol == std::string_view::npos ? std::string_view() : yaml.substr(eol + 1);
    if (line.substr(0, 5) == "name:") {
      line = trim_ascii_space(line.substr(5));
      while (!line.empty() && (line.front() == '"' || line.front() == '\'')) {
        line.remove_prefix(1);
      }
      while (!line.empty() && (line.back() == '"' || line.back() == '\'')) {
        line.remove_suffix(1);
      }
      return std::make_pair(line, line_no);
    }
    ++line_no;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string_view> imitated_name(std::string_view word) {
  if (word.size() < 5 || contains(k_brands, word) || contains(k_common_words, word) || contains(k_known_apart, word)) {
    return std::nullopt;
  }
  for (const std::string_view brand : k_brands) {
    if (one_letter_changed(word, brand) || slipped_keys(word, brand)) {
      return brand;
    }
  }
  for (const std::string_view common : k_common_words) {
    if (slipped_keys(word, common)) {
      return common;
    }
  }
  return std::nullopt;
}

void find_lookalike_name(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out) {
  const auto name = frontmatter_name(text);
  if (!name || name->first.empty() || name->first.size() > 128) {
    return;
  }
  const std::string lowered = ascii_lower_copy(name->first);
  std::size_t start = 0;
  while (start <= lowered.size()) {
    std::size_t end = lowered.find_first_of("-_. ", start);
    if (end == std::string::npos) {
      end = lowered.size();
    }
    const std::string_view word = std::string_view(lowered).substr(start, end - start);
    if (const std::optional<std::string_view> known = imitated_name(word)) {
      GuardFinding f;
      f.pattern_id = "name_lookalike";
      f.category = ThreatCategory::supply_chain;
      f.severity = ThreatSeverity::high;
      f.file = std::string(rel_path);
      f.line = name->second;
      f.column = 1;
      f.snippet = "name: " + std::string(name->first);
      f.description = "Skill name imitates a well-known name: \"" + std::string(word) + "\" is one letter from \"" +
                      std::string(*known) + "\" (typosquatting)";
      out.push_back(std::move(f));
      return;
    }
    start = end + 1;
  }
}

} // namespace skillrt::core
