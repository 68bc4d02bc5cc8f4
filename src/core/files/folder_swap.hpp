// The one folder-swap transaction: a fully staged folder takes the place of a
// target folder (a hub install or update, a bundled sync copy, update or
// restore) so that a crash at any point leaves either the old folder or the
// new one, never a mix and never nothing:
//
//   1. stage    the caller builds the complete new folder beside the target
//               (same file system) under a name discovery never lists;
//   2. back up  an empty backup folder is reserved (mkdtemp) where the old
//               target will wait;
//   3. record   a journal record naming staged, target and backup (and the
//               caller's own members) is written atomically;
//   4. swap     target -> backup, then staged -> target (renames, fsynced);
//   5. commit   the caller's step that makes the swap official (the hub
//               writes its lock entry); when it fails the swap is undone;
//   6. clean    the backup is removed, then the record.
//
// After a crash, recover_folder_swap() reads the record and either finishes
// (the staged folder is gone and the target is there: the swap happened; the
// caller's finish step runs again, so it must be idempotent) or undoes (the
// old folder goes back from its backup, the staged folder is removed).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core::files {

// What a swap does with a folder already at the target.
enum class ExistingTarget : unsigned char {
  refuse, // the target must not exist (a first copy): refused when it does
  back_up // the old folder waits in the backup until the swap is committed
};

struct FolderSwap {
  std::filesystem::path staged; // the complete new folder, on the target's file system
  std::filesystem::path target;
  // Where a replaced target waits: `backup_dir / (backup_prefix + "XXXXXX")`,
  // reserved by mkdtemp. Same file system as the target.
  std::filesystem::path backup_dir;
  std::string backup_prefix;
  // The journal record; empty for a swap that needs no recovery (a first copy
  // with ExistingTarget::refuse: one no-replace rename, nothing to undo).
  std::filesystem::path record;
  // The caller's own members of the record, rendered as JSON object members
  // (`"key": value` pairs separated by commas, no surrounding braces); they
  // come back in SwapRecord::text for its finish step. Must not use the keys
  // "staged", "target" or "backup".
  std::string extra_members;
  ExistingTarget existing = ExistingTarget::refuse;
};

// Runs the transaction. `commit` (may be empty) runs once the new folder is in
// place; when it fails, the swap is undone (old folder back) and its error
// returned. On any failure the state before the call is restored; when even
// that fails, the record stays so recover_folder_swap() can finish the job,
// and the error says so. The staged folder is the caller's to remove when the
// swap fails (it is never moved anywhere but the target).
// Errors: refused (target exists with ExistingTarget::refuse; a path that is
// not valid UTF-8 when a record is written), io_error.
Result<void> swap_folder(const FolderSwap& swap, const std::function<Result<void>()>& commit = {});

// The text of `swap`'s record with `backup` as its backup folder (exposed so
// tests can stage a crash at any step).
std::string render_swap_record(const FolderSwap& swap, const std::filesystem::path& backup);

// A record read back from disk.
struct SwapRecord {
  std::filesystem::path file;
  std::filesystem::path staged;
  std::filesystem::path target;
  std::filesystem::path backup; // "" when the swap replaced nothing
  std::string text;             // the whole record, for the caller's members
};

// Reads one record (strict JSON, at most limits::k_max_hub_state_bytes, the
// bound of the other state files: a record holds three paths and, for the
// hub, one lock entry).
// Errors: parse_error for anything that is not a complete record, and the
// read's own errors. Callers check the paths against their own layout before
// acting on a record (a planted record must not drive renames).
Result<SwapRecord> read_swap_record(const std::filesystem::path& file);

// The records in the journal folder `dir`, sorted by name (none when it does
// not exist). Dot files there are temporary files of record writes that were
// killed; they are removed. Call with the lock that serialises the swaps.
std::vector<std::filesystem::path> list_swap_records(const std::filesystem::path& dir);

// What recovery did.
enum class SwapRecovery : unsigned char {
  finished, // the swap had happened; `finish` ran and the record is gone
  undone    // the swap had not happened; the old folder is back, the record gone
};

// Finishes or undoes the swap of `record` (see the top of this file). On an
// error the record stays for a later try and nothing is lost: a backup is
// never removed unless the old folder is back in place or the swap is
// finished.
Result<SwapRecovery> recover_folder_swap(const SwapRecord& record, const std::function<Result<void>()>& finish = {});

// Removes a folder tree without following symlinks (a link is removed as a
// link); read-only folders inside are made writable and the removal retried.
// A missing path is not an error.
Result<void> remove_folder(const std::filesystem::path& path);

} // namespace skillrt::core::files
