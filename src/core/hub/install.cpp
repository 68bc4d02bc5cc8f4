// The install pipeline (see install.hpp).
#include "core/hub/install.hpp"

#include "core/hub/audit_log.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/hub_events.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/placement.hpp"
#include "core/hub/quarantine.hpp"
#include "core/hub/vendor_folder.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/manage/skill_lock.hpp"

namespace skillrt::core::hub {
namespace {

AuditRecord blocked_record(const std::string& name, const std::string& identifier, const Judgement& j,
                           const std::string& why) {
  AuditRecord r{AuditAction::blocked, name, identifier, std::nullopt, std::nullopt, why};
  if (j.scan) {
    r.trust = j.scan->trust;
    r.verdict = j.scan->verdict;
    if (j.policy && j.policy->decision != InstallDecision::allow) {
      r.extra = std::to_string(j.scan->findings.size()) + "_findings";
    }
  }
  return r;
}

// Where a skill of this install goes: the category asked for; "." for the
// root itself (Hermes' flat placement); with none asked, where the lock file
// says it already is (a reinstall stays put), else 3rd/<vendor>/ so
// third-party skills are told apart from the user's own at a glance.
std::string install_category(const InstallRequest& request, const LockFile& lock, const FetchedSource& source,
                             const std::string& name) {
  if (request.category == ".") {
    return {};
  }
  if (!request.category.empty()) {
    return request.category;
  }
  if (const auto recorded = lock.installed.find(name); recorded != lock.installed.end()) {
    const std::string parent = std::filesystem::path(recorded->second.install_path).parent_path().generic_string();
    return parent;
  }
  return default_install_category(source.kind, source.identifier);
}

} // namespace

const char* skill_outcome_name(SkillOutcome outcome) {
  switch (outcome) {
  case SkillOutcome::installed:
    return "installed";
  case SkillOutcome::reinstalled:
    return "reinstalled";
  case SkillOutcome::updated:
    return "updated";
  case SkillOutcome::blocked:
    return "blocked";
  case SkillOutcome::failed:
    return "failed";
  case SkillOutcome::allowed:
    return "allowed";
  }
  return "failed";
}

InstallOutcome install_skills(const Context& ctx, const Config& config, Fetcher& fetcher, const InstallRequest& request,
                              Progress* progress) {
  InstallOutcome out;
  if (!request.category.empty() && request.category != ".") {
    if (auto ok = validate_hub_category(request.category); !ok) {
      out.error = ok.error();
      return out;
    }
  }
  auto session = open_hub_session(ctx, request.shared, Operation::create);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.root = paths.root;
  out.recovered = session->recovered;
  LockFile* lock = &session->lock_file;
  auto bundle = fetch_into_quarantine(paths, fetcher, request.source, progress);
  // A preview changes nothing on disk outside the quarantine, the audit log included.
  const auto audit = [&](const AuditRecord& record) {
    if (!request.preview) {
      (void)append_audit_line(paths.audit_log, record);
    }
  };
  if (!bundle) {
    audit({AuditAction::blocked, "-", request.source, std::nullopt, std::nullopt, bundle.error().message});
    out.error = bundle.error();
    return out;
  }
  out.identifier = bundle->source.identifier;
  const std::size_t total = bundle->skills.size();
  std::size_t done = 0;
  for (const StagedSkill& staged : bundle->skills) {
    if (progress != nullptr) {
      progress->update("scan", done, total);
    }
    ++done;
    InstallReport report;
    report.name = staged.name;
    report.relative = staged.relative;
    JudgeOptions options;
    options.identifier = out.identifier;
    options.trust = request.trust;
    options.force = request.force;
    options.require_signature = request.require_signature;
    options.config = &config;
    options.home = ctx.home;
    report.judgement = judge_skill(staged.dir, options);
    if (report.judgement.manifest) {
      report.content_hash = report.judgement.manifest->content_hash;
    } else if (auto hash = bundle_content_hash(staged.dir)) {
      report.content_hash = std::move(*hash);
    }
    if (!request.pinned_hashes.empty()) {
      const auto pinned = request.pinned_hashes.find(staged.name);
      if (pinned == request.pinned_hashes.end()) {
        report.judgement.allowed = false;
        report.judgement.reason = "the source now holds '" + staged.name +
                                  "', which the reviewed scan did not show; scan the source again";
      } else if (report.content_hash.empty() || pinned->second != report.content_hash) {
        report.judgement.allowed = false;
        report.judgement.reason = "the source changed since it was scanned (reviewed " + pinned->second + ", now " +
                                  (report.content_hash.empty() ? std::string("unreadable") : report.content_hash) +
                                  "); scan it again";
      }
    }

    const std::string category = install_category(request, *lock, bundle->source, staged.name);
    auto plan = plan_target(paths, *lock, category, staged.name, request.force);
    if (!plan) {
      report.outcome = SkillOutcome::blocked;
      report.reason = plan.error().message;
      report.path = paths.root / (category.empty() ? staged.name : category + "/" + staged.name);
      audit(blocked_record(staged.name, out.identifier, report.judgement, plan.error().message));
      out.skills.push_back(std::move(report));
      continue;
    }
    report.path = plan->target;
    if (!report.judgement.allowed) {
      report.outcome = SkillOutcome::blocked;
      report.reason = report.judgement.reason;
      audit(blocked_record(staged.name, out.identifier, report.judgement, report.judgement.reason));
      out.skills.push_back(std::move(report));
      continue;
    }
    if (request.preview) {
      report.outcome = SkillOutcome::allowed;
      report.reason = report.judgement.reason;
      out.skills.push_back(std::move(report));
      continue;
    }
    const auto previous = lock->installed.find(staged.name);
    const std::string installed_at =
        plan->replace && previous != lock->installed.end() ? previous->second.installed_at : std::string();
    LockEntry entry =
        make_lock_entry(bundle->source,
                        bundle->source.canonical_source.empty() ? request.source : bundle->source.canonical_source,
                        report.judgement, plan->install_path, installed_at);
    if (progress != nullptr) {
      progress->update("install", done - 1, total);
    }
    // The skill's own lock too, so a skill_manage write to a reinstalled skill
    // runs before or after the swap, never across it.
    auto skill_lock = SkillLock::acquire(ctx, plan->target);
    if (!skill_lock) {
      report.outcome = SkillOutcome::failed;
      report.reason = skill_lock.error().message;
      out.skills.push_back(std::move(report));
      continue;
    }
    // Under the skill's lock, so the ledger's entries of this skill keep the
    // order of its changes.
    std::error_code exists_ec;
    LedgerFolderRecord record(ctx,
                              LedgerWho{LedgerActor::hub, "", LedgerAction::install, paths.layer,
                                        (plan->replace ? "reinstall from " : "from ") + out.identifier},
                              paths.root, plan->target,
                              std::filesystem::exists(std::filesystem::symlink_status(plan->target, exists_ec)));
    PendingPlacement placement{staged.name, AuditAction::install, staged.dir, plan->target, {}, entry};
    if (auto ok = commit_placement(paths, std::move(placement), plan->replace); !ok) {
      report.outcome = SkillOutcome::failed;
      report.reason = ok.error().message;
      out.skills.push_back(std::move(report));
      continue;
    }
    if (auto warning = record.commit()) {
      report.judgement.warnings.push_back(std::move(*warning));
    }
    lock->installed[staged.name] = entry;
    report.outcome = plan->replace ? SkillOutcome::reinstalled : SkillOutcome::installed;
    report.reason = report.judgement.reason;
    report.entry = entry;
    (void)append_audit_line(paths.audit_log, {AuditAction::install, staged.name, out.identifier, entry.trust_level,
                                              entry.scan_verdict, entry.content_hash});
    announce_change(ctx, paths, plan->replace ? ChangeKind::updated : ChangeKind::created, staged.name, plan->target);
    out.skills.push_back(std::move(report));
  }
  if (progress != nullptr) {
    progress->update("install", total, total);
  }
  out.success = !out.skills.empty();
  for (const InstallReport& r : out.skills) {
    out.success = out.success && (r.outcome == SkillOutcome::installed || r.outcome == SkillOutcome::reinstalled ||
                                  r.outcome == SkillOutcome::allowed);
  }
  return out;
}

} // namespace skillrt::core::hub
