// File skills' rollbacks under the skill's writer lock (ledger_rollback.hpp).
#include "core/manage/ledger_rollback.hpp"

#include "core/manage/folder_owners.hpp"

#include <system_error>

#include "core/events/event_bus.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/manage/skill_lock.hpp"
#include "core/manage/stray_temp_cleanup.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/tenancy/permissions.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

// What the rollback does to the skill, for the permission matrix.
Operation operation_of(const LedgerEntry& undone) {
  if (!undone.before) {
    return Operation::remove; // the entry created it: the rollback deletes it
  }
  if (!undone.after) {
    return Operation::create;
  }
  return Operation::update;
}

} // namespace

Result<LedgerRollback> rollback_skill_change(const Context& ctx, const Config& cfg, const Ledger& ledger,
                                             std::string_view id, const LedgerRollbackOptions& options) {
  SKILLRT_TRY_ASSIGN(const LedgerEntry undone, find_ledger_entry(ledger, id));
  if (undone.layer == Layer::database) {
    return fail(ErrorCode::refused, "ledger entry " + undone.id + " is about the database skill '" + undone.skill +
                                        "'; database skills are rolled back through the database");
  }
  SKILLRT_TRY(check_permission(ctx, operation_of(undone), undone.layer, ledger.owner));
  SKILLRT_TRY_ASSIGN(const fs::path folder, ledger_entry_folder(undone));

  // Only into a root the layer has now: an entry (or an edited one) never
  // leads a write anywhere else.
  bool root_known = false;
  for (const Root& root : layer_roots(manage_catalog(ctx, cfg), undone.layer)) {
    root_known = root_known || root.path == fs::path(undone.root);
  }
  if (!root_known) {
    return fail(ErrorCode::refused, "ledger entry " + undone.id + " is about " + folder.string() + ", but " +
                                        undone.root + " is not a skills root of the " + layer_name(undone.layer) +
                                        " layer now");
  }
  SKILLRT_TRY(check_folder_owner(ctx, cfg, folder.lexically_relative(fs::path(undone.root)).generic_string()));

  std::vector<std::string> warnings;
  for (const PendingLedgerRollback& pending : pending_ledger_rollbacks(ledger)) {
    if (pending.target.empty() || pending.target.lexically_normal() == folder) {
      continue; // unreadable (verify reports it), or ours: recovered under our lock below
    }
    auto lock = SkillLock::acquire(ctx, pending.target);
    auto recovered = lock ? recover_ledger_rollback(ledger, pending.record)
                          : Result<files::SwapRecovery>(tl::unexpected(lock.error()));
    if (!recovered) {
      warnings.push_back("an interrupted rollback of " + pending.target.string() +
                         " could not be recovered: " + recovered.error().message);
    }
  }

  SKILLRT_TRY_ASSIGN(const SkillLock lock, SkillLock::acquire(ctx, folder));
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(folder, ec))) {
    remove_stray_temps(folder); // no live writer owns one under the lock
  }
  SKILLRT_TRY_ASSIGN(LedgerRollback done, rollback_folder_entry(ledger, undone, options));
  invalidate_skill_caches(ctx);

  SkillEvent event;
  event.kind = !undone.before ? ChangeKind::deleted : (!done.entry.before ? ChangeKind::created : ChangeKind::updated);
  event.layer = undone.layer;
  event.owner = ledger.owner;
  event.name = folder.filename().string();
  event.location = (folder / "SKILL.md").string();
  publish_change(ctx, std::move(event));
  done.warnings.insert(done.warnings.begin(), warnings.begin(), warnings.end());
  return done;
}

} // namespace skillrt::core
