// The "did you mean" hint for a failed patch (spec §2.11 rule 7): the file
// lines most similar to old_string's first non-blank line, with context.
#include <algorithm>
#include <cstdio>

#include "core/patch/fuzzy_detail.hpp"
#include "core/patch/fuzzy_replace.hpp"

namespace skillrt::core {

namespace {

constexpr double kMinimumRatio = 0.3;
constexpr std::size_t kMaxBlocks = 3;
constexpr std::size_t kContextLines = 2;
// A hint line longer than this is cut (docs/compat.md "Fuzzy patch").
constexpr std::size_t kMaxHintLineChars = 200;
// Exact-ratio work (code-point pairs) for one hint; past it the remaining
// lines are scored by the quick_ratio upper bound (docs/compat.md).
constexpr std::size_t kMaxHintPairWork = 500'000'000;

std::string_view without_cr(std::string_view line) {
  return !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
}

// Leading and trailing whitespace made visible: → for a tab, · for a space.
std::string visible_whitespace(std::string_view line) {
  const std::string_view body = fuzzy::strip(line);
  const std::size_t lead = static_cast<std::size_t>(body.data() - line.data());
  const std::size_t trail_start = lead + body.size();
  std::string out;
  auto show = [&out](std::string_view part) {
    for (char c : part) {
      if (c == '\t') {
        out += "\u2192";
      } else if (c == ' ') {
        out += "\u00b7";
      } else {
        out.push_back(c);
      }
    }
  };
  show(line.substr(0, lead));
  out.append(body);
  show(line.substr(trail_start));
  return out;
}

struct Candidate {
  double ratio = 0;
  std::size_t line = 0;
};

}  // namespace

std::string did_you_mean(std::string_view content, std::string_view old_string) {
  std::string_view anchor_line;
  bool found_anchor = false;
  for (const auto& line : fuzzy::split_lines(old_string)) {
    if (!fuzzy::is_blank(line)) {
      anchor_line = without_cr(line);
      found_anchor = true;
      break;
    }
  }
  if (!found_anchor) {
    return "";
  }
  const std::u32string anchor = fuzzy::to_code_points(fuzzy::strip(anchor_line));
  const auto lines = fuzzy::split_lines(content);
  std::vector<Candidate> candidates;
  std::size_t pair_work = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view stripped = fuzzy::strip(lines[i]);
    // Cheap bound on byte lengths first: code points never outnumber bytes.
    if (fuzzy::real_quick_ratio(anchor.size(), stripped.size()) <= kMinimumRatio && stripped.size() < anchor.size()) {
      continue;
    }
    const std::u32string text = fuzzy::to_code_points(stripped);
    if (fuzzy::real_quick_ratio(anchor.size(), text.size()) <= kMinimumRatio ||
        fuzzy::quick_ratio(anchor, text) <= kMinimumRatio) {
      continue;
    }
    double ratio = 0;
    if (pair_work <= kMaxHintPairWork) {
      pair_work += std::min(anchor.size() * text.size(), fuzzy::kExactRatioPairCap);
      ratio = fuzzy::similarity_ratio(std::u32string_view(anchor), std::u32string_view(text));
    } else {
      ratio = fuzzy::quick_ratio(anchor, text);
    }
    if (ratio > kMinimumRatio) {
      candidates.push_back(Candidate{ratio, i});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.ratio > b.ratio; });

  std::vector<std::size_t> chosen;
  for (const auto& candidate : candidates) {
    if (chosen.size() == kMaxBlocks) {
      break;
    }
    const bool shown = std::any_of(chosen.begin(), chosen.end(), [&](std::size_t line) {
      return candidate.line + kContextLines >= line && candidate.line <= line + kContextLines;
    });
    if (!shown) {
      chosen.push_back(candidate.line);
    }
  }
  if (chosen.empty()) {
    return "";
  }

  std::string hint;
  for (std::size_t b = 0; b < chosen.size(); ++b) {
    if (b > 0) {
      hint += "\n---\n";
    }
    const std::size_t first = chosen[b] >= kContextLines ? chosen[b] - kContextLines : 0;
    const std::size_t last = std::min(lines.size() - 1, chosen[b] + kContextLines);
    for (std::size_t r = first; r <= last; ++r) {
      if (r > first) {
        hint.push_back('\n');
      }
      char number[32];
      std::snprintf(number, sizeof number, "%4zu| ", r + 1);
      hint += number;
      hint.append(fuzzy::truncate_code_points(without_cr(lines[r]), kMaxHintLineChars));
    }
  }

  const std::string_view best = without_cr(lines[chosen.front()]);
  if (best != anchor_line && fuzzy::strip(best) == fuzzy::strip(anchor_line)) {
    hint += "\n\nWhitespace differs (\u2192 = tab, \u00b7 = space):\n  file line " +
            std::to_string(chosen.front() + 1) + ": " + visible_whitespace(best) + "\n  old_string:   " +
            visible_whitespace(anchor_line);
  }
  return hint;
}

}  // namespace skillrt::core
