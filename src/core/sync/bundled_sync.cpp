// The bundled skills sync (see bundled_sync.hpp; spec §2.13 rules 4-9).
//
// Copies, updates and restores are the one folder swap of core/files
// (folder_swap.hpp). Work names inside HOME/skills start with `.skillrt-` so
// the walker (which prunes `.skillrt-*`) never lists a half-copied skill or a
// backup:
//   <category>/.skillrt-sync-new-<name>-<pid>      a copy being staged
//   <category>/.skillrt-sync-old-<name>-XXXXXX     the previous copy during an update
//   .skillrt-bundled-pending/<name>.json           the swap's record while it runs
//   <category>/.skillrt-sync-bak-<name>            an update's backup before the
//                                                  swap (still recovered when found)
#include "core/sync/bundled_sync.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/discovery/roots.hpp"
#include "core/files/folder_swap.hpp"
#include "core/files/read_file.hpp"
#include "core/files/rename.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/limits.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_set.hpp"
#include "core/sync/copy_state.hpp"
#include "core/sync/copy_tree.hpp"
#include "core/sync/dir_hash.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/sync/shared_skill_event.hpp"
#include "core/sync/skill_index.hpp"
#include "core/sync/sync_lock.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/util/strict_json.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_staging_prefix = ".skillrt-sync-new-";
constexpr std::string_view k_legacy_backup_prefix = ".skillrt-sync-bak-";
constexpr std::string_view k_backup_prefix = ".skillrt-sync-old-";
constexpr std::string_view k_journal_dir = ".skillrt-bundled-pending";

