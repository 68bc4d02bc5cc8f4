// The fuzzy find-and-replace driver (spec §2.11): argument checks, strategy
// selection, uniqueness, the drift guards and building the new content.
#include "core/patch/fuzzy_replace.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string.h>  // memmem (GNU)

#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core {

namespace {

using fuzzy::Span;

constexpr std::size_t kMaxListedMatches = 5;
constexpr std::size_t kMaxListedLineChars = 80;

tl::unexpected<Error> failure(std::string message, bool no_match = false) {
  return fail(no_match ? ErrorCode::not_found : ErrorCode::invalid_argument, std::move(message));
}

// memmem is linear in the worst case, unlike string_view::find.
bool contains(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) {
    return true;
  }
  return memmem(haystack.data(), haystack.size(), needle.data(), needle.size()) != nullptr;
}

std::string replace_literal(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (true) {
    const std::size_t found = text.find(from, start);
    if (found == std::string_view::npos) {
      break;
    }
    out.append(text.substr(start, found - start));
    out.append(to);
    start = found + from.size();
  }
  out.append(text.substr(start));
  return out;
}

std::string many_matches_error(std::string_view content, const std::vector<Span>& spans) {
  std::string message = "Found " + std::to_string(spans.size()) +
                        " matches for old_string. Provide more context to make it unique, or use "
                        "replace_all=True. Matches:\n";
  std::size_t line_number = 1;
  std::size_t counted_to = 0;
  const std::size_t listed = std::min(spans.size(), kMaxListedMatches);
  for (std::size_t k = 0; k < listed; ++k) {
    const std::size_t begin = spans[k].begin;
    line_number += static_cast<std::size_t>(std::count(content.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                                       content.begin() + static_cast<std::ptrdiff_t>(begin), '\n'));
    counted_to = begin;
    const std::size_t line_start = content.rfind('\n', begin == 0 ? 0 : begin - 1);
    const std::size_t from = begin == 0 || line_start == std::string_view::npos ? 0 : line_start + 1;
    const std::size_t line_end = content.find('\n', begin);
    const std::string_view line =
        content.substr(from, (line_end == std::string_view::npos ? content.size() : line_end) - from);
    if (k > 0) {
      message.push_back('\n');
    }
    message += "  L" + std::to_string(line_number) + ": ";
    message.append(fuzzy::truncate_code_points(fuzzy::strip(line), kMaxListedLineChars));
  }
  if (spans.size() > listed) {
    message += "\n  ... and " + std::to_string(spans.size() - listed) + " more";
  }
  return message;
}

// Spec §2.11 rule 5a: a \' or \" present in both old and new but absent from
// the file is a serialisation artefact, not something to write.
std::optional<std::string> escape_drift(std::string_view content, const std::vector<Span>& spans,
                                        std::string_view old_string, std::string_view new_string) {
  for (std::string_view sequence : {std::string_view("\\'"), std::string_view("\\\"")}) {
    if (!contains(old_string, sequence) || !contains(new_string, sequence)) {
      continue;
    }
    for (const auto& span : spans) {
      if (!contains(content.substr(span.begin, span.end - span.begin), sequence)) {
        return "Escape-drift detected: old_string and new_string both contain the literal sequence " +
               std::string(sequence) +
               " but the matched text in the file does not. The backslash is most likely an artefact of "
               "how the arguments were serialised; resend old_string and new_string without escaping the quote.";
      }
    }
  }
  return std::nullopt;
}

bool opens_block(std::string_view text) {
  for (const auto& line : fuzzy::split_lines(text)) {
    const std::string_view trimmed = fuzzy::rstrip(line);
    if (!trimmed.empty() && (trimmed.back() == ':' || trimmed.back() == '{' || trimmed.back() == '(')) {
      return true;
    }
  }
  return false;
}

std::size_t deepest_indent(std::string_view text) {
  std::size_t deepest = 0;
  for (const auto& line : fuzzy::split_lines(text)) {
    if (!fuzzy::is_blank(line)) {
      deepest = std::max(deepest, fuzzy::leading_indent(line).size());
    }
  }
  return deepest;
}

// Spec §2.11 rule 5b: new lines nested deeper than anything in old, with no
// line opening a block, usually means indentation leaked from elsewhere.
std::optional<std::string> rogue_indent(std::string_view old_string, std::string_view new_string) {
  if (opens_block(old_string) || opens_block(new_string)) {
    return std::nullopt;
  }
  const std::size_t old_deepest = deepest_indent(old_string);
  const std::size_t new_deepest = deepest_indent(new_string);
  if (new_deepest <= old_deepest) {
    return std::nullopt;
  }
  return "Suspicious indentation in new_string: it indents lines " + std::to_string(new_deepest) +
         " characters deep while old_string never goes deeper than " + std::to_string(old_deepest) +
         " and no line opens a block (ending in ':', '{' or '('). Re-read the file and resend new_string with "
         "the indentation you intend.";
}

