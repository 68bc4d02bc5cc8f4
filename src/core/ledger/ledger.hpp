// The ledger: a hash-chained, append-only audit log of every change to a
// skill, one per owner — the shared layer's in HOME/ledger/, a user's (their
// file skills and their database skills) in HOME/users/<uid>/ledger/:
//
//   entries.jsonl   one entry per line (ledger_entry.hpp), seq 1, 2, 3, ...
//   head.json       {"seq":N,"hash":"<entry N's hash>","size":<bytes of entries.jsonl through entry N>},
//                   replaced atomically after each append: removing the last
//                   entries (and only them) is caught by verify
//   blobs/ab/<sha>  the bytes of every file a snapshot names, content-addressed
//                   (written atomically, only when absent)
//   pending/        journal records of rollbacks in flight (files/folder_swap)
//   lock            the flock every writer of this ledger holds
//
// Appending, under the lock: the line is written with one O_APPEND write and
// fsynced, then head.json is replaced. A crash can therefore leave, past
// what the head records, either nothing, one complete entry (killed before
// the head was replaced) or a torn line (killed mid-write). Both are
// reported by verify as notes, not problems — the chain is intact — and the
// next append settles them: a complete entry that chains onto the head is
// adopted (the head catches up), a torn line is cut off (ftruncate to the
// head's size). Anything else past the head (several entries, an entry that
// does not chain) is damage: append refuses, verify reports it.
//
// A change is recorded after it is made (its "after" is what is on disk), so
// a crash between the change and the append leaves the change unrecorded,
// never the ledger broken; the next entry of that skill then shows a
// "before" that differs from the last "after".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "core/files/file_lock.hpp"
#include "core/ledger/ledger_entry.hpp"
#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Where one owner's ledger lives.
struct Ledger {
  std::filesystem::path dir;
  std::filesystem::path home; // the HOME it belongs to
  std::string owner;          // the user id; "" for the shared ledger

  std::filesystem::path entries_path() const { return dir / "entries.jsonl"; }
  std::filesystem::path head_path() const { return dir / "head.json"; }
  std::filesystem::path lock_path() const { return dir / "lock"; }
  std::filesystem::path blobs_dir() const { return dir / "blobs"; }
  std::filesystem::path pending_dir() const { return dir / "pending"; }
};

// The ledger that records changes to `layer` for ctx: HOME/ledger for the
// shared layer, HOME/users/<uid>/ledger for the user and database layers
// (invalid_argument without a user). Nothing is created.
Result<Ledger> ledger_for(const Context& ctx, Layer layer);

// Creates the ledger's folder (0700; a user's under ensure_user_home, so no
// planted symlink leads out of HOME/users). Refuses a ledger folder that is
// a symlink or not a folder. Every writer below calls it.
Result<void> ensure_ledger(const Ledger& ledger);

// An exclusive flock on the ledger, held until destruction: appends, rollbacks
// and the recovery of interrupted rollbacks run under it.
class LedgerLock {
public:
  // Waits up to limits::k_ledger_lock_timeout_ms. The ledger folder must exist.
  static Result<LedgerLock> acquire(const Ledger& ledger);

  LedgerLock(LedgerLock&&) noexcept = default;
  LedgerLock& operator=(LedgerLock&&) = delete;
  LedgerLock(const LedgerLock&) = delete;
  LedgerLock& operator=(const LedgerLock&) = delete;
  ~LedgerLock() = default;

private:
  explicit LedgerLock(FileLock lock) : m_lock(std::move(lock)) {}
  FileLock m_lock;
};

// Appends one entry (creating the ledger on first use) and returns it sealed
// (seq, id, time, prev, hash). Takes the lock itself.
// Errors: io_error, limit_exceeded (an entry past k_max_ledger_entry_bytes),
// refused (the tail past the head is damaged: run verify).
Result<LedgerEntry> append_ledger_entry(const Ledger& ledger, const LedgerChange& change);

// The same for a caller that already holds the ledger's lock.
Result<LedgerEntry> append_ledger_entry_locked(const Ledger& ledger, const LedgerChange& change);

// Every readable entry in order (committed ones and an adoptable last one;
// a torn or unreadable line is left out: verify names it). With `skill`
// non-empty, only that skill's entries. A missing ledger has none.
Result<std::vector<LedgerEntry>> list_ledger(const Ledger& ledger, std::string_view skill = {});

// The entry whose id (or a unique prefix of it, at least 4 hex digits) is
// `id`. Errors: not_found, ambiguous, invalid_argument (not hex).
Result<LedgerEntry> find_ledger_entry(const Ledger& ledger, std::string_view id);

} // namespace skillrt::core
