// Crash-safe placement with pending records (see pending_commit.hpp).
#include "core/validate/skill_name.hpp"
#include "core/hub/pending_commit.hpp"

#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/folder_swap.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/path_within.hpp"
#include "core/hub/audit_log.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/placement.hpp"
#include "core/util/strict_json.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

// The hub's members of a swap record: the action, the name, and a lock file
// holding the one entry (so one reader parses both lock.json and records).
std::string record_members(const PendingPlacement& p) {
  LockFile single;
  single.installed.emplace(p.name, p.entry);
  std::string lock_text = render_lock_json(single); // "{\n  members\n}\n"
  lock_text = lock_text.substr(4, lock_text.size() - 4 - 3);
  return "\"pending\": " + json_quoted(audit_action_name(p.action)) + ",\n  \"name\": " + json_quoted(p.name) +
         ",\n  " + lock_text;
}

files::FolderSwap swap_of(const HubPaths& paths, const PendingPlacement& p, bool replace) {
  files::FolderSwap swap;
  swap.staged = p.staged;
  swap.target = p.target;
  swap.backup_dir = paths.trash;
  swap.backup_prefix = p.name + "-";
  swap.record = pending_record_path(paths, p.name);
  swap.extra_members = record_members(p);
  swap.existing = replace ? files::ExistingTarget::back_up : files::ExistingTarget::refuse;
  return swap;
}

// True when `inner` lies strictly below `outer`, compared lexically (the
// record's paths were written by us from `outer`; nothing here is resolved).
bool strictly_below(const fs::path& inner, const fs::path& outer) {
  const fs::path a = inner.lexically_normal();
  const fs::path b = outer.lexically_normal();
  return a != b && is_within(a, b);
}

// A record drives rename and remove_all, so every path in it must be one a
// placement of its own name could have written: the staged folder inside
// quarantine, the backup directly inside trash, the target exactly where
// lock.json's install_path puts it. A record that says anything else is not
// ours to act on (a planted or corrupted file).
Result<void> check_record_paths(const HubPaths& paths, const fs::path& file, const PendingPlacement& p) {
  const auto refuse = [&](const std::string& why) {
    return fail(ErrorCode::refused, file.string() + " is not a pending record of this hub: " + why);
  };
  if (auto ok = check_skill_name(p.name, SkillNameRule::install); !ok || file.filename() != p.name + ".json") {
    return refuse("its name does not match the file");
  }
  if (!strictly_below(p.staged, paths.quarantine)) {
    return refuse("the staged folder is outside " + paths.quarantine.string());
  }
  if (!p.backup.empty() && p.backup.lexically_normal().parent_path() != paths.trash.lexically_normal()) {
    return refuse("the backup folder is outside " + paths.trash.string());
  }
  auto target = recorded_target(paths, p.name, p.entry);
  if (!target || target->lexically_normal() != p.target.lexically_normal()) {
    return refuse("the target is not where its lock entry installs it");
  }
  return {};
}

// The hub's placement in a swap record read back, its paths checked.
Result<PendingPlacement> placement_of(const HubPaths& paths, const fs::path& file, const files::SwapRecord& record) {
  auto lock = parse_lock_json(record.text, file.string());
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  // read_swap_record and parse_lock_json have applied the strict checks (one
  // document, no duplicate names, bounded depth) to this same text.
  const nlohmann::json doc = nlohmann::json::parse(record.text, nullptr, /*allow_exceptions=*/false);
  PendingPlacement p;
  const auto text_of = [&](const char* key) -> std::string {
    const auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string action = text_of("pending");
  if (action == audit_action_name(AuditAction::install)) {
    p.action = AuditAction::install;
  } else if (action == audit_action_name(AuditAction::update)) {
    p.action = AuditAction::update;
  } else {
    return fail(ErrorCode::parse_error, file.string() + " has the unknown pending action \"" + action + "\"");
  }
  p.name = text_of("name");
  p.staged = record.staged;
  p.target = record.target;
  p.backup = record.backup;
  const auto entry = lock->installed.find(p.name);
  if (p.name.empty() || entry == lock->installed.end()) {
    return fail(ErrorCode::parse_error, file.string() + " is not a complete pending record");
  }
  p.entry = entry->second;
  if (auto ok = check_record_paths(paths, file, p); !ok) {
    return tl::unexpected(ok.error());
  }
  return p;
}

Result<void> record_lock_entry(const HubPaths& paths, const std::string& name, const LockEntry& entry) {
  auto lock = read_lock_file(paths.lock_json);
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  lock->installed[name] = entry;
  return write_lock_file(paths.lock_json, *lock);
}

} // namespace