// The backup of an update made before updates were swaps (no record).
fs::path backup_path(const fs::path& dest) {
  return dest.parent_path() / (std::string(k_legacy_backup_prefix) + dest.filename().string());
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

fs::path staging_path(const fs::path& dest) {
  return dest.parent_path() /
         (std::string(k_staging_prefix) + dest.filename().string() + "-" + std::to_string(::getpid()));
}

bool exists_no_follow(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

Result<void> move_no_replace(const fs::path& from, const fs::path& to) {
  return files::move_durably(from, to, files::Replace::refuse);
}

class SyncRun {
public:
  SyncRun(const Context& ctx, const Config& cfg, const SyncOptions& options, SyncResult& out)
      : m_ctx(ctx), m_cfg(cfg), m_options(options), m_out(out) {}

  Result<void> run();

private:
  Result<void> prepare_roots();
  void discover_bundled();
  void index_external_names();
  void index_hub_paths();
  void sync_one(const BundledSkill& skill);
  bool path_has_symlink(const fs::path& dest) const { return goes_through_symlink(dest, m_root); }
  bool recover_backup(const BundledSkill& skill, const fs::path& dest, bool& dest_exists);
  void recover_swaps();
  Result<void> check_swap_record(const files::SwapRecord& record, const std::string& name) const;
  fs::path swap_record_path(const std::string& name) const { return m_root / k_journal_dir / (name + ".json"); }
  bool try_relocate(const BundledSkill& skill, const fs::path& dest, const std::string& origin);
  void handle_shadowed(const BundledSkill& skill, const fs::path& dest, bool dest_exists);
  void copy_new(const BundledSkill& skill, const fs::path& dest);
  void replace_with_bundled(const BundledSkill& skill, const fs::path& dest);
  void clean_manifest();
  void copy_descriptions();
  std::optional<std::string> hash_or_error(const std::string& name, const fs::path& dir);
  Result<void> stage_copy(const BundledSkill& skill, const fs::path& dest, fs::path& staged);
  void remove_stale_staging(const fs::path& dest);
  void record(const std::string& name, const std::string& hash);
  void publish(ChangeKind kind, const std::string& name, const fs::path& dir);
  // The ledger record of one change to `dest` (the shared ledger: actor sync).
  LedgerFolderRecord ledger_record(const BundledSkill& skill, const fs::path& dest, LedgerAction action, bool exists);
  void ledger_commit(LedgerFolderRecord& record);

  const Context& m_ctx;
  const Config& m_cfg;
  const SyncOptions& m_options;
  SyncResult& m_out;

  fs::path m_root;           // HOME/skills as spelt by the context
  fs::path m_root_canonical; // the same, resolved
  fs::path m_bundled;        // the bundled folder, resolved
  BundledManifest m_manifest;
  bool m_manifest_dirty = false;
  bool m_bundled_complete = true; // every bundled SKILL.md could be read
  std::vector<BundledSkill> m_bundled_skills;
  std::set<std::string> m_bundled_names; // every name seen in the bundled folder, usable or not
  std::set<std::string> m_external_names;
  SkillIndex m_local;
  std::set<fs::path> m_hub_paths;
  bool m_hub_lock_unreadable = false;
  bool m_changed = false;
  bool m_opt_out = false;
  std::set<std::string> m_unrecovered; // skills whose swap record had to stay: left alone this run
};

Result<void> SyncRun::prepare_roots() {
  std::error_code ec;
  if (auto bundled = resolve_bundled_dir(m_options.bundled_dir, m_ctx.skills_dir()); !bundled) {
    return tl::unexpected(bundled.error()); // checked before HOME/skills is created
  }
  m_root = m_ctx.skills_dir();
  fs::create_directories(m_root, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + m_root.string() + ": " + ec.message());
  }
  m_root_canonical = fs::canonical(m_root, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot resolve " + m_root.string() + ": " + ec.message());
  }
  auto bundled = resolve_bundled_dir(m_options.bundled_dir, m_root); // now the overlap check always applies
  if (!bundled) {
    return tl::unexpected(bundled.error());
  }
  m_bundled = std::move(*bundled);
  m_out.bundled_dir = m_bundled;
  return {};
}

void SyncRun::discover_bundled() {
  BundledSet found = discover_bundled_skills(m_bundled);
  m_out.errors.insert(m_out.errors.end(), found.problems.begin(), found.problems.end());
  m_bundled_complete = found.complete;
  m_bundled_names = std::move(found.names);
  m_bundled_skills = std::move(found.skills);
  m_out.total_bundled = m_bundled_skills.size();
}

void SyncRun::index_external_names() {
  // Only the external tier matters here: a plain (user-less) context, and no
  // project discovery, so nothing per-user is created and no git runs.
  Context plain = m_ctx;
  plain.user_id.reset();
  plain.anonymous = false;
  plain.events = nullptr;
  SkillsConfig skills = m_cfg.skills;
  skills.project_discovery = false;
  const RootSet set = compute_roots(plain, skills);
  WalkLimits limits = default_walk_limits();
  if (set.users_dir) {
    limits.per_user_dirs.push_back(set.users_dir->string());
  }
  for (const Root& root : set.roots) {
    limits.allowed_dirs.push_back(root.path.string());  // what the listing follows, so the same names
  }
  for (const Root& root : set.roots) {
    if (root.tier != Tier::external) {
      continue;
    }
    for (const IndexedSkill& skill : index_skills(root.path, limits).skills) {
      m_external_names.insert(skill.name);
    }
  }
}

void SyncRun::index_hub_paths() {
  // A skill the hub installed is the hub's to move, never ours.
  const fs::path lock_json = m_root / ".hub" / "lock.json";
  if (!exists_no_follow(lock_json)) {
    return;
  }
  auto text = read_regular_file(lock_json, limits::k_max_hub_state_bytes);
  // The hub's reader lives above us (hub uses sync); the same strict
  // policy, then only the one field we need.
  if (!text || !check_strict_json(*text, limits::k_max_state_json_depth)) {
    m_hub_lock_unreadable = true;
    return;
  }
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  const auto installed = doc.is_object() ? doc.find("installed") : doc.end();
  if (!doc.is_object() || installed == doc.end() || !installed->is_object()) {
    m_hub_lock_unreadable = true;
    return;
  }
  for (const auto& item : installed->items()) {
    const nlohmann::json& entry = item.value();
    if (!entry.is_object()) {
      continue;
    }
    const auto path = entry.find("install_path");
    if (path != entry.end() && path->is_string() && !path->get_ref<const std::string&>().empty()) {
      m_hub_paths.insert((m_root / path->get<std::string>()).lexically_normal());
    }
  }
}

std::optional<std::string> SyncRun::hash_or_error(const std::string& name, const fs::path& dir) {
  auto hash = skill_dir_hash(dir);
  if (!hash) {
    m_out.errors.push_back(name + ": cannot hash " + dir.string() + ", left as it is: " + hash.error().message);
    return std::nullopt;
  }
  return *hash;
}

void SyncRun::record(const std::string& name, const std::string& hash) {
  auto it = m_manifest.find(name);
  if (it == m_manifest.end() || it->second != hash) {
    m_manifest[name] = hash;
    m_manifest_dirty = true;
  }
}

void SyncRun::publish(ChangeKind kind, const std::string& name, const fs::path& dir) {
  m_changed = true;
  publish_shared_skill_change(m_ctx, kind, name, dir);
}

void SyncRun::remove_stale_staging(const fs::path& dest) {
  // Staging folders of a sync that died: we hold the lock, so none is live.
  const std::string prefix = std::string(k_staging_prefix) + dest.filename().string() + "-";
  std::error_code ec;
  for (auto it = fs::directory_iterator(dest.parent_path(), ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0) {
      if (auto removed = remove_skill_tree(it->path(), m_root); !removed) {
        m_out.warnings.push_back("cannot remove the leftover " + it->path().string() + ": " + removed.error().message);
      }
    }
  }
}

Result<void> SyncRun::stage_copy(const BundledSkill& skill, const fs::path& dest, fs::path& staged) {
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + dest.parent_path().string() + ": " + ec.message());
  }
  remove_stale_staging(dest);
  staged = staging_path(dest);
  return copy_skill_tree(skill.dir, staged);
}

