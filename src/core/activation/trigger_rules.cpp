#include "core/activation/trigger_rules.hpp"

#include <re2/re2.h>

#include <algorithm>

#include "core/activation/message_words.hpp"
#include "core/activation/path_glob.hpp"
#include "core/limits.hpp"
#include "core/search/stop_words.hpp"

namespace skillrt::core {
namespace {

// Cuts a phrase into folded words and placeholders ("" entries), noting the
// content words (the stop-word test reads the word before folding).
void cut_phrase(std::string_view text, PhraseRule& rule) {
  auto add_words = [&rule](std::string_view segment) {
    for (const MessageWord& word : cut_words(segment)) {
      const std::string_view original = segment.substr(word.begin, word.end - word.begin);
      if (!is_stop_word(original) &&
          std::find(rule.content.begin(), rule.content.end(), word.folded) == rule.content.end()) {
        rule.content.push_back(word.folded);
      }
      rule.tokens.push_back(word.folded);
    }
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char open = text[i];
    const char close = open == '[' ? ']' : open == '<' ? '>' : open == '{' ? '}' : '\0';
    if (close == '\0') {
      continue;
    }
    const std::size_t end = text.find(close, i + 1);
    if (end == std::string_view::npos) {
      continue;  // an unpaired bracket is just punctuation
    }
    add_words(text.substr(start, i - start));
    if (rule.tokens.empty() || !rule.tokens.back().empty()) {
      rule.tokens.emplace_back();  // adjacent placeholders read as one
    }
    start = end + 1;
    i = end;
  }
  add_words(text.substr(start));
}

// The anchor: the longest content word (the rarest, as a rule of thumb), else
// the first word. Empty when the phrase has no word at all.
std::string pick_anchor(const PhraseRule& rule) {
  std::string best;
  for (const std::string& word : rule.content) {
    if (word.size() > best.size()) {
      best = word;
    }
  }
  if (best.empty()) {
    for (const std::string& token : rule.tokens) {
      if (!token.empty()) {
        return token;
      }
    }
  }
  return best;
}

std::shared_ptr<const re2::RE2> compile_regex(const std::string& pattern, bool case_sensitive, std::string& problem) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_case_sensitive(case_sensitive);
  options.set_max_mem(limits::k_trigger_pattern_max_mem);
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  auto regex = std::make_shared<const re2::RE2>(pattern, options);
  if (!regex->ok()) {
    problem = regex->error();
    return nullptr;
  }
  return regex;
}

bool is_pattern_item(std::string_view item) { return item.size() >= 3 && item.front() == '/' && item.back() == '/'; }

void add_name_rules(std::string_view name, TriggerRules& rules) {
  // "code-review", "code_review" and "code review" say the same name.
  std::string spaced(name);
  std::replace_if(spaced.begin(), spaced.end(), [](char c) { return c == '-' || c == '_' || c == '.'; }, ' ');
  PhraseRule rule;
  rule.source = std::string(name);
  rule.from_name = true;
  cut_phrase(spaced, rule);
  if (rule.content.empty()) {
    return;  // a name of stop words alone ("the-it") says nothing
  }
  if (rule.tokens.size() >= 2) {
    rule.anchor = pick_anchor(rule);
    rules.phrases.push_back(std::move(rule));
    return;
  }
  // One word: only "NAME skill" or "skill NAME".
  const std::string word = rule.tokens.front();
  const std::string skill = fold_word("skill");
  for (int before = 0; before < 2; ++before) {
    PhraseRule beside = rule;
    beside.tokens = before == 0 ? std::vector<std::string>{word, skill} : std::vector<std::string>{skill, word};
    beside.anchor = word;
    rules.phrases.push_back(std::move(beside));
  }
}

}  // namespace

const char* activation_kind_name(ActivationKind kind) {
  switch (kind) {
  case ActivationKind::phrase:
    return "phrase";
  case ActivationKind::pattern:
    return "pattern";
  case ActivationKind::path:
    return "path";
  case ActivationKind::name:
    return "name";
  case ActivationKind::words:
    break;
  }
  return "words";
}

TriggerRules compile_trigger_rules(std::string_view name, const std::vector<std::string_view>& triggers,
                                   const std::vector<std::string_view>& paths) {
  TriggerRules rules;
  auto problem = [&](std::string_view rule, std::string message) {
    rules.problems.push_back(TriggerProblem{std::string(name), std::string(rule), std::move(message)});
  };
  for (std::string_view item : triggers) {
    if (is_pattern_item(item)) {
      std::string why;
      auto regex = compile_regex(std::string(item.substr(1, item.size() - 2)), false, why);
      if (!regex) {
        problem(item, "pattern does not compile: " + why);
        continue;
      }
      rules.patterns.push_back(RegexRule{std::string(item), std::move(regex)});
      continue;
    }
    PhraseRule rule;
    rule.source = std::string(item);
    cut_phrase(item, rule);
    rule.anchor = pick_anchor(rule);
    if (rule.anchor.empty()) {
      problem(item, "trigger has no words to look for");
      continue;
    }
    rules.phrases.push_back(std::move(rule));
  }
  for (std::string_view item : paths) {
    std::string why;
    std::optional<std::string> regex_text = glob_to_regex(item, why);
    std::shared_ptr<const re2::RE2> regex;
    if (regex_text) {
      regex = compile_regex(*regex_text, true, why);
    }
    if (!regex) {
      problem(item, "glob cannot be used: " + why);
      continue;
    }
    rules.globs.push_back(RegexRule{std::string(item), std::move(regex)});
  }
  add_name_rules(name, rules);
  return rules;
}

bool glob_matches(const RegexRule& glob, std::string_view path) {
  return re2::RE2::FullMatch(re2::StringPiece(path.data(), path.size()), *glob.regex);
}

bool pattern_search(const RegexRule& pattern, std::string_view text, std::string_view& matched) {
  re2::StringPiece found;
  if (!pattern.regex->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED, &found,
                            1)) {
    return false;
  }
  matched = std::string_view(found.data(), found.size());
  return true;
}

}  // namespace skillrt::core
