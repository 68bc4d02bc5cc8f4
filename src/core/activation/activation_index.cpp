#include "core/activation/activation_index.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/util/utf8_prefix.hpp"

namespace skillrt::core {
namespace {

// The weights of the reasons: a phrase or a pattern the author wrote says
// more than words found near each other; more content words, more specific.
constexpr double k_phrase_weight = 3.0;
constexpr double k_pattern_weight = 4.5;
constexpr double k_path_weight = 3.0;
constexpr double k_words_weight = 1.5;
constexpr double k_per_content_word = 0.5;
constexpr std::size_t k_counted_words = 4;
// Each further reason adds this much (so two triggers firing beat one).
constexpr double k_further_reason = 0.5;
constexpr std::size_t k_counted_reasons = 4;
// The words of the message shown as what a trigger met.
constexpr std::size_t k_matched_chars = 160;

double content_bonus(const PhraseRule& rule) {
  return k_per_content_word * static_cast<double>(std::min(rule.content.size(), k_counted_words));
}

std::string shown(std::string_view text) { return utf8_prefix(text, k_matched_chars); }

}  // namespace

void ActivationIndex::add(ActivationCandidate candidate) {
  const auto index = static_cast<std::uint32_t>(m_candidates.size());
  for (std::size_t i = 0; i < candidate.rules.phrases.size(); ++i) {
    m_by_anchor[candidate.rules.phrases[i].anchor].push_back(PhraseRef{index, static_cast<std::uint32_t>(i)});
  }
  if (!candidate.rules.patterns.empty()) {
    m_with_patterns.push_back(index);
  }
  if (!candidate.rules.globs.empty()) {
    m_with_globs.push_back(index);
  }
  m_candidates.push_back(std::move(candidate));
}

std::optional<std::pair<std::size_t, std::size_t>> find_phrase(const PhraseRule& rule, const MessageText& message) {
  const std::vector<std::string>& tokens = rule.tokens;
  std::size_t first_word = 0;
  while (first_word < tokens.size() && tokens[first_word].empty()) {
    ++first_word;
  }
  if (first_word == tokens.size()) {
    return std::nullopt;
  }
  const std::vector<std::uint32_t>* starts = message.find(tokens[first_word]);
  if (starts == nullptr) {
    return std::nullopt;
  }
  const std::size_t size = message.words.size();
  std::optional<std::pair<std::size_t, std::size_t>> best;
  std::vector<std::size_t> frontier;
  std::vector<std::size_t> next;
  for (const std::uint32_t at : *starts) {
    // Leading placeholders take one word each at least (and the excerpt
    // shows just that much).
    if (at < first_word) {
      continue;
    }
    frontier.assign(1, at + 1);
    for (std::size_t j = first_word + 1; j < tokens.size() && !frontier.empty(); ++j) {
      next.clear();
      if (tokens[j].empty()) {
        for (const std::size_t q : frontier) {
          for (std::size_t k = 1; k <= k_placeholder_max_words && q + k <= size; ++k) {
            next.push_back(q + k);
          }
        }
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
      } else {
        for (const std::size_t q : frontier) {
          if (q < size && message.words[q].folded == tokens[j]) {
            next.push_back(q + 1);
          }
        }
      }
      frontier.swap(next);
    }
    if (!frontier.empty()) {
      const std::size_t first = at - first_word;
      const std::size_t last = frontier.front() - 1;
      if (!best || last - first < best->second - best->first) {
        best = std::make_pair(first, last);
      }
      if (best->second - best->first + 1 == tokens.size()) {
        break;  // as short as it gets
      }
    }
  }
  return best;
}

std::optional<std::pair<std::size_t, std::size_t>> find_words_near(const PhraseRule& rule, const MessageText& message) {
  const std::size_t wanted = rule.content.size();
  if (wanted < 2) {
    return std::nullopt;
  }
  // (position, which content word), in message order.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> hits;
  for (std::size_t w = 0; w < wanted; ++w) {
    const std::vector<std::uint32_t>* found = message.find(rule.content[w]);
    if (found == nullptr) {
      return std::nullopt;
    }
    for (const std::uint32_t at : *found) {
      hits.emplace_back(at, static_cast<std::uint32_t>(w));
    }
  }
  std::sort(hits.begin(), hits.end());
  std::vector<std::size_t> count(wanted, 0);
  std::size_t covered = 0;
  std::optional<std::pair<std::size_t, std::size_t>> best;
  for (std::size_t lo = 0, hi = 0; hi < hits.size(); ++hi) {
    if (count[hits[hi].second]++ == 0) {
      ++covered;
    }
    while (covered == wanted) {
      const std::size_t first = hits[lo].first;
      const std::size_t last = hits[hi].first;
      if (!best || last - first < best->second - best->first) {
        best = std::make_pair(first, last);
      }
      if (--count[hits[lo].second] == 0) {
        --covered;
      }
      ++lo;
    }
  }
  if (!best || best->second - best->first + 1 > wanted + 3) {
    return std::nullopt;
  }
  return best;
}

std::vector<FiredSkill> ActivationIndex::match(const MessageText& message, const std::vector<std::string>& paths) const {
  std::unordered_map<std::uint32_t, std::vector<ActivationReason>> reasons;
  // Phrases (and names) whose anchor the message holds, each tried once.
  std::unordered_set<std::string_view> seen_words;
  for (const MessageWord& word : message.words) {
    if (!seen_words.insert(word.folded).second) {
      continue;
    }
    const auto refs = m_by_anchor.find(word.folded);
    if (refs == m_by_anchor.end()) {
      continue;
    }
    for (const PhraseRef ref : refs->second) {
      const PhraseRule& rule = m_candidates[ref.candidate].rules.phrases[ref.phrase];
      std::vector<ActivationReason>& fired = reasons[ref.candidate];
      // A one-word name has two phrases ("pdf skill", "skill pdf"): one reason.
      if (std::any_of(fired.begin(), fired.end(), [&](const ActivationReason& r) { return r.trigger == rule.source; })) {
        continue;
      }
      if (auto span = find_phrase(rule, message)) {
        fired.push_back(ActivationReason{rule.from_name ? ActivationKind::name : ActivationKind::phrase, rule.source,
                                         shown(message.span(span->first, span->second)),
                                         k_phrase_weight + content_bonus(rule)});
      } else if (!rule.from_name) {
        if (auto near = find_words_near(rule, message)) {
          fired.push_back(ActivationReason{ActivationKind::words, rule.source,
                                           shown(message.span(near->first, near->second)),
                                           k_words_weight + content_bonus(rule) / 2});
        }
      }
    }
  }
  if (!message.text.empty()) {
    for (const std::uint32_t index : m_with_patterns) {
      for (const RegexRule& pattern : m_candidates[index].rules.patterns) {
        std::string_view matched;
        if (pattern_search(pattern, message.text, matched)) {
          reasons[index].push_back(
              ActivationReason{ActivationKind::pattern, pattern.source, shown(matched), k_pattern_weight});
        }
      }
    }
  }
  std::unordered_set<std::uint32_t> outside_paths;
  if (!paths.empty()) {
    for (const std::uint32_t index : m_with_globs) {
      bool any = false;
      for (const RegexRule& glob : m_candidates[index].rules.globs) {
        for (const std::string& path : paths) {
          if (glob_matches(glob, path)) {
            reasons[index].push_back(ActivationReason{ActivationKind::path, glob.source, path, k_path_weight});
            any = true;
            break;  // one file per glob says enough
          }
        }
      }
      if (!any) {
        outside_paths.insert(index);
      }
    }
  }
  std::vector<FiredSkill> out;
  for (auto& [index, fired] : reasons) {
    if (fired.empty() || outside_paths.contains(index)) {
      continue;
    }
    std::stable_sort(fired.begin(), fired.end(),
                     [](const ActivationReason& a, const ActivationReason& b) { return a.weight > b.weight; });
    const std::size_t further = std::min(fired.size() - 1, k_counted_reasons);
    const double score = fired.front().weight + k_further_reason * static_cast<double>(further);
    out.push_back(FiredSkill{index, score, std::move(fired)});
  }
  return out;
}

}  // namespace skillrt::core
