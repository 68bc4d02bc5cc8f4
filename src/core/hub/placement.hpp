// Where an installed skill goes and the rules of spec §2.14.8: no symlink on
// the way, never nested inside an existing skill, never over a category
// bucket, never over a skill the hub did not install, and an existing hub
// install only when replacing was asked for (--force or update).
#pragma once

#include <filesystem>
#include <string>

#include "core/hub/hub_paths.hpp"
#include "core/hub/lock_file.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct TargetPlan {
  std::string install_path;     // relative to the root: [category/]name
  std::filesystem::path target; // root / install_path
  bool replace = false;         // an existing hub install of this skill is replaced
};

// Plans root/<category>/<name>. `category` "" = directly in the root (it must
// already be valid: validate_hub_category). Errors are `refused` with the rule
// broken and the path; nothing is changed on disk.
Result<TargetPlan> plan_target(const HubPaths& paths, const LockFile& lock, const std::string& category,
                               const std::string& name, bool allow_replace);

// Re-checks an install_path recorded in lock.json before it is removed or
// replaced: valid, and no component from the root down is a symlink.
Result<std::filesystem::path> recorded_target(const HubPaths& paths, const std::string& name, const LockEntry& entry);

} // namespace skillrt::core::hub
