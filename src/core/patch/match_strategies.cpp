// The nine matching strategies of spec §2.11 rule 2. Each returns ascending,
// non-overlapping spans of the original content. Line-based strategies turn
// lines into ids and search the id sequence with KMP, so they stay linear
// even for a 100k-line pattern; the similarity strategies filter windows by
// their first/last line before any expensive ratio and stop at a work budget.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string.h>  // memmem (GNU)

#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {

namespace {

constexpr double kContextLineThreshold = 0.80;
constexpr double kAnchorSingleThreshold = 0.50;
constexpr double kAnchorSeveralThreshold = 0.70;

// Lines of a text with their byte offsets.
struct LineTable {
  std::string_view text;
  std::vector<std::string_view> lines;
  std::vector<std::size_t> starts;

  explicit LineTable(std::string_view s) : text(s), lines(split_lines(s)) {
    starts.reserve(lines.size());
    for (const auto& line : lines) {
      starts.push_back(static_cast<std::size_t>(line.data() - s.data()));
    }
  }

  std::size_t size() const { return lines.size(); }

  // Whole lines [first, first + count) without the final newline. When the
  // last line ends in the CR of a CRLF pair and the pattern's last line does
  // not, the CR stays in the file (it belongs to the line ending).
  Span span(std::size_t first, std::size_t count, std::string_view pattern_last_line) const {
    const std::size_t last = first + count - 1;
    std::size_t end = starts[last] + lines[last].size();
    if (end > starts[first] && text[end - 1] == '\r' && end < text.size() && text[end] == '\n' &&
        (pattern_last_line.empty() || pattern_last_line.back() != '\r')) {
      --end;
    }
    return Span{starts[first], end};
  }
};

// Ids for the distinct lines of a pattern, in an open-addressing table sized
// for the pattern. Content lines are only looked up (never inserted), so a
// big file costs one probe per line; lines the pattern does not contain
// become -1, which never matches.
class PatternLineIds {
 public:
  explicit PatternLineIds(std::size_t max_lines) {
    std::size_t capacity = 16;
    while (capacity < 2 * max_lines + 16) {
      capacity *= 2;
    }
    slots_.resize(capacity);
    mask_ = capacity - 1;
  }

  int add(std::string_view line) {
    const std::uint64_t hash = hash_of(line);
    Slot& slot = slots_[probe(line, hash)];
    if (slot.id < 0) {
      slot = Slot{hash, line, next_id_++};
    }
    return slot.id;
  }

  int find(std::string_view line) const {
    return slots_[probe(line, hash_of(line))].id;
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::string_view line;
    int id = -1;
  };

  static std::uint64_t hash_of(std::string_view line) {
    std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a
    for (char c : line) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    return hash ^ (hash >> 29U);
  }

