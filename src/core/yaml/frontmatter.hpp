// Splitting SKILL.md into frontmatter and body with Hermes' rules (spec §2.2).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/yaml/yaml_node.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct Frontmatter {
  // The mapping (always a mapping; empty when there is no frontmatter, when the
  // YAML is not a mapping, or when only the line fallback produced nothing).
  YamlNode fields = YamlNode::make_mapping({});
  // Where the body starts, as a byte offset into the text passed in.
  std::size_t body_offset = 0;
  // Was a fenced block found at all?
  bool fenced = false;
  // Set when strict YAML failed and the line fallback was used; positions in it
  // are relative to the whole file (line 2 is the first YAML line).
  std::optional<Error> yaml_error;
  // The YAML text's first line number in the file (2 when the fence is line 1).
  std::uint32_t yaml_first_line = 2;
};

// Removes exactly one leading U+FEFF.
std::string_view strip_bom(std::string_view text);

// Locates the fenced block: text must start with `---`; the closing fence is the
// first "\n---" (after offset 3) followed by optional spaces/tabs and a newline
// (or end of text). As Hermes' `\n---\s*\n` does, the whitespace run may span
// blank lines and the body begins after its last newline.
// Returns {yaml_begin, yaml_end, body_begin} or nullopt.
struct FenceSpan {
  std::size_t yaml_begin;
  std::size_t yaml_end;
  std::size_t body_begin;
};
std::optional<FenceSpan> find_fences(std::string_view text);

// Full Hermes semantics: BOM already stripped by the caller or not (we strip one),
// CRLF tolerated, non-mapping → empty, YAML failure → line fallback.
Frontmatter parse_frontmatter(std::string_view text);

// Hermes' `_parse_tags`: list → stringified, stripped, non-empty items; string →
// optional surrounding [] removed, split on commas, quotes stripped.
std::vector<std::string> parse_tag_list(const YamlNode* node);

}  // namespace skillrt::core
