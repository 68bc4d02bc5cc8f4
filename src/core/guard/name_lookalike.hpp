// A skill whose name is one slip away from a well-known name ("reqeusts-helper",
// "githuh") is the typosquatting pattern of package registries: it borrows the
// trust of the name it imitates. The check reads the `name:` of SKILL.md's
// frontmatter and compares each word of it with a short list of names people
// install by (tools, services, packages) and of ordinary words that sit one
// letter away from them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

// The well-known word `word` imitates (one transposition, insertion, deletion
// or substitution away, and not itself a known word), or nullopt. `word` is
// lower-case ASCII; words under five letters are never judged (too many
// short words are one letter apart).
std::optional<std::string_view> imitated_name(std::string_view word);

// Adds a `name_lookalike` finding (high) when the frontmatter `name:` of a
// SKILL.md's `text` has a word imitating a well-known name.
void find_lookalike_name(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out);

} // namespace skillrt::core