void SyncRun::copy_new(const BundledSkill& skill, const fs::path& dest) {
  fs::path staged;
  if (auto copied = stage_copy(skill, dest, staged); !copied) {
    m_out.errors.push_back(skill.name + ": not copied (retried next sync): " + copied.error().message);
    return;
  }
  LedgerFolderRecord ledger =
      ledger_record(skill, dest, m_options.restore == skill.name ? LedgerAction::reset : LedgerAction::sync, false);
  // A first copy replaces nothing, so it needs no record: one no-replace rename.
  files::FolderSwap swap;
  swap.staged = staged;
  swap.target = dest;
  swap.existing = files::ExistingTarget::refuse;
  if (auto moved = files::swap_folder(swap); !moved) {
    (void)remove_skill_tree(staged, m_root);
    m_out.errors.push_back(skill.name + ": not copied (retried next sync): " + moved.error().message);
    return;
  }
  record(skill.name, skill.hash);
  ledger_commit(ledger);
  m_out.copied.push_back(skill.name);
  publish(ChangeKind::created, skill.name, dest);
}

void SyncRun::replace_with_bundled(const BundledSkill& skill, const fs::path& dest) {
  const fs::path backup = backup_path(dest);
  if (exists_no_follow(backup)) {
    m_out.errors.push_back(skill.name + ": not updated: the backup " + backup.string() +
                           " of an earlier update is still there; compare it with " + dest.string() +
                           " and remove the one you do not want");
    return;
  }
  if (m_unrecovered.count(skill.name) > 0) {
    m_out.errors.push_back(skill.name + ": not updated: the interrupted update recorded in " +
                           swap_record_path(skill.name).string() + " is not recovered yet");
    return;
  }
  fs::path staged;
  if (auto copied = stage_copy(skill, dest, staged); !copied) {
    m_out.errors.push_back(skill.name +
                           ": not updated, your copy is unchanged (retried next sync): " + copied.error().message);
    return;
  }
  std::error_code ec;
  fs::create_directories(m_root / k_journal_dir, ec);
  LedgerFolderRecord ledger =
      ledger_record(skill, dest, m_options.restore == skill.name ? LedgerAction::reset : LedgerAction::update, true);
  files::FolderSwap swap;
  swap.staged = staged;
  swap.target = dest;
  swap.backup_dir = dest.parent_path();
  swap.backup_prefix = std::string(k_backup_prefix) + dest.filename().string() + "-";
  swap.record = swap_record_path(skill.name);
  swap.extra_members = "\"name\": " + json_quoted(skill.name) + ",\n  \"bundled_hash\": " + json_quoted(skill.hash);
  swap.existing = files::ExistingTarget::back_up;
  if (auto swapped = files::swap_folder(swap); !swapped) {
    if (!exists_no_follow(swap.record)) {
      (void)remove_skill_tree(staged, m_root);
    }
    m_out.errors.push_back(skill.name +
                           ": not updated, your copy is unchanged (retried next sync): " + swapped.error().message);
    return;
  }
  record(skill.name, skill.hash);
  ledger_commit(ledger);
  m_out.updated.push_back(skill.name);
  publish(ChangeKind::updated, skill.name, dest);
}

