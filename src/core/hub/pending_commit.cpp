// Crash-safe placement with pending records (see pending_commit.hpp).
#include "core/validate/skill_name.hpp"
#include "core/hub/pending_commit.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files/fsync_dir.hpp"
#include "core/files/rename.hpp"
#include "core/hub/audit_log.hpp"
#include "core/hub/placement.hpp"
#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/path_within.hpp"
#include "core/files/read_file.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

bool exists_no_follow(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0;
}

bool non_empty_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(p, ec)) && !fs::is_empty(p, ec) && !ec;
}

// The record: a lock file holding the one entry, plus where things are.
std::string render_record(const PendingPlacement& p) {
  LockFile single;
  single.installed.emplace(p.name, p.entry);
  const std::string lock_text = render_lock_json(single);
  std::string out = "{\n";
  out += "  \"pending\": " + json_quoted(audit_action_name(p.action)) + ",\n";
  out += "  \"name\": " + json_quoted(p.name) + ",\n";
  out += "  \"staged\": " + json_quoted(p.staged.string()) + ",\n";
  out += "  \"target\": " + json_quoted(p.target.string()) + ",\n";
  out += "  \"backup\": " + json_quoted(p.backup.string()) + ",\n";
  out += lock_text.substr(2); // the lock object's members, after its "{\n"
  return out;
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

Result<PendingPlacement> read_record(const HubPaths& paths, const fs::path& file) {
  auto text = read_regular_file(file, limits::k_max_hub_state_bytes);
  if (!text) {
    return tl::unexpected(text.error());
  }
  auto lock = parse_lock_json(*text, file.string());
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  // parse_lock_json above has already applied the strict checks (one
  // document, no duplicate names, bounded depth) to this same text.
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return fail(ErrorCode::parse_error, file.string() + " is not a JSON object");
  }
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
  p.staged = text_of("staged");
  p.target = text_of("target");
  p.backup = text_of("backup");
  const auto entry = lock->installed.find(p.name);
  if (p.name.empty() || p.staged.empty() || p.target.empty() || entry == lock->installed.end()) {
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

Result<void> rename_path(const fs::path& from, const fs::path& to) {
  return files::move_durably(from, to, files::Replace::allow);
}

} // namespace

fs::path pending_record_path(const HubPaths& paths, const std::string& name) {
  return paths.pending / (name + ".json");
}

Result<void> write_pending_record(const HubPaths& paths, const PendingPlacement& placement) {
  return write_file_atomic(pending_record_path(paths, placement.name), render_record(placement));
}

Result<void> commit_placement(const HubPaths& paths, PendingPlacement p, bool replace) {
  std::error_code ec;
  if (replace) {
    // An empty folder reserved by mkdtemp, which rename(2) replaces atomically.
    std::string tmpl = (paths.trash / (p.name + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) {
      return fail(ErrorCode::io_error, "Cannot reserve a trash folder in " + paths.trash.string() + ": " +
                                           std::generic_category().message(errno));
    }
    p.backup = tmpl;
  }
  if (auto ok = write_pending_record(paths, p); !ok) {
    if (!p.backup.empty()) {
      fs::remove(p.backup, ec);
    }
    return ok;
  }
  const fs::path record = pending_record_path(paths, p.name);
  // Back to the state before the call. When that fails too, the record stays
  // so the next hub command (recover_pending) finishes the job.
  const auto give_up = [&](Error error) -> Result<void> {
    bool clean = true;
    if (!p.backup.empty() && non_empty_dir(p.backup)) {
      clean = !exists_no_follow(p.target) && rename_path(p.backup, p.target).has_value();
    }
    if (clean) {
      if (!p.backup.empty()) {
        fs::remove(p.backup, ec); // empty by now
      }
      fs::remove(record, ec);
    }
    return tl::unexpected(std::move(error));
  };
  fs::create_directories(p.target.parent_path(), ec);
  if (ec) {
    return give_up(
        Error{ErrorCode::io_error, "Cannot create " + p.target.parent_path().string() + ": " + ec.message(), {}});
  }
  if (replace) {
    if (auto ok = rename_path(p.target, p.backup); !ok) {
      return give_up(ok.error());
    }
  }
  if (auto ok = rename_path(p.staged, p.target); !ok) {
    return give_up(ok.error());
  }
  if (auto ok = record_lock_entry(paths, p.name, p.entry); !ok) {
    // Undo the placement so the root and lock.json keep agreeing; if even
    // that fails, the kept record lets the next command record the placement.
    if (!rename_path(p.target, p.staged)) {
      return tl::unexpected(ok.error());
    }
    return give_up(ok.error());
  }
  fs::remove(record, ec);
  (void)files::fsync_dir(paths.pending);
  if (!p.backup.empty()) {
    fs::remove_all(p.backup, ec); // a leftover is removed by the next operation
  }
  return {};
}

std::vector<RecoveryNote> recover_pending(const HubPaths& paths) {
  std::vector<RecoveryNote> notes;
  std::error_code ec;
  std::vector<fs::path> records;
  for (fs::directory_iterator it(paths.pending, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string leaf = it->path().filename().string();
    if (!leaf.empty() && leaf.front() != '.') { // dot files are temps of killed writes, not records
      records.push_back(it->path());
    }
  }
  for (const fs::path& file : records) {
    RecoveryNote note;
    note.name = file.stem().string();
    auto p = read_record(paths, file);
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
    const bool staged_present = exists_no_follow(p->staged);
    const bool target_present = exists_no_follow(p->target);
    const bool backup_full = !p->backup.empty() && non_empty_dir(p->backup);
    if (!staged_present && target_present && fs::exists(p->target / "SKILL.md", ec)) {
      // The rename happened: finish by recording it.
      if (auto ok = record_lock_entry(paths, p->name, p->entry); !ok) {
        note.message = std::string("could not finish the interrupted ") + audit_action_name(p->action) + " of '" + p->name +
                       "': " + ok.error().message + " (the record is kept for the next command)";
        notes.push_back(std::move(note));
        continue;
      }
      note.completed = true;
      note.message = std::string("finished the interrupted ") + audit_action_name(p->action) + " of '" + p->name + "'";
      (void)append_audit_line(paths.audit_log, {p->action, p->name, p->entry.identifier, p->entry.trust_level,
                                                p->entry.scan_verdict, p->entry.content_hash + " recovered"});
    } else {
      // The rename did not happen: put a replaced install back.
      if (backup_full && (target_present || !rename_path(p->backup, p->target))) {
        note.message = "could not put back the install of '" + p->name + "' from " + p->backup.string() +
                       " (the record is kept for the next command)";
        notes.push_back(std::move(note));
        continue;
      }
      note.message = std::string("undid the interrupted ") + audit_action_name(p->action) + " of '" + p->name + "'; nothing of it was installed";
    }
    if (!p->backup.empty()) {
      fs::remove_all(p->backup, ec);
    }
    fs::remove(file, ec);
    notes.push_back(std::move(note));
  }
  (void)files::fsync_dir(paths.pending);
  return notes;
}

} // namespace skillrt::core::hub
