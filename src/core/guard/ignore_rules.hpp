// `.skillignore` / `.clawhubignore` (spec §2.12 rule 5): paths the guard leaves
// out of both the structural counts and the content scan.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

// fnmatch(3) without flags, as Python's fnmatch: `*` and `?` also match "/",
// `[...]` / `[!...]` are classes. Case-sensitive. Iterative, O(|pattern|·|text|).
bool glob_match(std::string_view pattern, std::string_view text);

class IgnoreRules {
public:
  // Adds the rules of one ignore file's text.
  void add_file(std::string_view text);
  bool empty() const { return m_rules.empty(); }

  // Whether `rel_path` (POSIX, relative to the skill) is ignored; `is_dir`
  // says it names a directory. The ignore files themselves always are, the
  // root SKILL.md never is.
  bool ignored(std::string_view rel_path, bool is_dir) const;

private:
  struct Rule {
    std::string pattern; // without the leading "/" and trailing "/"
    bool anchored = false;
    bool dir_only = false;
    bool has_slash = false;
  };
  bool matches(const Rule& rule, std::string_view rel_path, bool is_dir) const;
  std::vector<Rule> m_rules;
};

// The names of the ignore files, read from the skill root.
inline constexpr std::string_view k_ignore_file_names[] = {".skillignore", ".clawhubignore"};

} // namespace skillrt::core