  // The index of the slot holding `line`, or of the empty slot where it would
  // go (the table is never more than half full, so one exists).
  std::size_t probe(std::string_view line, std::uint64_t hash) const {
    for (std::size_t index = static_cast<std::size_t>(hash) & mask_;; index = (index + 1) & mask_) {
      const Slot& slot = slots_[index];
      if (slot.id < 0 || (slot.hash == hash && slot.line == line)) {
        return index;
      }
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int next_id_ = 0;
};

// Every (possibly overlapping) start of needle in hay, by KMP.
std::vector<std::size_t> find_all_sequences(const std::vector<int>& hay, const std::vector<int>& needle) {
  std::vector<std::size_t> starts;
  if (needle.empty() || needle.size() > hay.size()) {
    return starts;
  }
  std::vector<std::size_t> failure(needle.size(), 0);
  for (std::size_t i = 1, k = 0; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) {
      k = failure[k - 1];
    }
    if (needle[i] == needle[k]) {
      ++k;
    }
    failure[i] = k;
  }
  for (std::size_t i = 0, k = 0; i < hay.size(); ++i) {
    while (k > 0 && hay[i] != needle[k]) {
      k = failure[k - 1];
    }
    if (hay[i] == needle[k]) {
      ++k;
    }
    if (k == needle.size()) {
      starts.push_back(i + 1 - needle.size());
      k = failure[k - 1];
    }
  }
  return starts;
}

// Keeps the first of any overlapping windows of `length` lines.
std::vector<std::size_t> non_overlapping(const std::vector<std::size_t>& starts, std::size_t length) {
  std::vector<std::size_t> kept;
  for (auto start : starts) {
    if (kept.empty() || start >= kept.back() + length) {
      kept.push_back(start);
    }
  }
  return kept;
}

std::vector<Span> drop_overlapping_spans(const std::vector<Span>& spans) {
  std::vector<Span> kept;
  for (const auto& span : spans) {
    if (kept.empty() || span.begin >= kept.back().end) {
      kept.push_back(span);
    }
  }
  return kept;
}

std::vector<Span> to_line_spans(const LineTable& table, const std::vector<std::size_t>& starts, std::size_t count,
                                std::string_view pattern_last_line) {
  std::vector<Span> spans;
  spans.reserve(starts.size());
  for (auto start : starts) {
    spans.push_back(table.span(start, count, pattern_last_line));
  }
  return spans;
}

using LineTransform = std::string_view (*)(std::string_view);

// Windows whose lines all equal the pattern's lines after `transform`.
std::vector<Span> match_transformed_lines(const LineTable& table, std::string_view pattern, LineTransform transform) {
  const auto pattern_lines = split_lines(pattern);
  if (pattern_lines.size() > table.size()) {
    return {};
  }
  PatternLineIds ids(pattern_lines.size());
  std::vector<int> needle;
  needle.reserve(pattern_lines.size());
  for (const auto& line : pattern_lines) {
    needle.push_back(ids.add(transform(line)));
  }
  std::vector<int> hay;
  hay.reserve(table.size());
  for (const auto& line : table.lines) {
    hay.push_back(ids.find(transform(line)));
  }
  const auto starts = non_overlapping(find_all_sequences(hay, needle), needle.size());
  return to_line_spans(table, starts, pattern_lines.size(), pattern_lines.back());
}

std::vector<Span> map_back(const MappedText& mapped, const std::vector<Span>& derived) {
  std::vector<Span> spans;
  spans.reserve(derived.size());
  for (const auto& span : derived) {
    spans.push_back(mapped.to_original(span));
  }
  return drop_overlapping_spans(spans);
}

bool has_literal_control_escape(std::string_view s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && (s[i + 1] == 'n' || s[i + 1] == 't' || s[i + 1] == 'r')) {
      return true;
    }
  }
  return false;
}

void replace_all_in_place(std::string& s, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(s.size());
  std::size_t start = 0;
  while (true) {
    const std::size_t found = s.find(from, start);
    if (found == std::string::npos) {
      break;
    }
    out.append(s, start, found - start);
    out.append(to);
    start = found + from.size();
  }
  out.append(s, start, std::string::npos);
  s = std::move(out);
}

// The work budget shared by one run of a similarity strategy.
struct RatioBudget {
  std::size_t pair_work = 0;
  std::size_t comparisons = 0;

  bool exhausted() const { return pair_work > kMaxRatioPairWork || comparisons > kMaxLineComparisons; }

  bool at_least(std::u32string_view a, std::u32string_view b, double threshold) {
    ++comparisons;
    if (a == b) {
      return true;  // ratio 1.0, also for two blank lines
    }
    if (real_quick_ratio(a.size(), b.size()) < threshold || quick_ratio(a, b) < threshold) {
      return false;
    }
    pair_work += std::min(a.size() * b.size(), kExactRatioPairCap);
    return similarity_ratio(a, b) >= threshold;
  }
};

// A pattern line stripped and decoded once.
std::u32string stripped_points(std::string_view line) { return to_code_points(strip(line)); }

// Code points in s, cheaply: ASCII-only text needs no decoding.
std::size_t fast_code_point_count(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80U) {
      return count_code_points(s);
    }
  }
  return s.size();
}

// The content as every strategy sees it, computed once per patch.
struct Haystack {
  std::string_view text;
  LineTable table;
  bool foldable;

