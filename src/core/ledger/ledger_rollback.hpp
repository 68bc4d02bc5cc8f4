// `ledger rollback ID`: puts a skill back as it was before an entry, and
// records that as an entry of its own (action rollback, rolls_back = ID).
//
// A file skill's folder is restored with core/files' one folder swap, under
// the ledger's lock from the check to the append:
//   1. check    the folder's content hash now must be the entry's `after`
//               (absent when the entry deleted the skill); otherwise refused
//               as changed since, unless forced;
//   2. stage    the entry's `before` is written from the blobs into a folder
//               beside the target (`.skillrt-ledger-new-*`, never listed); for
//               an entry that created the skill (before = null) the staged
//               folder is empty: the swap takes the skill away in one rename
//               and the empty folder is removed after the commit;
//   3. swap     record in pending/<id>.json (the sealed rollback entry waits in
//               pending-entries/), old folder to `.skillrt-ledger-old-*`, staged
//               folder into place;
//   4. commit   the rollback entry is appended; if that fails the swap is undone.
// After a crash, recover_ledger_rollback() finishes (appends the entry unless
// it is already there) or undoes the swap.
//
// The caller holds the skill's writer lock (manage's SkillLock) around all of
// this, so no skill_manage write interleaves; manage/ledger_rollback.hpp is
// that caller. A database skill's rows are beyond the ledger: plan_bytes_rollback
// checks and returns the bytes to write, and the caller writes the store and
// appends the change it returns.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/files/folder_swap.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_blobs.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct LedgerRollbackOptions {
  bool force = false; // restore even when the skill changed since the entry
  LedgerActor actor = LedgerActor::user;
  std::string actor_id;
};

struct LedgerRollback {
  LedgerEntry undone;                // the entry rolled back
  LedgerEntry entry;                 // the rollback's own entry
  std::filesystem::path skill_dir;   // file skills: the folder restored (or removed)
  std::vector<std::string> warnings; // e.g. another interrupted rollback that could not be recovered
};

// The folder a file skill's entry is about: its root joined with its path,
// the path checked (relative, no "." or ".." segments). invalid_argument for
// a database entry or a bad path.
Result<std::filesystem::path> ledger_entry_folder(const LedgerEntry& entry);

// Restores the `before` state of `undone`'s folder (see the top of this
// file). Errors: refused (changed since; the folder is a symlink; a database
// entry), not_found / io_error (a missing or corrupt blob: nothing is
// changed), and the swap's and the append's own.
Result<LedgerRollback> rollback_folder_entry(const Ledger& ledger, const LedgerEntry& undone,
                                             const LedgerRollbackOptions& options);

// A database skill's rollback, planned: checks `current` (the skill's files
// now; nullopt when it does not exist) against `undone.after` like the
// folder rollback, and returns what to write.
struct LedgerBytesRollback {
  std::optional<std::vector<LedgerBytes>> restore; // nullopt: remove the skill
  LedgerChange change;                             // append once the store is written
};
Result<LedgerBytesRollback> plan_bytes_rollback(const Ledger& ledger, const LedgerEntry& undone,
                                                const std::optional<std::vector<LedgerBytes>>& current,
                                                const LedgerRollbackOptions& options);

// A rollback a crash interrupted: its journal record and the folder it swaps.
struct PendingLedgerRollback {
  std::filesystem::path record;
  std::filesystem::path target;
};
std::vector<PendingLedgerRollback> pending_ledger_rollbacks(const Ledger& ledger);

// Finishes or undoes one interrupted rollback under the ledger's lock (the
// caller holds the target skill's writer lock). A record whose folders are
// not where a rollback puts them is refused and left alone.
Result<files::SwapRecovery> recover_ledger_rollback(const Ledger& ledger, const std::filesystem::path& record);

} // namespace skillrt::core
