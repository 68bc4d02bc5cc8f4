// The folder-swap transaction and its recovery (see folder_swap.hpp).
#include "core/files/folder_swap.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/read_file.hpp"
#include "core/files/rename.hpp"
#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;

bool exists_no_follow(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// A real folder (not a link to one) with something in it.
bool non_empty_folder(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(path, ec)) && !fs::is_empty(path, ec) && !ec;
}

// A record is JSON, so every path in it must be text JSON can hold exactly.
Result<void> check_recordable(const fs::path& path) {
  if (find_invalid_utf8(path.native())) {
    return fail(ErrorCode::refused, "cannot journal a swap of " + path.string() +
                                        ": the path is not valid UTF-8 (rename the folder)");
  }
  return {};
}

// Adds owner rwx to every folder below `path` (links never followed), so
// remove_all can empty them. Each folder is opened up before the walk enters it.
void make_folders_writable(const fs::path& path) {
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow, ec);
  WalkOptions options;
  options.limits = TreeLimits::unlimited();
  options.links = LinkPolicy::record;
  options.specials = SpecialPolicy::record;
  options.problems = ProblemPolicy::report;
  options.skip_runtime_caches = false;
  (void)walk_tree(path, options, [](const WalkEntry& entry) -> Result<void> {
    if (entry.kind == EntryKind::folder) {
      (void)::fchmodat(entry.parent_fd, std::string(entry.name).c_str(), (entry.st->st_mode & 07777) | S_IRWXU, 0);
    }
    return {};
  });
}

// Removes a record once its swap is done or undone, durably.
void drop_record(const fs::path& record, std::error_code& ec) {
  fs::remove(record, ec);
  (void)fsync_dir(record.parent_path());
}

// Where one swap stands while it runs, so a failure can be undone step by step.
struct SwapState {
  fs::path backup;      // reserved backup folder; "" when none
  bool recorded = false;
  bool target_moved = false; // old target is in the backup
  bool staged_moved = false; // new folder is at the target
};

// Puts things back as they were before swap_folder(); returns `error`, with a
// note when the record has to stay for recovery.
Error undo(const FolderSwap& swap, const SwapState& state, Error error) {
  bool clean = true;
  if (state.staged_moved && !move_durably(swap.target, swap.staged, Replace::refuse)) {
    clean = false;
  }
  if (clean && state.target_moved && !move_durably(state.backup, swap.target, Replace::refuse)) {
    clean = false;
  }
  std::error_code ec;
  if (clean) {
    if (!state.backup.empty()) {
      fs::remove(state.backup, ec); // empty again by now
    }
    if (state.recorded) {
      drop_record(swap.record, ec);
    }
    return error;
  }
  if (state.recorded) {
    error.message += " (the old folder could not be put back yet; the record " + swap.record.string() +
                     " stays and the next run finishes the recovery)";
  } else {
    error.message += " (the old folder could not be put back; it is at " + state.backup.string() + ")";
  }
  return error;
}

} // namespace

std::string render_swap_record(const FolderSwap& swap, const fs::path& backup) {
  std::string out = "{\n";
  out += "  \"staged\": " + json_quoted(swap.staged.string()) + ",\n";
  out += "  \"target\": " + json_quoted(swap.target.string()) + ",\n";
  out += "  \"backup\": " + json_quoted(backup.string());
  if (!swap.extra_members.empty()) {
    out += ",\n  " + swap.extra_members;
  }
  out += "\n}\n";
  return out;
}

Result<void> swap_folder(const FolderSwap& swap, const std::function<Result<void>()>& commit) {
  const bool target_exists = exists_no_follow(swap.target);
  if (target_exists && swap.existing == ExistingTarget::refuse) {
    return fail(ErrorCode::refused, "cannot place " + swap.staged.string() + " at " + swap.target.string() +
                                        ": it already exists");
  }
  if (swap.existing == ExistingTarget::back_up && swap.record.empty()) {
    return fail(ErrorCode::internal, "a swap that backs up " + swap.target.string() + " needs a journal record");
  }
  SwapState state;
  if (!swap.record.empty()) {
    for (const fs::path* path : {&swap.staged, &swap.target, &swap.backup_dir}) {
      if (auto ok = check_recordable(*path); !ok) {
        return ok;
      }
    }
  }
  if (target_exists) {
    // An empty folder reserved by mkdtemp, which rename(2) replaces atomically.
    std::string reserved = (swap.backup_dir / (swap.backup_prefix + "XXXXXX")).string();
    if (::mkdtemp(reserved.data()) == nullptr) {
      return fail(ErrorCode::io_error,
                  "cannot reserve a backup folder in " + swap.backup_dir.string() + ": " + errno_text(errno));
    }
    state.backup = reserved;
  }
  if (!swap.record.empty()) {
    if (auto written = write_file_atomic(swap.record, render_swap_record(swap, state.backup)); !written) {
      return tl::unexpected(undo(swap, state, written.error()));
    }
    state.recorded = true;
  }
  if (target_exists) {
    if (auto moved = move_durably(swap.target, state.backup, Replace::allow); !moved) {
      return tl::unexpected(undo(swap, state, moved.error()));
    }
    state.target_moved = true;
  }
  if (auto moved = move_durably(swap.staged, swap.target, Replace::refuse); !moved) {
    return tl::unexpected(undo(swap, state, moved.error()));
  }
  state.staged_moved = true;
  if (commit) {
    if (auto committed = commit(); !committed) {
      return tl::unexpected(undo(swap, state, committed.error()));
    }
  }
  // Backup first, then the record: a crash in between leaves a record whose
  // recovery sees the swap done and finishes it (commit is idempotent).
  if (!state.backup.empty()) {
    (void)remove_folder(state.backup); // a leftover is removed by the record's recovery
  }
  if (state.recorded) {
    std::error_code ec;
    drop_record(swap.record, ec);
  }
  return {};
}