  explicit Haystack(std::string_view content) : text(content), table(content), foldable(has_foldable(content)) {}

  // unicode_fold_text(text), folded on first use (only the last strategies need it).
  std::string_view folded_text() const {
    if (!foldable) {
      return text;
    }
    if (!folded_) {
      folded_ = unicode_fold_text(text);
    }
    return *folded_;
  }

 private:
  mutable std::optional<std::string> folded_;
};

std::vector<Span> line_trimmed_in(const Haystack& hay, std::string_view pattern) {
  return match_transformed_lines(hay.table, pattern, &strip);
}

std::vector<Span> whitespace_normalized_in(const Haystack& hay, std::string_view pattern) {
  const std::string pattern_collapsed = collapse_blanks_text(pattern);
  const std::string content_collapsed = collapse_blanks_text(hay.text);
  if (pattern_collapsed == pattern && content_collapsed == hay.text) {
    return {};  // nothing collapsed on either side: exact already said no
  }
  const auto derived = match_exact(content_collapsed, pattern_collapsed);
  if (derived.empty()) {
    return {};
  }
  return map_back(collapse_blanks(hay.text), derived);
}

std::vector<Span> indentation_flexible_in(const Haystack& hay, std::string_view pattern) {
  return match_transformed_lines(hay.table, pattern, &lstrip);
}

std::vector<Span> escape_normalized_in(const Haystack& hay, std::string_view pattern) {
  if (!has_literal_control_escape(pattern)) {
    return {};
  }
  const std::string unescaped = unescape_controls(pattern);
  if (unescaped == pattern) {
    return {};
  }
  return match_exact(hay.text, unescaped);
}

std::vector<Span> trimmed_boundary_in(const Haystack& hay, std::string_view pattern) {
  const LineTable& table = hay.table;
  const auto pattern_lines = split_lines(pattern);
  const std::size_t count = pattern_lines.size();
  if (count > table.size()) {
    return {};
  }
  const std::string_view first = strip(pattern_lines.front());
  const std::string_view last = strip(pattern_lines.back());
  std::vector<std::size_t> candidates;
  if (count <= 2) {
    for (std::size_t i = 0; i + count <= table.size(); ++i) {
      if (strip(table.lines[i]) == first && strip(table.lines[i + count - 1]) == last) {
        candidates.push_back(i);
      }
    }
  } else {
    // The raw middle lines must match exactly: find them by id sequence first.
    PatternLineIds ids(count);
    std::vector<int> middle;
    for (std::size_t k = 1; k + 1 < count; ++k) {
      middle.push_back(ids.add(pattern_lines[k]));
    }
    std::vector<int> lines;
    lines.reserve(table.size());
    for (const auto& line : table.lines) {
      lines.push_back(ids.find(line));
    }
    for (auto middle_start : find_all_sequences(lines, middle)) {
      if (middle_start == 0 || middle_start - 1 + count > table.size()) {
        continue;
      }
      const std::size_t i = middle_start - 1;
      if (strip(table.lines[i]) == first && strip(table.lines[i + count - 1]) == last) {
        candidates.push_back(i);
      }
    }
  }
  return to_line_spans(table, non_overlapping(candidates, count), count, pattern_lines.back());
}

std::vector<Span> unicode_normalized_in(const Haystack& hay, std::string_view pattern) {
  const bool pattern_foldable = has_foldable(pattern);
  if (!hay.foldable && !pattern_foldable) {
    return {};
  }
  const std::string folded_pattern = pattern_foldable ? unicode_fold_text(pattern) : std::string(pattern);
  const std::string_view folded = hay.folded_text();
  auto derived = match_exact(folded, folded_pattern);
  if (derived.empty()) {
    if (hay.foldable) {
      derived = match_transformed_lines(LineTable(folded), folded_pattern, &strip);
    } else {
      derived = match_transformed_lines(hay.table, folded_pattern, &strip);
    }
  }
  if (derived.empty()) {
    return {};
  }
  if (!hay.foldable) {
    return derived;  // the content was already plain: offsets are original offsets
  }
  // The offset map is only built once something matched.
  return map_back(unicode_fold(hay.text), derived);
}

