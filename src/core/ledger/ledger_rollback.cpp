// Rollback of a ledger entry and the recovery of an interrupted one
// (ledger_rollback.hpp).
#include "core/ledger/ledger_rollback.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/path_within.hpp"
#include "core/files/read_file.hpp"
#include "core/ledger/ledger_log.hpp"
#include "core/ledger/ledger_path.hpp"
#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/text.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using ledger_detail::LedgerHead;

// Beside the target, so every rename stays on its file system; the
// `.skillrt-` prefix keeps both out of every listing (discovery's rule).
constexpr std::string_view k_staged_prefix = ".skillrt-ledger-new-";
constexpr std::string_view k_backup_prefix = ".skillrt-ledger-old-";
constexpr mode_t k_folder_mode = 0755;

fs::path pending_entries_dir(const Ledger& ledger) {
  return ledger.dir / "pending-entries";
}

fs::path pending_entry_path(const Ledger& ledger, const std::string& id) {
  return pending_entries_dir(ledger) / (id + ".jsonl");
}

Result<void> make_dir(const fs::path& path, mode_t mode) {
  if (::mkdir(path.c_str(), mode) == 0) {
    (void)files::fsync_dir(path.parent_path());
    return {};
  }
  struct stat st {};
  if (errno == EEXIST && ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return {};
  }
  return fail(ErrorCode::io_error, "cannot create " + path.string() + ": " + errno_text(errno));
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string hash_or_absent(const std::optional<LedgerSnapshot>& snapshot) {
  return snapshot ? snapshot->hash : std::string("(no skill)");
}

// Step 1: the skill must be as the entry left it, unless forced.
Result<void> check_unchanged(const LedgerEntry& undone, const std::optional<LedgerSnapshot>& current,
                             const std::string& where, bool force) {
  const bool same =
      current.has_value() == undone.after.has_value() && (!current || current->hash == undone.after->hash);
  if (same || force) {
    return {};
  }
  return fail(ErrorCode::refused, "'" + undone.skill + "' changed since ledger entry " + undone.id + ": " + where +
                                      " is now " + hash_or_absent(current) + ", the entry left it " +
                                      hash_or_absent(undone.after) +
                                      ". Roll back the later entries first, or force it (--force) to restore the " +
                                      "state before " + undone.id + " anyway.");
}

LedgerChange rollback_change(const LedgerEntry& undone, std::optional<LedgerSnapshot> current,
                             const LedgerRollbackOptions& options, bool changed_since) {
  LedgerChange change;
  change.actor = options.actor;
  change.actor_id = options.actor_id;
  change.action = LedgerAction::rollback;
  change.layer = undone.layer;
  change.skill = undone.skill;
  change.root = undone.root;
  change.path = undone.path;
  change.before = std::move(current);
  change.after = undone.before;
  change.note = "rollback of " + undone.id + (changed_since ? " (forced over later changes)" : "");
  change.rolls_back = undone.id;
  return change;
}

// Writes `files` into the empty folder `staged`.
Result<void> stage_files(const fs::path& staged, const std::vector<LedgerBytes>& files) {
  std::set<fs::path> folders{staged};
  for (const LedgerBytes& file : files) {
    const fs::path target = staged / file.path;
    for (fs::path dir = target.parent_path(); dir != staged; dir = dir.parent_path()) {
      folders.insert(dir);
    }
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot create " + target.parent_path().string() + ": " + ec.message());
    }
    SKILLRT_TRY(write_file_atomic(target, file.bytes));
    if (::chmod(target.c_str(), static_cast<mode_t>(file.mode & 0777)) != 0) {
      return fail(ErrorCode::io_error, "cannot set the mode of " + target.string() + ": " + errno_text(errno));
    }
  }
  for (const fs::path& folder : folders) {
    (void)files::fsync_dir(folder);
  }
  return {};
}

// The swap record's own members (besides staged/target/backup).
std::string record_members(const LedgerEntry& entry, bool remove) {
  return "\"ledger_entry\": " + json_quoted(entry.id) + ",\n  \"remove\": " + (remove ? "true" : "false");
}

struct RecordMembers {
  std::string entry_id;
  bool remove = false;
};

