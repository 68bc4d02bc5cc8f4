// The owners rule of folder policies (skills.folders.<f>.owners,
// core/config/folder_policy.hpp) for every writer of skill folders:
// skill_manage, ledger rollback and moves between folders ask it.
#pragma once

#include <string_view>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Refuses when the top-level folder of `rel_dir` (a skill folder relative to
// its root, or a bare folder name for a skill about to be created there) has
// owners and ctx's user is not one of them.
Result<void> check_folder_owner(const Context& ctx, const Config& cfg, std::string_view rel_dir);

// True when some folder policy names owners (so callers may skip the lookup).
bool any_folder_owners(const Config& cfg);

}  // namespace skillrt::core
