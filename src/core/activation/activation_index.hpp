// The compiled triggers of many skills, looked up by the words of a message:
// a message of w words tries only the phrases whose anchor word it holds, so
// matching costs about the same with 100 skills or 50,000.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/activation/message_words.hpp"
#include "core/activation/trigger_rules.hpp"
#include "core/tenancy/layer.hpp"

namespace skillrt::core {

// A skill that may fire: who it is, and what fires it.
struct ActivationCandidate {
  std::string name;
  Layer source = Layer::shared;
  std::optional<std::string> path;  // SKILL.md of a file skill
  std::optional<std::int64_t> id;   // row id of a database skill
  std::size_t record = 0;           // the catalog record of a file skill (its description is read there)
  std::string description;          // a database skill's description
  TriggerRules rules;
};

struct ActivationReason {
  ActivationKind kind = ActivationKind::phrase;
  std::string trigger;  // the phrase, /pattern/, glob or name that fired
  std::string matched;  // the words of the message it met, or the file's path
  double weight = 0;    // what it adds to the skill's score
};

struct FiredSkill {
  std::size_t candidate = 0;  // index into the index's candidates()
  double score = 0;
  std::vector<ActivationReason> reasons;  // strongest first
};

class ActivationIndex {
 public:
  void add(ActivationCandidate candidate);
  const std::vector<ActivationCandidate>& candidates() const { return m_candidates; }

  // The skills that fire on `message` and on the files of `paths` (already
  // normalized), best first. A skill that declares `paths` does not fire at
  // all when files are given and none of them matches (Claude Code's globs
  // limit activation to those files).
  std::vector<FiredSkill> match(const MessageText& message, const std::vector<std::string>& paths) const;

 private:
  struct PhraseRef {
    std::uint32_t candidate;
    std::uint32_t phrase;
  };
  std::vector<ActivationCandidate> m_candidates;
  std::unordered_map<std::string, std::vector<PhraseRef>> m_by_anchor;
  std::vector<std::uint32_t> m_with_patterns;
  std::vector<std::uint32_t> m_with_globs;
};

// Where `rule`'s words appear in order in `message`, placeholders standing
// for one to k_placeholder_max_words words: the first and last word of the
// earliest, shortest occurrence.
std::optional<std::pair<std::size_t, std::size_t>> find_phrase(const PhraseRule& rule, const MessageText& message);

// The shortest stretch of `message` holding every content word of `rule`,
// when it is at most content + 3 words long.
std::optional<std::pair<std::size_t, std::size_t>> find_words_near(const PhraseRule& rule, const MessageText& message);

}  // namespace skillrt::core
