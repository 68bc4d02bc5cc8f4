// The rules every path inside a fetched bundle obeys, whatever brought it
// (archive entry, git tree entry, folder entry): relative, no `..`, no ':' or
// backslash in a segment, no control bytes, valid UTF-8, bounded length and depth.
#pragma once

#include <string>
#include <string_view>

#include "core/files/tree_limits.hpp"
#include "skillrt/result.hpp"

namespace skillrt::sources {

// The caps of a fetched bundle: the filesystem layer's one set of tree limits.
using BundleLimits = core::files::TreeLimits;

// `"name"` for messages: printable ASCII and UTF-8 kept, other bytes as \xNN,
// cut to 200 bytes ("..." added), so a hostile name cannot garble a terminal.
std::string quote_entry(std::string_view raw);

// The path with "." and empty segments dropped ("./a//b/" → "a/b"; "" for the
// bundle's root itself). Fails (refused / limit_exceeded) with
// `bundle entry "<raw>": <rule>` when `raw` is empty, absolute, holds a NUL,
// control byte, backslash or invalid UTF-8, has a `..` segment or a ':' in a
// segment, or is longer / deeper than the limits.
Result<std::string> normalize_bundle_path(std::string_view raw, const BundleLimits& limits);

// The message prefix every bundle entry error starts with: `bundle entry "<raw>": `.
std::string entry_prefix(std::string_view raw);

} // namespace skillrt::sources