std::vector<Span> block_anchor_in(const Haystack& hay, std::string_view pattern) {
  const std::string folded_pattern = unicode_fold_text(pattern);
  const LineTable pattern_table(folded_pattern);
  const std::size_t count = pattern_table.size();
  const LineTable& table = hay.table;
  if (count < 2 || count > table.size()) {
    return {};
  }
  // Folding never adds or removes a newline, so line k of both texts is the same line.
  const std::string_view folded_content = hay.folded_text();
  const LineTable folded_owned = hay.foldable ? LineTable(folded_content) : LineTable(std::string_view());
  const LineTable& folded_table = hay.foldable ? folded_owned : table;
  const std::string_view first = strip(pattern_table.lines.front());
  const std::string_view last = strip(pattern_table.lines.back());
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i + count <= folded_table.size(); ++i) {
    if (strip(folded_table.lines[i]) == first && strip(folded_table.lines[i + count - 1]) == last) {
      candidates.push_back(i);
    }
  }
  if (candidates.empty()) {
    return {};
  }
  const double threshold = candidates.size() == 1 ? kAnchorSingleThreshold : kAnchorSeveralThreshold;
  std::u32string pattern_middle;
  if (count > 2) {
    const std::size_t begin = pattern_table.starts[1];
    const std::size_t end = pattern_table.starts[count - 2] + pattern_table.lines[count - 2].size();
    pattern_middle = to_code_points(std::string_view(folded_pattern).substr(begin, end - begin));
  }
  RatioBudget budget;
  std::vector<std::size_t> accepted;
  for (auto i : candidates) {
    if (count > 2) {
      const std::size_t begin = folded_table.starts[i + 1];
      const std::size_t end = folded_table.starts[i + count - 2] + folded_table.lines[i + count - 2].size();
      const std::u32string middle = to_code_points(folded_content.substr(begin, end - begin));
      budget.pair_work +=
          std::min(middle.size() * std::max<std::size_t>(pattern_middle.size(), 1), kExactRatioPairCap);
      if (budget.exhausted()) {
        return {};
      }
      if (similarity_ratio(std::u32string_view(middle), std::u32string_view(pattern_middle)) < threshold) {
        continue;
      }
    }
    accepted.push_back(i);
  }
  const auto original_pattern_lines = split_lines(pattern);
  return to_line_spans(table, non_overlapping(accepted, count), count, original_pattern_lines.back());
}

// Whether content line `line` (stripped) is ≥ threshold similar to `wanted`;
// the length bound is checked before anything is decoded.
bool line_similar(RatioBudget& budget, std::u32string_view wanted, std::string_view line, double threshold) {
  const std::string_view stripped = strip(line);
  if (real_quick_ratio(wanted.size(), fast_code_point_count(stripped)) < threshold) {
    return false;  // linear and cheap: not counted against the budget
  }
  const std::u32string have = to_code_points(stripped);
  return budget.at_least(wanted, have, threshold);
}

std::vector<Span> context_aware_in(const Haystack& hay, std::string_view pattern) {
  const LineTable& table = hay.table;
  const auto pattern_lines = split_lines(pattern);
  const std::size_t count = pattern_lines.size();
  if (count > table.size()) {
    return {};
  }
  std::vector<std::u32string> wanted;
  wanted.reserve(count);
  for (const auto& line : pattern_lines) {
    wanted.push_back(stripped_points(line));
  }
  RatioBudget budget;
  const std::size_t windows = table.size() - count + 1;
  // Cheap filter first: a window survives only if its first and last lines pass.
  std::vector<std::size_t> survivors;
  for (std::size_t i = 0; i < windows; ++i) {
    if (budget.exhausted()) {
      return {};
    }
    if (!line_similar(budget, wanted.front(), table.lines[i], kContextLineThreshold)) {
      continue;
    }
    if (count > 1 && !line_similar(budget, wanted.back(), table.lines[i + count - 1], kContextLineThreshold)) {
      continue;
    }
    survivors.push_back(i);
  }
  std::vector<std::size_t> accepted;
  for (auto i : survivors) {
    if (!accepted.empty() && i < accepted.back() + count) {
      continue;  // overlaps the window just accepted
    }
    bool all_similar = true;
    for (std::size_t k = 1; k + 1 < count && all_similar; ++k) {
      if (wanted[k].empty()) {
        continue;  // blank pattern lines align with anything
      }
      all_similar = line_similar(budget, wanted[k], table.lines[i + k], kContextLineThreshold);
    }
    if (budget.exhausted()) {
      return {};
    }
    if (all_similar) {
      accepted.push_back(i);
    }
  }
  return to_line_spans(table, accepted, count, pattern_lines.back());
}

}  // namespace