Result<RecordMembers> parse_record_members(const files::SwapRecord& record) {
  const nlohmann::json json = nlohmann::json::parse(record.text, nullptr, /*allow_exceptions=*/false);
  const auto id = json.is_object() ? json.find("ledger_entry") : json.end();
  const auto remove = json.is_object() ? json.find("remove") : json.end();
  if (id == json.end() || !id->is_string() || remove == json.end() || !remove->is_boolean()) {
    return fail(ErrorCode::parse_error, record.file.string() + " is not a ledger rollback record");
  }
  RecordMembers members{id->get<std::string>(), remove->get<bool>()};
  if (members.entry_id.size() != k_ledger_id_hex_digits ||
      members.entry_id.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return fail(ErrorCode::parse_error, record.file.string() + " names no ledger entry");
  }
  return members;
}

// A record drives renames: its folders must be where a rollback puts them.
Result<void> check_record_layout(const files::SwapRecord& record) {
  const fs::path target = record.target.lexically_normal();
  const fs::path staged = record.staged.lexically_normal();
  const fs::path backup = record.backup.lexically_normal();
  const bool staged_ok = target.is_absolute() && staged.parent_path() == target.parent_path() &&
                         starts_with(staged.filename().string(), k_staged_prefix);
  const bool backup_ok = record.backup.empty() || (backup.parent_path() == target.parent_path() &&
                                                   starts_with(backup.filename().string(), k_backup_prefix));
  if (!staged_ok || !backup_ok) {
    return fail(ErrorCode::refused, record.file.string() + " names folders a ledger rollback never uses; left alone");
  }
  return {};
}

// The finish step of a recovered swap: the rollback entry, appended unless
// it already is (the crash may have come after the commit).
Result<void> finish_entry(const Ledger& ledger, const RecordMembers& members, const fs::path& target) {
  auto line = read_regular_file(pending_entry_path(ledger, members.entry_id), limits::k_max_ledger_entry_bytes);
  if (!line) {
    return fail(line.error().code, "cannot finish the interrupted rollback of " + target.string() +
                                       ": its entry is unreadable: " + line.error().message);
  }
  std::string_view text(*line);
  if (!text.empty() && text.back() == '\n') {
    text.remove_suffix(1);
  }
  SKILLRT_TRY_ASSIGN(const LedgerEntry entry, parse_ledger_entry(text));
  if (!ledger_detail::entry_seal_holds(entry) || entry.id != members.entry_id) {
    return fail(ErrorCode::parse_error, "the pending rollback entry " + members.entry_id + " does not match its hash");
  }
  SKILLRT_TRY_ASSIGN(const std::vector<LedgerEntry> entries, list_ledger(ledger, entry.skill));
  for (const LedgerEntry& existing : entries) {
    if (existing.hash == entry.hash) {
      return {};
    }
  }
  SKILLRT_TRY_ASSIGN(const LedgerHead head, ledger_detail::settle_tail(ledger));
  if (head.seq + 1 == entry.seq && head.hash == entry.prev) {
    return ledger_detail::write_entry(ledger, head, entry);
  }
  // Others appended meanwhile: the same change, sealed after them.
  SKILLRT_TRY(append_ledger_entry_locked(ledger, static_cast<const LedgerChange&>(entry)));
  return {};
}

void remove_if_empty(const fs::path& folder) {
  if (::rmdir(folder.c_str()) == 0) {
    (void)files::fsync_dir(folder.parent_path());
  }
}

Result<files::SwapRecovery> recover_locked(const Ledger& ledger, const fs::path& record_path) {
  SKILLRT_TRY_ASSIGN(const files::SwapRecord record, files::read_swap_record(record_path));
  SKILLRT_TRY(check_record_layout(record));
  SKILLRT_TRY_ASSIGN(const RecordMembers members, parse_record_members(record));
  SKILLRT_TRY_ASSIGN(const files::SwapRecovery outcome,
                     files::recover_folder_swap(record, [&] { return finish_entry(ledger, members, record.target); }));
  if (outcome == files::SwapRecovery::finished && members.remove) {
    remove_if_empty(record.target);
  }
  std::error_code ec;
  fs::remove(pending_entry_path(ledger, members.entry_id), ec);
  return outcome;
}

