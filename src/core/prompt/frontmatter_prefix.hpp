// Reading only as much of a SKILL.md as its frontmatter can take.
#pragma once

#include <optional>
#include <string>

#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {

// The parsed frontmatter of the file at `path`, from its first
// limits::k_max_frontmatter_bytes bytes (BOM stripped, invalid UTF-8 replaced);
// nullopt when the file cannot be opened as a regular file. Never blocks on a FIFO.
std::optional<Frontmatter> read_frontmatter_prefix(const std::string& path);

} // namespace skillrt::core
