// Where a hub operation works (dist_shared decision 1): the writable skills
// root of the context, the `.hub/` folder beside the skills it describes, and
// the flock that makes one hub operation at a time per root.
#pragma once

#include <utility>

#include <filesystem>
#include <string>

#include "core/context.hpp"
#include "core/tenancy/layer.hpp"
#include "core/tenancy/permissions.hpp"
#include "skillrt/result.hpp"
#include "core/files/file_lock.hpp"

namespace skillrt::core::hub {

// What a hub operation installs: skills into a skills root, or plugins
// (core/plugins) into a plugins folder. Both keep their own `.hub/`.
enum class HubTarget : unsigned char { skills, plugins };

struct HubPaths {
  std::filesystem::path root;       // the skills root (or plugins folder) installs go into
  Layer layer = Layer::shared;      // shared (HOME/skills) or user (HOME/users/<uid>/skills)
  std::string owner;                // the user id for the user layer, "" for shared
  std::filesystem::path hub;        // root/.hub
  std::filesystem::path lock_json;  // hub/lock.json
  std::filesystem::path audit_log;  // hub/audit.log
  std::filesystem::path quarantine; // hub/quarantine: fetched bundles before judgement
  std::filesystem::path pending;    // hub/pending: one record per placement in flight
  std::filesystem::path trash;      // hub/trash: replaced or uninstalled folders on their way out
  std::filesystem::path op_lock;    // hub/lock: the operation flock
};

// The root of ctx for `op`: with a user and not `shared` the user's own root
// (created 0700 through tenancy/user_home), else HOME/skills. The permission
// matrix is asked first; a user outside the owner org gets its refusal for a
// shared write. Nothing below `.hub` is created here.
// With HubTarget::plugins the root is HOME/plugins, or the user's
// HOME/users/<uid>/plugins (core/plugins/plugin_set.hpp).
Result<HubPaths> resolve_hub_paths(const Context& ctx, bool shared, Operation op,
                                   HubTarget target = HubTarget::skills);

// Creates the root and `.hub/` with its folders (0700).
Result<void> ensure_hub_dirs(const HubPaths& paths);

// An exclusive flock on `.hub/lock`, held until destruction: two hub
// commands on one root run one after the other. Waits at most
// limits::k_skill_lock_timeout_ms.
class HubOperationLock {
public:
  static Result<HubOperationLock> acquire(const HubPaths& paths);
  HubOperationLock(HubOperationLock&& other) noexcept = default;
  HubOperationLock& operator=(HubOperationLock&&) = delete;
  HubOperationLock(const HubOperationLock&) = delete;
  HubOperationLock& operator=(const HubOperationLock&) = delete;
  ~HubOperationLock() = default;

private:
  explicit HubOperationLock(FileLock lock) : m_lock(std::move(lock)) {}
  FileLock m_lock;
};

} // namespace skillrt::core::hub
