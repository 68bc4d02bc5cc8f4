#include "core/guard/ignore_rules.hpp"

namespace skillrt::core {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Matches one `[...]` class at pattern[p] against `c`; sets `next` past the
// class. A "[" without its "]" is a literal, as in fnmatch.
bool class_match(std::string_view pattern, std::size_t p, char c, std::size_t& next, bool& is_class) {
  std::size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  const std::size_t first = i;
  bool matched = false;
  while (i < pattern.size() && (pattern[i] != ']' || i == first)) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) {
        matched = true;
      }
      i += 3;
    } else {
      if (pattern[i] == c) {
        matched = true;
      }
      ++i;
    }
  }
  if (i >= pattern.size()) {
    is_class = false;
    next = p + 1;
    return c == '[';
  }
  is_class = true;
  next = i + 1;
  return matched != negate;
}

} // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // Classic greedy matching with one backtrack point for the last "*": linear
  // in practice, O(|pattern|·|text|) at worst, no recursion.
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star_p = std::string_view::npos;
  std::size_t star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        star_p = p++;
        star_t = t;
        continue;
      }
      if (pc == '?') {
        ++p;
        ++t;
        continue;
      }
      if (pc == '[') {
        std::size_t next = 0;
        bool is_class = false;
        if (class_match(pattern, p, text[t], next, is_class)) {
          p = next;
          ++t;
          continue;
        }
      } else if (pc == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    if (star_p == std::string_view::npos) {
      return false;
    }
    p = star_p + 1;
    t = ++star_t;
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

void IgnoreRules::add_file(std::string_view text) {
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    Rule rule;
    if (line.back() == '/') {
      rule.dir_only = true;
      while (!line.empty() && line.back() == '/') {
        line.remove_suffix(1);
      }
    }
    if (!line.empty() && line.front() == '/') {
      rule.anchored = true;
      while (!line.empty() && line.front() == '/') {
        line.remove_prefix(1);
      }
    }
    if (line.empty()) {
      continue;
    }
    rule.pattern = std::string(line);
    rule.has_slash = line.find('/') != std::string_view::npos;
    m_rules.push_back(std::move(rule));
  }
}

bool IgnoreRules::matches(const Rule& rule, std::string_view rel_path, bool is_dir) const {
  // Every directory prefix of the path ("a", "a/b" for "a/b/c"), and the path
  // itself when it is a directory or the rule is not directory-only.
  std::size_t segment_start = 0;
  for (std::size_t i = 0; i <= rel_path.size(); ++i) {
    if (i < rel_path.size() && rel_path[i] != '/') {
      continue;
    }
    const bool whole = i == rel_path.size();
    const std::string_view prefix = rel_path.substr(0, i);
    const std::string_view segment = rel_path.substr(segment_start, i - segment_start);
    const bool names_dir = !whole || is_dir;
    if (!rule.dir_only || names_dir) {
      if (glob_match(rule.pattern, prefix)) {
        return true;
      }
      if (!rule.anchored && !rule.has_slash && glob_match(rule.pattern, segment)) {
        return true;
      }
    }
    segment_start = i + 1;
  }
  return false;
}

bool IgnoreRules::ignored(std::string_view rel_path, bool is_dir) const {
  if (rel_path == "SKILL.md") {
    return false;
  }
  for (const std::string_view name : k_ignore_file_names) {
    if (rel_path == name) {
      return true;
    }
  }
  for (const Rule& rule : m_rules) {
    if (matches(rule, rel_path, is_dir)) {
      return true;
    }
  }
  return false;
}

} // namespace skillrt::core
