// Reading just enough of one SKILL.md for the listing (spec §2.5 rule 4).
#pragma once

#include <string>
#include <vector>

#include "core/discovery/walker.hpp"
#include "core/util/utf8_prefix.hpp"  // utf8_prefix/utf8_length, which listing callers use

namespace skillrt::core {

// The listing fields of one SKILL.md, before name/description truncation.
struct ListingFields {
  std::string frontmatter_name;  // stringified `name` when truthy, else ""
  std::string description;       // `description` when truthy, else the first body line that is not a heading
  std::vector<std::string> platforms;
  std::vector<std::string> environments;
  // What activates the skill from a user's turn (core/activation): the
  // `triggers` phrases and patterns and Claude Code's `paths` globs, as
  // written, at most limits::k_max_activation_rules each.
  std::vector<std::string> triggers;
  std::vector<std::string> paths;
  std::string yaml_problem;      // strict YAML failed and the line fallback was used: why
};

struct ListingFailure {
  SkipReason reason;
  std::string detail;
};

// Reads `path` (never blocking on a FIFO, refusing non-regular files) within
// the frontmatter window, extending it to the closing fence up to
// limits::k_max_frontmatter_bytes, and further into the body only when the
// description must come from the body. `buffer` is scratch reused across calls.
// Returns false and fills `failure` when the file is not listed.
bool read_listing_fields(const std::string& path, std::string& buffer, ListingFields& fields, ListingFailure& failure);

}  // namespace skillrt::core
