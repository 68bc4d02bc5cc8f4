// Internals shared by the fuzzy patch sources (not part of the public API):
// UTF-8 helpers, normalised texts with an offset map back to the original
// bytes, the similarity ratio, the nine strategies and re-indentation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core::fuzzy {

// A half-open byte range [begin, end) of the original content.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// ---- UTF-8 and Python-like text helpers (utf8_text.cpp) -------------------

// Decodes the unit starting at s[i]. Invalid bytes decode one at a time to
// 0xDC00 + byte (like Python's surrogateescape) so they never merge with a
// neighbouring valid character. Returns the unit length (≥ 1).
std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& cp);

// Python str.isspace() for one code point.
bool is_space(char32_t cp);

std::string_view strip(std::string_view s);   // both ends, Python whitespace
std::string_view lstrip(std::string_view s);
std::string_view rstrip(std::string_view s);
bool is_blank(std::string_view s);

// str.split('\n'): always at least one element; views into s.
std::vector<std::string_view> split_lines(std::string_view s);

std::u32string to_code_points(std::string_view s);
std::size_t count_code_points(std::string_view s);
// The first max_code_points characters of s (never splits a character).
std::string_view truncate_code_points(std::string_view s, std::size_t max_code_points);

// Leading run of spaces and tabs.
std::string_view leading_indent(std::string_view line);

// ---- Normalised texts (unicode_fold.cpp) ---------------------------------

// A derived text plus, for every byte of it, the original offset of the
// source unit that produced it; origin[text.size()] is the original size.
struct MappedText {
  std::string text;
  std::vector<std::size_t> origin;

  // Whether derived offset k starts a source unit (a match may begin/end here).
  bool is_unit_boundary(std::size_t k) const;
  // Maps a derived range back to the smallest original range covering it.
  Span to_original(Span derived) const;
};

// Smart quotes, dashes, ellipsis, NBSP and the Zs spaces → ASCII (spec §2.11 2.7).
MappedText unicode_fold(std::string_view s);
std::string unicode_fold_text(std::string_view s);
bool has_foldable(std::string_view s);

// Runs of spaces/tabs collapsed to one space (spec §2.11 2.3).
MappedText collapse_blanks(std::string_view s);
std::string collapse_blanks_text(std::string_view s);

// ---- Similarity (similarity.cpp) -----------------------------------------

// Caps on the exact ratio (documented in docs/compat.md "Fuzzy patch").
inline constexpr std::size_t kExactRatioPairCap = 25'000'000;  // len(a)*len(b) in code points

// difflib SequenceMatcher(None, a, b).ratio() with autojunk off, over code
// points. Above kExactRatioPairCap the quick_ratio upper bound is returned.
double similarity_ratio(std::u32string_view a, std::u32string_view b);
double similarity_ratio(std::string_view a, std::string_view b);
// Upper bounds used to skip the exact ratio cheaply.
double real_quick_ratio(std::size_t la, std::size_t lb);
double quick_ratio(std::u32string_view a, std::u32string_view b);
// ratio(a, b) >= threshold, trying the cheap bounds first.
bool similar_at_least(std::u32string_view a, std::u32string_view b, double threshold);

// ---- Strategies (match_strategies.cpp) -----------------------------------

// Work limits of the similarity strategies (documented in docs/compat.md).
inline constexpr std::size_t kMaxLineComparisons = 4'000'000;
inline constexpr std::size_t kMaxRatioPairWork = 500'000'000;

struct StrategyMatch {
  const char* name = nullptr;
  std::vector<Span> spans;  // ascending, non-overlapping
};

// Tries the nine strategies in order; the first with ≥ 1 match wins.
// An empty `spans` means nothing matched.
StrategyMatch find_matches(std::string_view content, std::string_view pattern);

std::vector<Span> match_exact(std::string_view content, std::string_view pattern);
std::vector<Span> match_line_trimmed(std::string_view content, std::string_view pattern);
std::vector<Span> match_whitespace_normalized(std::string_view content, std::string_view pattern);
std::vector<Span> match_indentation_flexible(std::string_view content, std::string_view pattern);
std::vector<Span> match_escape_normalized(std::string_view content, std::string_view pattern);
std::vector<Span> match_trimmed_boundary(std::string_view content, std::string_view pattern);
std::vector<Span> match_unicode_normalized(std::string_view content, std::string_view pattern);
std::vector<Span> match_block_anchor(std::string_view content, std::string_view pattern);
std::vector<Span> match_context_aware(std::string_view content, std::string_view pattern);

// The literal \n \t \r unescaping of escape_normalized.
std::string unescape_controls(std::string_view s);

// ---- Re-indentation (reindent.cpp) ----------------------------------------

// How one indentation level is written: "\t" or N spaces; empty when unknown.
struct IndentUnit {
  std::string text;
  std::size_t width = 0;  // columns, a tab counting 4
};

// The most common indentation step of a whole file (its fallback style).
IndentUnit file_indent_unit(std::string_view content);

// Re-indents every line of new_text so old's indentation levels map onto the
// levels of the matched region (docs/compat.md "Fuzzy patch"). Returns
// new_text unchanged when old's indentation already equals the region's.
// file_unit is consulted only when the region alone shows no step.
std::string reindent(std::string_view old_text, std::string_view new_text, std::string_view region,
                     const std::function<IndentUnit()>& file_unit);

}  // namespace skillrt::core::fuzzy
