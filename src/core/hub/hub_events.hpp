// After every change the hub makes to a root: a SkillEvent with the root's
// layer and owner (so only entitled subscribers hear of a user's install) and
// the prompt snapshot thrown away, as skill_manage does.
#pragma once

#include <filesystem>
#include <string>

#include "core/context.hpp"
#include "core/events/event_bus.hpp"
#include "core/hub/hub_paths.hpp"

namespace skillrt::core::hub {

void announce_change(const Context& ctx, const HubPaths& paths, ChangeKind kind, const std::string& name,
                     const std::filesystem::path& skill_dir);

} // namespace skillrt::core::hub