LedgerFolderRecord SyncRun::ledger_record(const BundledSkill& skill, const fs::path& dest, LedgerAction action,
                                          bool exists) {
  // Under the sync lock, before the swap: the entry's before is the user's copy.
  return LedgerFolderRecord(
      m_ctx, LedgerWho{LedgerActor::sync, "", action, Layer::shared, "bundled " + skill.relative.generic_string()},
      m_root, dest, exists);
}

void SyncRun::ledger_commit(LedgerFolderRecord& record) {
  if (auto warning = record.commit()) {
    m_out.warnings.push_back(std::move(*warning));
  }
}

Result<void> SyncRun::check_swap_record(const files::SwapRecord& record, const std::string& name) const {
  const auto refuse = [&](const std::string& why) {
    return fail(ErrorCode::refused, record.file.string() + " is not a swap record of this sync: " + why);
  };
  if (record.file.filename() != name + ".json") {
    return refuse("its name does not match the file");
  }
  const fs::path target = record.target.lexically_normal();
  if (!target.is_absolute() || !strictly_inside(target, m_root) || goes_through_symlink(target, m_root)) {
    return refuse("the target is not a folder inside " + m_root.string());
  }
  const std::string leaf = target.filename().string();
  const fs::path staged = record.staged.lexically_normal();
  if (staged.parent_path() != target.parent_path() ||
      !starts_with(staged.filename().string(), std::string(k_staging_prefix) + leaf + "-")) {
    return refuse("the staged folder is not a staging folder beside the target");
  }
  const fs::path backup = record.backup.lexically_normal();
  if (!record.backup.empty() && (backup.parent_path() != target.parent_path() ||
                                 !starts_with(backup.filename().string(), std::string(k_backup_prefix) + leaf + "-"))) {
    return refuse("the backup folder is not a backup beside the target");
  }
  return {};
}

void SyncRun::recover_swaps() {
  std::error_code ec;
  for (const fs::path& file : files::list_swap_records(m_root / k_journal_dir)) {
    auto read = files::read_swap_record(file);
    std::string name;
    std::string bundled_hash;
    if (read) {
      const nlohmann::json doc = nlohmann::json::parse(read->text, nullptr, /*allow_exceptions=*/false);
      const auto name_it = doc.find("name");
      const auto hash_it = doc.find("bundled_hash");
      if (name_it != doc.end() && name_it->is_string() && hash_it != doc.end() && hash_it->is_string()) {
        name = name_it->get<std::string>();
        bundled_hash = hash_it->get<std::string>();
      }
    }
    Result<void> usable = read ? check_swap_record(*read, name) : Result<void>(tl::unexpected(read.error()));
    if (usable && !is_known_origin_hash(bundled_hash)) {
      usable = fail(ErrorCode::parse_error, file.string() + " does not record the bundled hash");
    }
    if (!usable) {
      // An atomic write never leaves half a record; anything else is not ours to act on.
      m_out.warnings.push_back("ignored an unusable swap record: " + usable.error().message);
      fs::remove(file, ec);
      continue;
    }
    const fs::path target = read->target;
    // Finishing records the new copy, but only when it is exactly what the swap placed.
    const auto finish = [&]() -> Result<void> {
      auto placed = skill_dir_hash(target);
      if (!placed || *placed != bundled_hash) {
        return fail(ErrorCode::refused, target.string() + " is not the copy the interrupted update placed");
      }
      return {};
    };
    auto recovered = files::recover_folder_swap(*read, finish);
    if (!recovered) {
      m_unrecovered.insert(name);
      m_out.errors.push_back(name + ": an interrupted update could not be finished or undone (the record " +
                             file.string() + " is kept for the next sync): " + recovered.error().message);
      continue;
    }
    if (*recovered == files::SwapRecovery::finished) {
      record(name, bundled_hash);
      m_out.warnings.push_back(name + ": finished an interrupted update of " + target.string());
      publish(ChangeKind::updated, name, target);
    } else {
      m_out.warnings.push_back(name + ": undid an interrupted update; " + target.string() + " is as it was");
    }
  }
}