// Entries staged for rollbacks whose record is gone (finished, or never
// started) are only clutter.
void drop_stale_pending_entries(const Ledger& ledger) {
  std::error_code ec;
  for (fs::directory_iterator it(pending_entries_dir(ledger), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string id = it->path().stem().string();
    std::error_code exists_ec;
    if (!fs::exists(ledger.pending_dir() / (id + ".json"), exists_ec)) {
      std::error_code rm_ec;
      fs::remove(it->path(), rm_ec);
    }
  }
}

} // namespace

Result<fs::path> ledger_entry_folder(const LedgerEntry& entry) {
  if (entry.layer == Layer::database || entry.root.empty()) {
    return fail(ErrorCode::invalid_argument, "ledger entry " + entry.id + " is about a database skill, not a folder");
  }
  const fs::path root(entry.root);
  if (!root.is_absolute()) {
    return fail(ErrorCode::invalid_argument, "ledger entry " + entry.id + " names a root that is not absolute");
  }
  SKILLRT_TRY(ledger_detail::check_relative_path(entry.path));
  return (root / entry.path).lexically_normal();
}

Result<LedgerRollback> rollback_folder_entry(const Ledger& ledger, const LedgerEntry& undone,
                                             const LedgerRollbackOptions& options) {
  if (!ledger_detail::entry_seal_holds(undone)) {
    return fail(ErrorCode::refused,
                "ledger entry " + undone.id + " does not match its hash; run `skillrt ledger verify`");
  }
  SKILLRT_TRY_ASSIGN(const fs::path folder, ledger_entry_folder(undone));
  const fs::path root(undone.root);
  const fs::path parent = folder.parent_path();
  const std::string leaf = folder.filename().string();
  SKILLRT_TRY(ensure_ledger(ledger));
  SKILLRT_TRY_ASSIGN(const LedgerLock lock, LedgerLock::acquire(ledger));

  // A rollback of this folder a crash interrupted is settled first (the
  // caller holds this folder's lock, not any other's).
  for (const PendingLedgerRollback& pending : pending_ledger_rollbacks(ledger)) {
    if (pending.target.lexically_normal() == folder) {
      SKILLRT_TRY(recover_locked(ledger, pending.record));
    }
  }
  drop_stale_pending_entries(ledger);

  // 1. check
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(folder, ec);
  const bool exists = fs::exists(status);
  if (exists && !fs::is_directory(status)) {
    return fail(ErrorCode::refused, folder.string() + " is a symlink or not a folder; refusing to roll it back");
  }
  std::optional<LedgerSnapshot> current;
  if (exists) {
    // Captured into the ledger too: the rollback is itself undoable.
    SKILLRT_TRY_ASSIGN(current, capture_folder(ledger, folder));
  }
  SKILLRT_TRY(check_unchanged(undone, current, folder.string(), options.force));
  const bool changed_since =
      current.has_value() != undone.after.has_value() || (current && current->hash != undone.after->hash);
  if (!undone.before && !exists) {
    return fail(ErrorCode::refused, "'" + undone.skill + "' is already gone; nothing to roll back");
  }
  // Every blob is read (and checked) before anything on disk changes.
  std::optional<std::vector<LedgerBytes>> restore;
  if (undone.before) {
    SKILLRT_TRY_ASSIGN(restore, read_snapshot_bytes(ledger, *undone.before));
  }

  // The folder must stay inside its root, whatever links lie on the way.
  if (!fs::is_directory(root, ec)) {
    return fail(ErrorCode::not_found,
                "the skills root " + root.string() + " of ledger entry " + undone.id + " does not exist");
  }
  fs::create_directories(parent, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + parent.string() + ": " + ec.message());
  }
  const fs::path real_root = fs::canonical(root, ec);
  const fs::path real_parent = ec ? fs::path() : fs::canonical(parent, ec);
  if (ec || !is_within(real_parent, real_root)) {
    return fail(ErrorCode::refused, parent.string() + " leads out of the skills root " + root.string());
  }

  // 2. stage
  SKILLRT_TRY_ASSIGN(const LedgerHead head, ledger_detail::settle_tail(ledger));
  const LedgerEntry entry = ledger_detail::next_entry(head, rollback_change(undone, current, options, changed_since));
  std::string staged = (parent / (std::string(k_staged_prefix) + leaf + "-XXXXXX")).string();
  if (::mkdtemp(staged.data()) == nullptr) {
    return fail(ErrorCode::io_error, "cannot create a staging folder in " + parent.string() + ": " + errno_text(errno));
  }
  const auto drop_staged = [&] { (void)files::remove_folder(staged); };
  ::chmod(staged.c_str(), k_folder_mode);
  if (restore) {
    if (auto staged_ok = stage_files(staged, *restore); !staged_ok) {
      drop_staged();
      return tl::unexpected(staged_ok.error());
    }
  }

  // 3. swap, 4. commit
  const auto prepared = [&]() -> Result<void> {
    SKILLRT_TRY(make_dir(ledger.pending_dir(), 0700));
    SKILLRT_TRY(make_dir(pending_entries_dir(ledger), 0700));
    return write_file_atomic(pending_entry_path(ledger, entry.id), render_ledger_entry(entry) + "\n");
  }();
  if (!prepared) {
    drop_staged();
    return tl::unexpected(prepared.error());
  }
  files::FolderSwap swap;
  swap.staged = staged;
  swap.target = folder;
  swap.backup_dir = parent;
  swap.backup_prefix = std::string(k_backup_prefix) + leaf + "-";
  swap.record = ledger.pending_dir() / (entry.id + ".json");
  swap.extra_members = record_members(entry, !restore);
  swap.existing = exists ? files::ExistingTarget::back_up : files::ExistingTarget::refuse;
  auto swapped = files::swap_folder(swap, [&] { return ledger_detail::write_entry(ledger, head, entry); });
  if (!swapped) {
    drop_staged();
    if (!fs::exists(swap.record, ec)) {
      fs::remove(pending_entry_path(ledger, entry.id), ec);
    }
    return tl::unexpected(swapped.error());
  }
  if (!restore) {
    remove_if_empty(folder); // the empty stand-in the swap put in place
  }
  fs::remove(pending_entry_path(ledger, entry.id), ec);
  return LedgerRollback{undone, entry, folder, {}};
}

