// What activates one skill, compiled once from its frontmatter: the
// `triggers` phrases and /patterns/, the `paths` globs, and its own name.
//
// A `triggers` item is
//   - a phrase ("pentest [URL]", "song lyrics"): its words in order in the
//     message, where a [placeholder], <placeholder> or {placeholder} stands
//     for one to k_placeholder_max_words words; failing that, when it has two
//     content words or more, all of them close together (the `words` reason:
//     "lyrics for the song" fires "song lyrics");
//   - a pattern written between slashes ("/deploy(ing)? to (prod|staging)/"):
//     RE2 syntax, case-insensitive, searched in the message. RE2 runs in time
//     linear in the message whatever the pattern, so a pattern that would take
//     a backtracking engine exponential time costs nothing special here.
// The skill's name activates it too when the message says it: a name of two
// words or more as a phrase ("code review" for code-review), a one-word name
// only beside the word "skill" ("the pdf skill"), since one word alone is a
// topic, not a request.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace skillrt::core {

// Why a skill fired (the JSON `kind`).
enum class ActivationKind : unsigned char { phrase, pattern, path, name, words };
const char* activation_kind_name(ActivationKind kind);  // "phrase" | "pattern" | "path" | "name" | "words"

// A placeholder stands for at least one word and at most this many.
inline constexpr std::size_t k_placeholder_max_words = 8;

struct PhraseRule {
  std::string source;                // the trigger as written, or the skill's name
  std::vector<std::string> tokens;   // folded words in order; "" is a placeholder
  std::vector<std::string> content;  // its distinct words that are not stop words
  std::string anchor;                // the word a message must hold for the rule to be tried
  bool from_name = false;
};

struct RegexRule {
  std::string source;                     // as written (a pattern with its slashes, or a glob)
  std::shared_ptr<const re2::RE2> regex;  // shared: compiled rules are copied into indexes
};

// A `triggers` or `paths` item that cannot be used, and why.
struct TriggerProblem {
  std::string skill;
  std::string rule;
  std::string message;
};

struct TriggerRules {
  std::vector<PhraseRule> phrases;
  std::vector<RegexRule> patterns;
  std::vector<RegexRule> globs;
  std::vector<TriggerProblem> problems;

  // Nothing here can fire.
  bool empty() const { return phrases.empty() && patterns.empty() && globs.empty(); }
};

// Compiles what activates the skill `name` from its `triggers` and `paths`
// items as written. Never throws but for allocation failure; an unusable item
// becomes a problem and is left out.
TriggerRules compile_trigger_rules(std::string_view name, const std::vector<std::string_view>& triggers,
                                      const std::vector<std::string_view>& paths);

// Is the whole of `path` matched by `glob` (a RegexRule of `globs`)?
bool glob_matches(const RegexRule& glob, std::string_view path);

// Where `pattern` (a RegexRule of `patterns`) first matches `text`, if it does.
bool pattern_search(const RegexRule& pattern, std::string_view text, std::string_view& matched);

}  // namespace skillrt::core