// Spec §2.11 rule 6 for unicode_normalized: the parts of the replacement that
// equal the matched text (after folding) keep the file's original characters.
std::string realign_unicode(std::string_view region, std::string_view replacement) {
  const fuzzy::MappedText region_folded = fuzzy::unicode_fold(region);
  const fuzzy::MappedText new_folded = fuzzy::unicode_fold(replacement);
  const std::string& r = region_folded.text;
  const std::string& n = new_folded.text;
  std::size_t prefix = 0;
  while (prefix < r.size() && prefix < n.size() && r[prefix] == n[prefix]) {
    ++prefix;
  }
  while (prefix > 0 && !(region_folded.is_unit_boundary(prefix) && new_folded.is_unit_boundary(prefix))) {
    --prefix;
  }
  std::size_t suffix = 0;
  const std::size_t room = std::min(r.size(), n.size()) - prefix;
  while (suffix < room && r[r.size() - 1 - suffix] == n[n.size() - 1 - suffix]) {
    ++suffix;
  }
  while (suffix > 0 && !(region_folded.is_unit_boundary(r.size() - suffix) &&
                         new_folded.is_unit_boundary(n.size() - suffix))) {
    --suffix;
  }
  const std::size_t region_head = region_folded.origin[prefix];
  const std::size_t region_tail = region_folded.origin[r.size() - suffix];
  const std::size_t new_head = new_folded.origin[prefix];
  const std::size_t new_tail = new_folded.origin[n.size() - suffix];
  std::string out(region.substr(0, region_head));
  out.append(replacement.substr(new_head, new_tail - new_head));
  out.append(region.substr(region_tail));
  return out;
}

// The text written in place of one matched region by a non-exact strategy.
std::string adapted_replacement(std::string_view strategy, std::string_view region, std::string_view old_string,
                                std::string_view new_string, const std::function<fuzzy::IndentUnit()>& file_unit) {
  std::string replacement(new_string);
  if (strategy == "escape_normalized") {
    // old only matched once its literal escapes were decoded; new was written the same way.
    replacement = replace_literal(replacement, "\\n", "\n");
  }
  if (contains(region, "\t") && !contains(region, "\\t")) {
    replacement = replace_literal(replacement, "\\t", "\t");
  }
  if (contains(region, "\r") && !contains(region, "\\r")) {
    replacement = replace_literal(replacement, "\\r", "\r");
  }
  // escape_normalized matched the decoded old, so its lines are what the region's lines align with.
  const std::string aligned_old =
      strategy == "escape_normalized" ? fuzzy::unescape_controls(old_string) : std::string(old_string);
  replacement = fuzzy::reindent(aligned_old, replacement, region, file_unit);
  if (contains(region, "\r\n") && !contains(replacement, "\r") && contains(replacement, "\n")) {
    replacement = replace_literal(replacement, "\n", "\r\n");  // keep a CRLF file CRLF
  }
  if (strategy == "unicode_normalized") {
    replacement = realign_unicode(region, replacement);
  }
  return replacement;
}

}  // namespace

Result<FuzzyReplacement> fuzzy_find_replace(std::string_view content,
                                                                 std::string_view old_string,
                                                                 std::string_view new_string,
                                                                 bool replace_all) {
  if (old_string.empty()) {
    return failure("old_string cannot be empty");
  }
  if (fuzzy::is_blank(old_string)) {
    return failure("old_string cannot be only whitespace: it is never a valid anchor");
  }
  if (old_string == new_string) {
    return failure("old_string and new_string are identical");
  }
  fuzzy::StrategyMatch match = fuzzy::find_matches(content, old_string);
  if (match.spans.empty()) {
    return failure("Could not find a match for old_string in the file", true);
  }
  const std::string_view strategy = match.name;
  const std::vector<Span>& spans = match.spans;
  if (spans.size() > 1 && !replace_all) {
    return failure(many_matches_error(content, spans));
  }
  if (spans.size() > 1 && (strategy == "block_anchor" || strategy == "context_aware")) {
    return failure("replace_all refused: the similarity strategy '" + std::string(strategy) + "' found " +
                   std::to_string(spans.size()) +
                   " loosely matching blocks, and a loose match is only trusted when it is "
                   "unique. Use the exact text of the blocks as old_string.");
  }
  const bool exact = strategy == "exact";
  if (!exact) {
    if (auto error = escape_drift(content, spans, old_string, new_string)) {
      return failure(std::move(*error));
    }
    if (auto error = rogue_indent(old_string, new_string)) {
      return failure(std::move(*error));
    }
  }
  // Spans are ascending and disjoint, so one left-to-right pass gives the
  // same text as applying them right to left.
  std::optional<fuzzy::IndentUnit> file_unit_cache;
  const std::function<fuzzy::IndentUnit()> file_unit = [&]() {
    if (!file_unit_cache) {
      file_unit_cache = fuzzy::file_indent_unit(content);
    }
    return *file_unit_cache;
  };
  std::string result;
  result.reserve(content.size() + spans.size() * new_string.size());
  std::size_t copied_to = 0;
  for (const auto& span : spans) {
    result.append(content.substr(copied_to, span.begin - copied_to));
    const std::string_view region = content.substr(span.begin, span.end - span.begin);
    if (exact) {
      result.append(new_string);
    } else {
      result.append(adapted_replacement(strategy, region, old_string, new_string, file_unit));
    }
    copied_to = span.end;
  }
  result.append(content.substr(copied_to));
  return FuzzyReplacement{std::move(result), spans.size(), std::string(strategy)};
}

bool is_already_applied(std::string_view content, std::string_view old_string, std::string_view new_string) {
  std::size_t meaningful = 0;
  for (std::size_t i = 0; i < new_string.size() && meaningful < 8;) {
    char32_t cp = 0;
    i += fuzzy::decode_utf8(new_string, i, cp);
    if (!fuzzy::is_space(cp)) {
      ++meaningful;
    }
  }
  if (meaningful < 8 || !contains(content, new_string)) {
    return false;
  }
  return old_string == new_string || !contains(content, old_string);
}

}  // namespace skillrt::core
