// The start of every hub command: the root of the context (permission asked),
// `.hub/` made, the operation flock taken, interrupted placements finished or
// undone, what crashed operations left in quarantine removed, and lock.json
// read.
#pragma once

#include <optional>
#include <vector>

#include "core/context.hpp"
#include "core/hub/hub_paths.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/pending_commit.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct HubSession {
  HubPaths paths;
  // Held for writers. A reader who may not write the root (a user outside
  // the owner org reading the shared root) takes no lock and changes nothing:
  // no folders made, no recovery, no cleanup.
  std::optional<HubOperationLock> lock;
  std::vector<RecoveryNote> recovered;
  // lock.json as it stands once recovery is done (read before any fetch, so a
  // corrupt file stops a command before it downloads anything).
  LockFile lock_file;
};

Result<HubSession> open_hub_session(const Context& ctx, bool shared, Operation op,
                                    HubTarget target = HubTarget::skills);

} // namespace skillrt::core::hub
