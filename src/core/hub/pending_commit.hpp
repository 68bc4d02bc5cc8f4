// The crash-safe step of install and update (dist_shared decision 4), the
// hub's use of the one folder swap (core/files/folder_swap.hpp): a judged
// skill moves from quarantine into the root by one rename(2); the swap's
// record `.hub/pending/<name>.json` (with the lock entry in it) lets the next
// hub command finish the placement (record the lock entry) or undo it (put
// the replaced install back). Nothing is visible in the root before the rename.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/hub/audit_log.hpp"
#include "core/hub/hub_paths.hpp"
#include "core/hub/lock_file.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct PendingPlacement {
  std::string name;
  AuditAction action = AuditAction::install; // install | update (for the audit line of a recovery)
  std::filesystem::path staged; // the judged skill in quarantine
  std::filesystem::path target; // root / entry.install_path
  std::filesystem::path backup; // where a replaced install waits (in .hub/trash); "" when none
  LockEntry entry;              // what lock.json records once placed
};

std::filesystem::path pending_record_path(const HubPaths& paths, const std::string& name);

// Writes the record atomically (exposed so tests can stage a crash).
Result<void> write_pending_record(const HubPaths& paths, const PendingPlacement& placement);

// Places the skill: record, move any old install to .hub/trash, rename the
// staged folder into place, record lock.json, drop the old install and the
// record. Without `replace`, an existing target is refused. On failure the old state is restored (old install back, no lock
// change) before the error returns.
Result<void> commit_placement(const HubPaths& paths, PendingPlacement placement, bool replace);

// What recovery did with one record.
struct RecoveryNote {
  std::string name;
  AuditAction action = AuditAction::install; // install | update
  std::filesystem::path target; // the skill folder the record was about
  bool completed = false;       // true: the placement had happened and is now recorded; false: undone
  std::string message;
};

// Finishes or undoes every pending record. A placement is finished (its lock
// entry recorded) only when the folder at the target has the content hash
// the record says it placed; a record that cannot be finished or undone is
// kept, with a note, for the next command. Call with the HubOperationLock
// held, before remove_stale_quarantine().
std::vector<RecoveryNote> recover_pending(const HubPaths& paths);

} // namespace skillrt::core::hub
