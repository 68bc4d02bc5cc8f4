// Fuzzy find-and-replace for skill patches (spec §2.11): nine matching
// strategies tried in order, uniqueness rules, drift guards and re-indentation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

struct FuzzyReplacement {
  std::string content;     // the whole new file content
  std::size_t count = 0;   // replacements made (≥ 1)
  std::string strategy;    // "exact", "line_trimmed", … "context_aware"
};

// Replaces old_string with new_string in content. Never throws; linear-ish in
// content size for the exact strategies and bounded for the similarity ones.
// Errors carry the matcher's message (spec §2.11 rules 1, 3, 4, 5, 7):
// not_found only for "Could not find a match for old_string in the file",
// invalid_argument for every other refusal.
Result<FuzzyReplacement> fuzzy_find_replace(std::string_view content,
                                                                 std::string_view old_string,
                                                                 std::string_view new_string,
                                                                 bool replace_all);

// The "did you mean" hint of spec §2.11 rule 7 (without the leading
// "\n\nDid you mean one of these sections?\n"); "" when nothing is similar enough.
std::string did_you_mean(std::string_view content, std::string_view old_string);

// Spec §2.11 rule 8.
bool is_already_applied(std::string_view content, std::string_view old_string, std::string_view new_string);

}  // namespace skillrt::core
