// Opening a hub operation (see hub_session.hpp).
#include "core/hub/hub_session.hpp"

#include <system_error>

#include "core/events/event_bus.hpp"
#include "core/hub/hub_events.hpp"
#include "core/hub/quarantine.hpp"

namespace skillrt::core::hub {
namespace {

// Records only: temp files of killed atomic writes start with '.'.
bool has_pending_records(const HubPaths& paths) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(paths.pending, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string leaf = it->path().filename().string();
    if (!leaf.empty() && leaf.front() != '.') {
      return true;
    }
  }
  return false;
}

} // namespace

Result<HubSession> open_hub_session(const Context& ctx, bool shared, Operation op, HubTarget target) {
  auto paths = resolve_hub_paths(ctx, shared, op, target);
  if (!paths) {
    return tl::unexpected(paths.error());
  }
  const bool may_write = op != Operation::read || check_permission(ctx, Operation::update, paths->layer, paths->owner);
  if (!may_write) {
    auto lock_file = read_lock_file(paths->lock_json);
    if (!lock_file) {
      return tl::unexpected(lock_file.error());
    }
    return HubSession{std::move(*paths), std::nullopt, {}, std::move(*lock_file)};
  }
  if (auto ok = ensure_hub_dirs(*paths); !ok) {
    return tl::unexpected(ok.error());
  }
  auto lock = HubOperationLock::acquire(*paths);
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  HubSession session{std::move(*paths), std::move(*lock), {}, {}};
  session.recovered = recover_pending(session.paths);
  for (const RecoveryNote& note : session.recovered) {
    if (note.completed) {
      announce_change(ctx, session.paths, note.action == AuditAction::update ? ChangeKind::updated : ChangeKind::created,
                      note.name, note.target);
    }
  }
  // A record recovery had to keep may still point into quarantine or trash.
  if (!has_pending_records(session.paths)) {
    remove_stale_quarantine(session.paths);
  }
  auto lock_file = read_lock_file(session.paths.lock_json);
  if (!lock_file) {
    return tl::unexpected(lock_file.error());
  }
  session.lock_file = std::move(*lock_file);
  return session;
}

} // namespace skillrt::core::hub