bool SyncRun::recover_backup(const BundledSkill& skill, const fs::path& dest, bool& dest_exists) {
  const fs::path backup = backup_path(dest);
  if (!dest_exists) {
    // An update died between moving the old copy aside and putting the new one in place.
    if (auto moved = move_no_replace(backup, dest); !moved) {
      m_out.errors.push_back(skill.name +
                             ": cannot restore the backup of an interrupted update: " + moved.error().message);
      return false;
    }
    dest_exists = true;
    m_out.warnings.push_back(skill.name + ": restored " + dest.string() + " from the backup of an interrupted update");
    return true;
  }
  // Both there: an update died after the new copy was in place. Finish it only
  // when the backup is exactly what we had recorded and the copy exactly the
  // bundled version; otherwise keep both for the user to decide.
  auto origin = m_manifest.find(skill.name);
  const auto dest_hash = skill_dir_hash(dest);
  const auto backup_hash = skill_dir_hash(backup);
  if (origin != m_manifest.end() && is_known_origin_hash(origin->second) && dest_hash && backup_hash &&
      *dest_hash == skill.hash && *backup_hash == origin->second) {
    record(skill.name, skill.hash);
    if (auto removed = remove_skill_tree(backup, m_root); !removed) {
      m_out.warnings.push_back(skill.name + ": cannot remove " + backup.string() + ": " + removed.error().message);
    }
    return true;
  }
  m_out.warnings.push_back(skill.name + ": kept " + backup.string() + " (left by an interrupted update) beside " +
                           dest.string() + "; compare them and remove the one you do not want");
  return true;
}

bool SyncRun::try_relocate(const BundledSkill& skill, const fs::path& dest, const std::string& origin) {
  for (const IndexedSkill& copy : m_local.skills) {
    if (copy.name != skill.name || copy.dir.lexically_normal() == dest.lexically_normal()) {
      continue;
    }
    if (m_hub_lock_unreadable || m_hub_paths.count(copy.dir.lexically_normal()) > 0) {
      continue;
    }
    auto hash = skill_dir_hash(copy.dir);
    if (!hash) {
      continue;
    }
    if (*hash != origin) {
      m_out.warnings.push_back(skill.name + ": a changed copy at " + copy.dir.string() +
                               " was left in place (the bundled skill now lives at " + dest.string() + ")");
      continue;
    }
    std::error_code ec;
    fs::create_directories(dest.parent_path(), ec);
    if (ec || !strictly_inside(copy.dir, m_root)) {
      continue;
    }
    if (auto moved = move_no_replace(copy.dir, dest); !moved) {
      m_out.errors.push_back(skill.name + ": cannot move " + copy.dir.string() +
                             " to its new bundled path: " + moved.error().message);
      return false;
    }
    m_out.relocated.push_back(skill.name);
    publish(ChangeKind::deleted, skill.name, copy.dir);
    publish(ChangeKind::created, skill.name, dest);
    return true;
  }
  return false;
}

