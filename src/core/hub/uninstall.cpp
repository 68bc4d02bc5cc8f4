// Uninstalling a hub-installed skill (see uninstall.hpp).
#include "core/validate/skill_name.hpp"
#include "core/hub/uninstall.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <system_error>

#include "core/hub/audit_log.hpp"
#include "core/hub/hub_events.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/placement.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/manage/skill_lock.hpp"

namespace skillrt::core::hub {

namespace fs = std::filesystem;

UninstallOutcome uninstall_skill(const Context& ctx, const std::string& name, bool shared) {
  UninstallOutcome out;
  out.name = name;
  if (auto ok = check_skill_name(name, SkillNameRule::install); !ok) {
    out.error = ok.error();
    return out;
  }
  auto session = open_hub_session(ctx, shared, Operation::remove);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.recovered = session->recovered;
  LockFile* lock = &session->lock_file;
  const auto found = lock->installed.find(name);
  if (found == lock->installed.end()) {
    out.error = Error{ErrorCode::not_found,
                      "'" + name +
                          "' is not a hub-installed skill (it may be bundled or your own); uninstall removes "
                          "only what `skillrt install` put in " +
                          paths.root.string(),
                      {}};
    return out;
  }
  const LockEntry entry = found->second;
  auto target = recorded_target(paths, name, entry);
  if (!target) {
    out.error = Error{ErrorCode::refused, "Refusing to uninstall '" + name + "': " + target.error().message, {}};
    return out;
  }
  out.path = *target;
  struct stat st {};
  const bool present = ::lstat(target->c_str(), &st) == 0;
  if (present && !S_ISDIR(st.st_mode)) {
    out.error = Error{
        ErrorCode::refused, "Refusing to uninstall '" + name + "': " + target->string() + " is not a directory", {}};
    return out;
  }
  auto skill_lock = SkillLock::acquire(ctx, *target); // never across a skill_manage write
  if (!skill_lock) {
    out.error = skill_lock.error();
    return out;
  }
  std::optional<LedgerFolderRecord> record;
  std::optional<std::string> ledger_warning;
  if (present) {
    record.emplace(ctx, LedgerWho{LedgerActor::hub, "", LedgerAction::uninstall, paths.layer, entry.identifier},
                   paths.root, *target, true);
    std::string trash = (paths.trash / (name + "-XXXXXX")).string();
    if (::mkdtemp(trash.data()) == nullptr || ::rename(target->c_str(), trash.c_str()) != 0) {
      out.error = Error{
          ErrorCode::io_error, "Cannot remove " + target->string() + ": " + std::generic_category().message(errno), {}};
      return out;
    }
    std::error_code ec;
    fs::remove_all(trash, ec); // a leftover is removed by the next hub command
    ledger_warning = record->commit(/*removed=*/true); // the skill is gone: that is the change
  }
  lock->installed.erase(name);
  if (auto ok = write_lock_file(paths.lock_json, *lock); !ok) {
    out.error = ok.error();
    return out;
  }
  (void)append_audit_line(paths.audit_log,
                          {AuditAction::uninstall, name, entry.identifier, entry.trust_level, std::nullopt, "user_request"});
  announce_change(ctx, paths, ChangeKind::deleted, name, *target);
  out.success = true;
  out.message = present ? "Uninstalled '" + name + "' from " + target->string() + "."
                        : "'" + name + "' was already gone from " + target->string() + "; its lock entry is removed.";
  if (ledger_warning) {
    out.message += " Warning: " + *ledger_warning;
  }
  return out;
}

} // namespace skillrt::core::hub
