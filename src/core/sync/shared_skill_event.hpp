// The change event of a bundled copy: sync, reset and prune all write into
// HOME/skills, the shared layer, so their events look alike and reach every
// subscriber (events/event_bus.hpp).
#pragma once

#include <filesystem>
#include <string>

#include "core/context.hpp"
#include "core/events/event_bus.hpp"

namespace skillrt::core::sync {

// Publishes `kind` for the skill `name` whose folder is `dir` (the event's
// location is dir/SKILL.md). Does nothing when ctx.events is unset.
void publish_shared_skill_change(const Context& ctx, ChangeKind kind, const std::string& name,
                                 const std::filesystem::path& dir);

} // namespace skillrt::core::sync