Result<SwapRecord> read_swap_record(const fs::path& file) {
  auto text = read_regular_file(file, limits::k_max_hub_state_bytes);
  if (!text) {
    return tl::unexpected(text.error());
  }
  if (auto strict = check_strict_json(*text, limits::k_max_state_json_depth); !strict) {
    return fail(ErrorCode::parse_error, file.string() + " is not a swap record: " + strict.error().message);
  }
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  const auto text_of = [&](const char* key) -> std::optional<std::string> {
    const auto it = doc.is_object() ? doc.find(key) : doc.end();
    if (it == doc.end() || !it->is_string()) {
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  const auto staged = text_of("staged");
  const auto target = text_of("target");
  const auto backup = text_of("backup");
  if (!staged || !target || !backup || staged->empty() || target->empty()) {
    return fail(ErrorCode::parse_error, file.string() + " is not a complete swap record");
  }
  SwapRecord record;
  record.file = file;
  record.staged = *staged;
  record.target = *target;
  record.backup = *backup;
  record.text = std::move(*text);
  return record;
}

std::vector<fs::path> list_swap_records(const fs::path& dir) {
  std::vector<fs::path> records;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string leaf = it->path().filename().string();
    if (leaf.front() == '.') {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    } else {
      records.push_back(it->path());
    }
  }
  std::sort(records.begin(), records.end());
  return records;
}

Result<SwapRecovery> recover_folder_swap(const SwapRecord& record, const std::function<Result<void>()>& finish) {
  std::error_code ec;
  const bool staged_present = exists_no_follow(record.staged);
  const bool target_present = exists_no_follow(record.target);
  SwapRecovery outcome = SwapRecovery::undone;
  if (!staged_present && target_present) {
    // Both renames happened: the new folder is in place.
    if (finish) {
      if (auto finished = finish(); !finished) {
        return tl::unexpected(finished.error());
      }
    }
    if (!record.backup.empty()) {
      if (auto removed = remove_folder(record.backup); !removed) {
        return tl::unexpected(removed.error());
      }
    }
    outcome = SwapRecovery::finished;
  } else {
    // The swap had not happened (or was being undone): the old folder goes back.
    if (!record.backup.empty() && non_empty_folder(record.backup)) {
      if (target_present) {
        return fail(ErrorCode::refused, "cannot put back " + record.target.string() + " from " +
                                            record.backup.string() + ": something else is at " +
                                            record.target.string() + " now; compare the two and remove one");
      }
      if (auto moved = move_durably(record.backup, record.target, Replace::refuse); !moved) {
        return tl::unexpected(moved.error());
      }
    }
    if (staged_present) {
      (void)remove_folder(record.staged);
    }
    if (!record.backup.empty()) {
      fs::remove(record.backup, ec); // empty by now
    }
  }
  drop_record(record.file, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot remove the swap record " + record.file.string() + ": " + ec.message());
  }
  return outcome;
}

Result<void> remove_folder(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (!fs::exists(status)) {
    return {};
  }
  if (!fs::is_directory(status)) {
    fs::remove(path, ec); // a symlink (or a stray file): the link goes, its target stays
  } else {
    fs::remove_all(path, ec);
    if (ec) {
      make_folders_writable(path);
      ec.clear();
      fs::remove_all(path, ec);
    }
  }
  if (ec) {
    return fail(ErrorCode::io_error, "cannot remove " + path.string() + ": " + ec.message());
  }
  return {};
}

} // namespace skillrt::core::files