std::vector<Span> match_exact(std::string_view content, std::string_view pattern) {
  std::vector<Span> spans;
  if (pattern.empty() || pattern.size() > content.size()) {
    return spans;
  }
  std::size_t start = 0;
  while (start + pattern.size() <= content.size()) {
    const void* found = memmem(content.data() + start, content.size() - start, pattern.data(), pattern.size());
    if (found == nullptr) {
      break;
    }
    const auto offset = static_cast<std::size_t>(static_cast<const char*>(found) - content.data());
    spans.push_back(Span{offset, offset + pattern.size()});
    start = offset + pattern.size();
  }
  return spans;
}

std::string unescape_controls(std::string_view s) {
  std::string out(s);
  replace_all_in_place(out, "\\n", "\n");
  replace_all_in_place(out, "\\t", "\t");
  replace_all_in_place(out, "\\r", "\r");
  return out;
}

std::vector<Span> match_line_trimmed(std::string_view content, std::string_view pattern) {
  return line_trimmed_in(Haystack(content), pattern);
}
std::vector<Span> match_whitespace_normalized(std::string_view content, std::string_view pattern) {
  return whitespace_normalized_in(Haystack(content), pattern);
}
std::vector<Span> match_indentation_flexible(std::string_view content, std::string_view pattern) {
  return indentation_flexible_in(Haystack(content), pattern);
}
std::vector<Span> match_escape_normalized(std::string_view content, std::string_view pattern) {
  return escape_normalized_in(Haystack(content), pattern);
}
std::vector<Span> match_trimmed_boundary(std::string_view content, std::string_view pattern) {
  return trimmed_boundary_in(Haystack(content), pattern);
}
std::vector<Span> match_unicode_normalized(std::string_view content, std::string_view pattern) {
  return unicode_normalized_in(Haystack(content), pattern);
}
std::vector<Span> match_block_anchor(std::string_view content, std::string_view pattern) {
  return block_anchor_in(Haystack(content), pattern);
}
std::vector<Span> match_context_aware(std::string_view content, std::string_view pattern) {
  return context_aware_in(Haystack(content), pattern);
}

StrategyMatch find_matches(std::string_view content, std::string_view pattern) {
  // Exact first, before any indexing of the content: it is the common case.
  auto exact = match_exact(content, pattern);
  if (!exact.empty()) {
    return StrategyMatch{"exact", std::move(exact)};
  }
  using Strategy = std::vector<Span> (*)(const Haystack&, std::string_view);
  static constexpr std::pair<const char*, Strategy> kFuzzyStrategies[] = {
      {"line_trimmed", &line_trimmed_in},
      {"whitespace_normalized", &whitespace_normalized_in},
      {"indentation_flexible", &indentation_flexible_in},
      {"escape_normalized", &escape_normalized_in},
      {"trimmed_boundary", &trimmed_boundary_in},
      {"unicode_normalized", &unicode_normalized_in},
      {"block_anchor", &block_anchor_in},
      {"context_aware", &context_aware_in},
  };
  const Haystack hay(content);
  for (const auto& [name, strategy] : kFuzzyStrategies) {
    auto spans = strategy(hay, pattern);
    if (!spans.empty()) {
      return StrategyMatch{name, std::move(spans)};
    }
  }
  return StrategyMatch{};
}

}  // namespace skillrt::core::fuzzy