fs::path pending_record_path(const HubPaths& paths, const std::string& name) {
  return paths.pending / (name + ".json");
}

Result<void> write_pending_record(const HubPaths& paths, const PendingPlacement& placement) {
  const files::FolderSwap swap = swap_of(paths, placement, !placement.backup.empty());
  return write_file_atomic(swap.record, files::render_swap_record(swap, placement.backup));
}

Result<void> commit_placement(const HubPaths& paths, PendingPlacement p, bool replace) {
  std::error_code ec;
  fs::create_directories(p.target.parent_path(), ec);
  if (ec) {
    return fail(ErrorCode::io_error, "Cannot create " + p.target.parent_path().string() + ": " + ec.message());
  }
  files::FolderSwap swap = swap_of(paths, p, replace);
  return files::swap_folder(swap, [&]() { return record_lock_entry(paths, p.name, p.entry); });
}

std::vector<RecoveryNote> recover_pending(const HubPaths& paths) {
  std::vector<RecoveryNote> notes;
  std::error_code ec;
  for (const fs::path& file : files::list_swap_records(paths.pending)) {
    RecoveryNote note;
    note.name = file.stem().string();
    auto record = files::read_swap_record(file);
    Result<PendingPlacement> p = record ? placement_of(paths, file, *record) : tl::unexpected(record.error());
    if (!p) {
      // An atomic write never leaves half a record; anything else here is not ours to act on.
      note.message = "ignored an unreadable pending record " + file.string() + ": " + p.error().message;
      fs::remove(file, ec);
      notes.push_back(std::move(note));
      continue;
    }
    note.name = p->name;
    note.action = p->action;
    note.target = p->target;
    // Finishing records the lock entry, but only for the folder the placement
    // put there: its content must be what the record says it placed.
    const auto finish = [&]() -> Result<void> {
      if (auto placed = bundle_content_hash(p->target); !placed || *placed != p->entry.content_hash) {
        return fail(ErrorCode::refused, p->target.string() + " is not the folder the interrupted " +
                                            audit_action_name(p->action) + " placed");
      }
      return record_lock_entry(paths, p->name, p->entry);
    };
    auto recovered = files::recover_folder_swap(*record, finish);
    if (!recovered) {
      note.message = std::string("could not finish or undo the interrupted ") + audit_action_name(p->action) + " of '" +
                     p->name + "': " + recovered.error().message + " (the record is kept for the next command)";
      notes.push_back(std::move(note));
      continue;
    }
    if (*recovered == files::SwapRecovery::finished) {
      note.completed = true;
      note.message = std::string("finished the interrupted ") + audit_action_name(p->action) + " of '" + p->name + "'";
      (void)append_audit_line(paths.audit_log, {p->action, p->name, p->entry.identifier, p->entry.trust_level,
                                                p->entry.scan_verdict, p->entry.content_hash + " recovered"});
    } else {
      note.message = std::string("undid the interrupted ") + audit_action_name(p->action) + " of '" + p->name +
                     "'; nothing of it was installed";
    }
    notes.push_back(std::move(note));
  }
  (void)files::fsync_dir(paths.pending);
  return notes;
}

} // namespace skillrt::core::hub