void SyncRun::handle_shadowed(const BundledSkill& skill, const fs::path& dest, bool dest_exists) {
  m_out.shadowed_by_external.push_back(skill.name);
  if (!dest_exists) {
    return;
  }
  const auto hash = skill_dir_hash(dest);
  if (!hash || *hash != skill.hash) {
    return; // the user's own copy: never removed
  }
  if (auto removed = remove_skill_tree(dest, m_root); !removed) {
    m_out.warnings.push_back(skill.name + ": cannot remove the stale copy " + dest.string() + ": " +
                             removed.error().message);
    return;
  }
  publish(ChangeKind::deleted, skill.name, dest);
  if (m_manifest.erase(skill.name) > 0) {
    m_manifest_dirty = true;
  }
}

void SyncRun::sync_one(const BundledSkill& skill) {
  const fs::path dest = m_root / skill.relative;
  if (path_has_symlink(dest)) {
    m_out.symlinked.push_back(skill.name);
    return;
  }
  bool dest_exists = exists_no_follow(dest);
  if (exists_no_follow(backup_path(dest)) && !recover_backup(skill, dest, dest_exists)) {
    return;
  }
  const auto entry = m_manifest.find(skill.name);
  const bool in_manifest = entry != m_manifest.end();
  if (!dest_exists && in_manifest && is_known_origin_hash(entry->second)) {
    dest_exists = try_relocate(skill, dest, entry->second);
  }
  if (m_external_names.count(skill.name) > 0) {
    handle_shadowed(skill, dest, dest_exists);
    return;
  }
  if (dest_exists && skill.name == m_options.restore) {
    replace_with_bundled(skill, dest); // `reset --restore`: the user chose the bundled version
    return;
  }
  if (!in_manifest) {
    if (!dest_exists) {
      // A skill of the same name elsewhere in the home (the user's own, or a
      // copy moved while the manifest was lost) would make the name ambiguous.
      for (const IndexedSkill& other : m_local.skills) {
        if (other.name == skill.name) {
          ++m_out.skipped;
          m_out.warnings.push_back(skill.name + ": you already have a local skill by this name at " +
                                   other.dir.string() + "; the bundled version was not installed");
          return;
        }
      }
      copy_new(skill, dest);
      return;
    }
    ++m_out.skipped;
    const auto user_hash = hash_or_error(skill.name, dest);
    if (user_hash && *user_hash == skill.hash) {
      record(skill.name, skill.hash);
    } else if (user_hash) {
      m_out.warnings.push_back(skill.name + ": you already have a local skill by this name at " + dest.string() +
                               "; the bundled version was not installed");
    }
    return;
  }
  if (!dest_exists) {
    ++m_out.skipped; // the user deleted it: never re-added (reset brings it back)
    return;
  }
  const std::string origin = entry->second;
  if (is_known_origin_hash(origin) && origin == skill.hash) {
    ++m_out.skipped;
    return;
  }
  const auto user_hash = hash_or_error(skill.name, dest);
  if (!user_hash) {
    return;
  }
  switch (judge_copy(*user_hash, origin, skill.hash)) {
  case CopyState::matches_bundled:
    // Already the bundled version (or an unknown origin proven pristine): baseline it.
    record(skill.name, skill.hash);
    ++m_out.skipped;
    return;
  case CopyState::user_modified:
    // Changed by the user, or an origin we cannot check (v1, Hermes' MD5):
    // their copy wins until `skillrt reset`.
    m_out.user_modified.push_back(skill.name);
    return;
  case CopyState::pristine:
    replace_with_bundled(skill, dest);
    return;
  }
}

void SyncRun::clean_manifest() {
  if (!m_bundled_complete) {
    m_out.warnings.push_back("manifest cleanup skipped: some bundled skills could not be read");
    return;
  }
  std::set<std::string> local_names;
  for (const IndexedSkill& skill : m_local.skills) {
    local_names.insert(skill.name);
  }
  for (auto it = m_manifest.begin(); it != m_manifest.end();) {
    const std::string& name = it->first;
    if (m_bundled_names.count(name) > 0 || local_names.count(name) > 0 ||
        exists_no_follow(m_root / ".archive" / name)) {
      ++it;
      continue;
    }
    m_out.cleaned.push_back(name);
    it = m_manifest.erase(it);
    m_manifest_dirty = true;
  }
}

