// The validation helpers of skill_manage (spec §2.10 rules 5-8). Each fails
// with the Hermes message of the first rule broken: invalid_argument, or
// limit_exceeded for the size rules (8).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// Rule 5 (the skill name) is validate/skill_name.hpp's SkillNameRule::create.

// Rule 6 (create only): absent or blank is fine; otherwise one directory segment
// obeying the name rule.
Result<void> check_category(const std::optional<std::string>& category);

// Rule 7: non-blank, `---` first (after BOMs), closed fence, YAML mapping with
// `name` and `description` keys, description ≤ 1024 characters, non-blank body.
Result<void> check_skill_frontmatter(std::string_view content);

// The frontmatter `name` of content that passed check_skill_frontmatter, as
// Python's str() renders it.
std::string frontmatter_name_of(std::string_view content);

// The frontmatter description of valid content (for create's `_change`).
std::string frontmatter_description_of(std::string_view content);

// Characters as Hermes counts them: Unicode code points (an invalid UTF-8 byte counts as one).
std::size_t count_chars(std::string_view text);

// Rule 8: over 100,000 characters → "<label> content is N characters (limit: 100,000). ...".
Result<void> check_content_chars(std::string_view content, std::string_view label);

// Rule 8 for supporting files: the character limit, then 1 MiB of UTF-8 bytes.
Result<void> check_file_content(std::string_view content, std::string_view label);

// Python's "{:,}" formatting of n (1,234,567).
std::string with_thousands(std::size_t n);

// The first `max_chars` code points of text, plus `ellipsis` when it was cut.
std::string preview_chars(std::string_view text, std::size_t max_chars, std::string_view ellipsis);

} // namespace skillrt::core
