// What a successful skill write must throw away so the next reader sees it
// (spec §2.16 rule 9). The listing cache needs nothing: it is keyed on each
// SKILL.md's exact stat, so it notices the edit by itself.
#pragma once

#include <filesystem>

#include "core/context.hpp"

namespace skillrt::core {

// HOME/.skills_prompt_snapshot.json (spec §2.16 rule 3); with a user in ctx,
// HOME/users/<uid>/.skills_prompt_snapshot.json.
std::filesystem::path prompt_snapshot_path(const Context& ctx);

// Removes the prompt snapshot (and any in-process index cache of this
// process). Best effort: a snapshot that cannot be removed is still
// rejected by its manifest on the next read.
void invalidate_skill_caches(const Context& ctx);

} // namespace skillrt::core