void SyncRun::copy_descriptions() {
  std::set<fs::path> categories;
  for (const BundledSkill& skill : m_bundled_skills) {
    if (m_opt_out && !is_essential_skill(skill.name)) {
      continue;
    }
    fs::path category;
    const fs::path parent = skill.relative.parent_path();
    for (const fs::path& part : parent) {
      category /= part;
      categories.insert(category);
    }
  }
  for (const fs::path& category : categories) {
    const fs::path source = m_bundled / category / "DESCRIPTION.md";
    const fs::path target_dir = m_root / category;
    const fs::path target = target_dir / "DESCRIPTION.md";
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(source, ec)) || exists_no_follow(target) ||
        !fs::is_directory(fs::symlink_status(target_dir, ec)) || path_has_symlink(target_dir)) {
      continue; // absent upstream, already there (never overwritten), or no such category here
    }
    auto text = read_regular_file(source, limits::k_max_bundle_file_bytes);
    if (!text) {
      m_out.errors.push_back("cannot read " + source.string() + ": " + text.error().message);
      continue;
    }
    const fs::path temp = target_dir / ".skillrt-sync-new-DESCRIPTION.md";
    fs::remove(temp, ec);
    fs::copy_file(source, temp, fs::copy_options::none, ec);
    if (ec) {
      m_out.errors.push_back("cannot write " + target.string() + ": " + ec.message());
      fs::remove(temp, ec);
      continue;
    }
    if (auto moved = move_no_replace(temp, target); !moved) {
      fs::remove(temp, ec);
      m_out.errors.push_back("cannot write " + target.string() + ": " + moved.error().message);
      continue;
    }
    m_out.descriptions_copied.push_back((category / "DESCRIPTION.md").generic_string());
  }
}

Result<void> SyncRun::run() {
  if (auto ready = prepare_roots(); !ready) {
    return ready;
  }
  auto manifest = read_bundled_manifest(bundled_manifest_path(m_ctx));
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  m_manifest = std::move(*manifest);
  recover_swaps();
  discover_bundled();
  m_opt_out = exists_no_follow(opt_out_marker_path(m_ctx));
  m_out.skipped_opt_out = m_opt_out;
  index_external_names();
  index_hub_paths();
  m_local = index_skills(m_root, default_walk_limits());

  std::size_t done = 0;
  for (const BundledSkill& skill : m_bundled_skills) {
    if (!m_opt_out || is_essential_skill(skill.name)) {
      sync_one(skill);
    }
    if (m_options.progress != nullptr) {
      m_options.progress->update("sync", ++done, m_bundled_skills.size());
    }
  }
  if (!m_opt_out) {
    clean_manifest();
  }
  copy_descriptions();
  if (m_manifest_dirty) {
    if (auto written = write_bundled_manifest(bundled_manifest_path(m_ctx), m_manifest); !written) {
      m_out.errors.push_back(written.error().message);
    } else {
      m_out.manifest_written = true;
    }
  }
  if (m_changed) {
    invalidate_skill_caches(m_ctx);
  }
  return {};
}

} // namespace

fs::path opt_out_marker_path(const Context& ctx) {
  return ctx.home / ".no-bundled-skills";
}

bool is_essential_skill(std::string_view name) {
  return name == k_essential_skill;
}

Result<SyncResult> sync_bundled_skills_locked(const Context& ctx, const Config& cfg, const SyncOptions& options) {
  SyncResult out;
  SyncRun run(ctx, cfg, options, out);
  auto done = run.run();
  if (options.progress != nullptr) {
    options.progress->finish();
  }
  if (!done) {
    return tl::unexpected(done.error());
  }
  return out;
}

Result<SyncResult> sync_bundled_skills(const Context& ctx, const Config& cfg, const SyncOptions& options) {
  if (auto allowed = check_permission(ctx, Operation::create, Layer::shared); !allowed) {
    return tl::unexpected(allowed.error());
  }
  auto lock = SyncLock::acquire(ctx);
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return sync_bundled_skills_locked(ctx, cfg, options);
}

} // namespace skillrt::core::sync