Result<LedgerBytesRollback> plan_bytes_rollback(const Ledger& ledger, const LedgerEntry& undone,
                                                const std::optional<std::vector<LedgerBytes>>& current,
                                                const LedgerRollbackOptions& options) {
  if (undone.layer != Layer::database) {
    return fail(ErrorCode::invalid_argument, "ledger entry " + undone.id + " is about a skill folder");
  }
  if (!ledger_detail::entry_seal_holds(undone)) {
    return fail(ErrorCode::refused,
                "ledger entry " + undone.id + " does not match its hash; run `skillrt ledger verify`");
  }
  std::optional<LedgerSnapshot> now;
  if (current) {
    SKILLRT_TRY_ASSIGN(now, capture_bytes(ledger, *current));
  }
  SKILLRT_TRY(check_unchanged(undone, now, "the database skill", options.force));
  if (!undone.before && !now) {
    return fail(ErrorCode::refused, "'" + undone.skill + "' is already gone; nothing to roll back");
  }
  const bool changed_since = now.has_value() != undone.after.has_value() || (now && now->hash != undone.after->hash);
  LedgerBytesRollback plan;
  if (undone.before) {
    SKILLRT_TRY_ASSIGN(plan.restore, read_snapshot_bytes(ledger, *undone.before));
  }
  plan.change = rollback_change(undone, std::move(now), options, changed_since);
  return plan;
}

std::vector<PendingLedgerRollback> pending_ledger_rollbacks(const Ledger& ledger) {
  // Read only (no files::list_swap_records, which removes the dot files a
  // record write in flight is made of): callers need not hold the lock.
  std::vector<PendingLedgerRollback> out;
  std::error_code ec;
  for (fs::directory_iterator it(ledger.pending_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().front() == '.') {
      continue;
    }
    auto read = files::read_swap_record(it->path());
    out.push_back(PendingLedgerRollback{it->path(), read ? read->target : fs::path()});
  }
  std::sort(out.begin(), out.end(),
            [](const PendingLedgerRollback& a, const PendingLedgerRollback& b) { return a.record < b.record; });
  return out;
}

Result<files::SwapRecovery> recover_ledger_rollback(const Ledger& ledger, const fs::path& record) {
  SKILLRT_TRY_ASSIGN(const LedgerLock lock, LedgerLock::acquire(ledger));
  return recover_locked(ledger, record);
}

} // namespace skillrt::core
