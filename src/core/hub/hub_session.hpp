// The start of every hub command: the root of the context (permission asked),
// `.hub/` made, the operation flock taken, interrupted placements finished or
// undone, and what crashed operations left in quarantine removed.
#pragma once

#include <optional>
#include <vector>

#include "core/context.hpp"
#include "core/hub/hub_paths.hpp"
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
};

Result<HubSession> open_hub_session(const Context& ctx, bool shared, Operation op);

} // namespace skillrt::core::hub
