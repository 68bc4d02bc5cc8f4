// Characters that hide text from a human reader but not from a model (spec
// §2.12 rule 2, extended): zero-width characters, bidirectional controls and
// Unicode tag characters, which carry invisible ASCII.
#pragma once

#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

// Appends, for every line of `text` (a file's content without its leading
// BOM), at most one finding per id: invisible_unicode (high), bidi_override
// (high) and unicode_tag_smuggling (critical, with the hidden ASCII decoded
// into the snippet).
void find_unicode_smuggling(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out);

} // namespace skillrt::core
