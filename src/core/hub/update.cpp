// Updating hub-installed skills (see update.hpp).
#include "core/hub/update.hpp"

#include <map>
#include <system_error>

#include "core/files/pristine.hpp"
#include "core/files/runtime_cache.hpp"
#include "core/hub/audit_log.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/hub_events.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/placement.hpp"
#include "core/hub/quarantine.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/manage/skill_lock.hpp"

namespace skillrt::core::hub {

namespace fs = std::filesystem;

UpdateOutcome update_skills(const Context& ctx, const Config& config, Fetcher& fetcher, const UpdateRequest& request,
                            Progress* progress) {
  UpdateOutcome out;
  auto session = open_hub_session(ctx, request.shared, Operation::update);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.recovered = session->recovered;
  LockFile* lock = &session->lock_file;
  if (request.name && lock->installed.find(*request.name) == lock->installed.end()) {
    out.error = Error{ErrorCode::not_found, "'" + *request.name + "' is not a hub-installed skill", {}};
    return out;
  }
  std::map<std::string, Result<FetchedBundle>> fetched;
  const LockFile snapshot = *lock; // iterate a copy: entries are rewritten as skills update
  std::size_t done = 0;
  for (const auto& [name, entry] : snapshot.installed) {
    if (request.name && name != *request.name) {
      continue;
    }
    if (progress != nullptr) {
      progress->update("fetch", done++, snapshot.installed.size());
    }
    UpdateReport report;
    report.name = name;
    report.old_hash = entry.content_hash;
    auto target = recorded_target(paths, name, entry);
    if (!target) {
      report.status = UpdateStatus::failed;
      report.reason = target.error().message;
      out.skills.push_back(std::move(report));
      continue;
    }
    std::error_code ec;
    const bool present = fs::is_directory(fs::symlink_status(*target, ec));
    if (present) {
      const bool modified = !files::is_pristine(bundle_content_hash(*target), entry.content_hash);
      if (modified && !request.force) {
        report.status = UpdateStatus::skipped_modified;
        report.reason = "'" + name +
                        "' was changed on disk since it was installed; use --force to replace the local "
                        "changes";
        out.skills.push_back(std::move(report));
        continue;
      }
    }
    if (entry.source_spec.empty()) {
      report.status = UpdateStatus::unavailable;
      report.reason = "no source recorded for '" + name + "'";
      out.skills.push_back(std::move(report));
      continue;
    }
    auto it = fetched.find(entry.source_spec);
    if (it == fetched.end()) {
      it = fetched.emplace(entry.source_spec, fetch_into_quarantine(paths, fetcher, entry.source_spec, progress)).first;
    }
    if (!it->second) {
      report.status = UpdateStatus::unavailable;
      report.reason = it->second.error().message;
      out.skills.push_back(std::move(report));
      continue;
    }
    FetchedBundle& bundle = *it->second;
    const StagedSkill* staged = nullptr;
    for (const StagedSkill& s : bundle.skills) {
      staged = s.name == name ? &s : staged;
    }
    if (staged == nullptr) {
      report.status = UpdateStatus::unavailable;
      report.reason = "the source no longer holds a skill named '" + name + "'";
      out.skills.push_back(std::move(report));
      continue;
    }
    JudgeOptions options;
    options.identifier = bundle.source.identifier;
    options.trust = entry.trust_level; // the trust it was installed at
    options.require_signature = request.require_signature;
    options.config = &config;
    options.home = ctx.home;
    Judgement judgement = judge_skill(staged->dir, options);
    report.new_hash = judgement.manifest ? judgement.manifest->content_hash : std::string();
    if (present && report.new_hash == entry.content_hash && !report.new_hash.empty()) {
      // Upstream is what was installed (a forced update of a modified skill puts it back).
      if (files::is_pristine(bundle_content_hash(*target), entry.content_hash)) {
        report.status = UpdateStatus::up_to_date;
        out.skills.push_back(std::move(report));
        continue;
      }
    }
    // Runtime caches are not content: the diff leaves them out as the manifest does.
    report.diff = diff::diff_trees(present ? *target : fs::path(), staged->dir, files::is_runtime_cache);
    if (!judgement.allowed) {
      report.status = UpdateStatus::blocked;
      report.reason = judgement.reason;
      (void)append_audit_line(paths.audit_log,
                              {AuditAction::blocked, name, bundle.source.identifier,
                               judgement.scan ? std::optional(judgement.scan->trust) : entry.trust_level,
                               judgement.scan ? std::optional(judgement.scan->verdict) : std::nullopt,
                               judgement.reason});
      report.judgement = std::move(judgement);
      out.skills.push_back(std::move(report));
      continue;
    }
    if (request.dry_run) {
      report.status = UpdateStatus::would_update;
      report.reason = judgement.reason;
      report.judgement = std::move(judgement);
      out.skills.push_back(std::move(report));
      continue;
    }
    LockEntry new_entry =
        make_lock_entry(bundle.source, entry.source_spec, judgement, entry.install_path, entry.installed_at);
    auto skill_lock = SkillLock::acquire(ctx, *target); // never across a skill_manage write
    if (!skill_lock) {
      report.status = UpdateStatus::failed;
      report.reason = skill_lock.error().message;
      out.skills.push_back(std::move(report));
      continue;
    }
    LedgerFolderRecord record(
        ctx, LedgerWho{LedgerActor::hub, "", LedgerAction::update, paths.layer, "from " + bundle.source.identifier},
        paths.root, *target, present);
    PendingPlacement placement{name, AuditAction::update, staged->dir, *target, {}, new_entry};
    if (auto ok = commit_placement(paths, std::move(placement), present); !ok) {
      report.status = UpdateStatus::failed;
      report.reason = ok.error().message;
      report.judgement = std::move(judgement);
      out.skills.push_back(std::move(report));
      continue;
    }
    if (auto warning = record.commit()) {
      judgement.warnings.push_back(std::move(*warning));
    }
    (void)append_audit_line(paths.audit_log,
                            {AuditAction::update, name, new_entry.identifier, new_entry.trust_level, new_entry.scan_verdict,
                             entry.content_hash + "->" + new_entry.content_hash});
    announce_change(ctx, paths, present ? ChangeKind::updated : ChangeKind::created, name, *target);
    report.status = UpdateStatus::updated;
    report.reason = judgement.reason;
    report.judgement = std::move(judgement);
    out.skills.push_back(std::move(report));
  }
  out.success = true;
  for (const UpdateReport& r : out.skills) {
    out.success = out.success && (r.status != UpdateStatus::blocked && r.status != UpdateStatus::unavailable &&
                                          r.status != UpdateStatus::failed);
  }
  return out;
}

const char* update_status_name(UpdateStatus status) {
  switch (status) {
    case UpdateStatus::updated:
      return "updated";
    case UpdateStatus::would_update:
      return "would_update";
    case UpdateStatus::up_to_date:
      return "up_to_date";
    case UpdateStatus::skipped_modified:
      return "skipped_modified";
    case UpdateStatus::blocked:
      return "blocked";
    case UpdateStatus::unavailable:
      return "unavailable";
    case UpdateStatus::failed:
      return "failed";
  }
  return "unknown";
}

} // namespace skillrt::core::hub
