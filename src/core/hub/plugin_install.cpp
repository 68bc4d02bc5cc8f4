// Installing a plugin (see plugin_install.hpp).
#include "core/hub/plugin_install.hpp"

#include <stdlib.h>

#include <system_error>

#include "core/hub/audit_log.hpp"
#include "core/hub/hub_events.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/pending_commit.hpp"
#include "core/hub/placement.hpp"
#include "core/hub/quarantine.hpp"
#include "core/plugins/plugin_manifest.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

JudgeOptions judge_options(const Context& ctx, const PluginInstallRequest& request, const Config& config,
                           const std::string& identifier) {
  JudgeOptions options;
  options.home = ctx.home;
  options.identifier = identifier;
  options.trust = request.trust;
  options.force = request.force;
  options.require_signature = request.require_signature;
  options.config = &config;
  return options;
}

// The skill folders the manifest names, inside the fetched plugin. The fetch
// already refused links, so a plain containment check on the path suffices.
Result<std::vector<fs::path>> skill_folders(const PluginManifest& manifest, const fs::path& root) {
  std::vector<fs::path> out;
  for (const std::string& relative : manifest.skills_dirs) {
    const fs::path dir = (root / relative).lexically_normal();
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(dir, ec))) {
      if (manifest.skills_dirs_given || fs::exists(fs::symlink_status(dir, ec))) {
        return fail(ErrorCode::invalid_argument,
                    manifest.file.filename().string() + ": `skills` names '" + relative + "', which is not a folder");
      }
      continue;
    }
    out.push_back(dir);
  }
  if (out.empty()) {
    return fail(ErrorCode::invalid_argument, "the plugin has no skills folder ('" +
                                                 std::string(k_default_plugin_skills_dir) +
                                                 "/', or the folders its manifest's `skills` names)");
  }
  return out;
}

// A namespace that is also a category folder of the layer's skills root
// would be left out when discovered (plugin_set.hpp); refuse it now.
std::optional<std::string> category_clash(const Context& ctx, const HubPaths& paths, const std::string& ns) {
  const fs::path skills_root = paths.layer == Layer::user ? paths.root.parent_path() / "skills" : ctx.skills_dir();
  std::error_code ec;
  if (fs::is_directory(skills_root / ns, ec)) {
    return "namespace '" + ns + "' is also the category folder " + (skills_root / ns).string() + ", so '" + ns +
           ":<skill>' would stop reaching it; rename the plugin or the folder";
  }
  return std::nullopt;
}

// Where the plugin goes: <root>/<namespace>. Over an existing folder only
// when the hub installed it and replacing was asked for (--force); a folder
// someone put there by hand is never overwritten, nor is a symlink.
Result<TargetPlan> plan_plugin_target(const HubPaths& paths, const LockFile& lock, const std::string& ns,
                                      bool allow_replace) {
  TargetPlan plan;
  plan.install_path = ns;
  SKILLRT_TRY(validate_install_path(plan.install_path, ns));
  plan.target = paths.root / ns;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(plan.target, ec);
  if (!fs::exists(status)) {
    return plan;
  }
  if (fs::is_symlink(status)) {
    return fail(ErrorCode::refused, "refusing to install over " + plan.target.string() + ": it is a symlink");
  }
  if (!fs::is_directory(status)) {
    return fail(ErrorCode::refused, "refusing to install over " + plan.target.string() + ": it is not a directory");
  }
  if (lock.installed.find(ns) == lock.installed.end()) {
    if (fs::is_empty(plan.target, ec) && !ec) {
      return plan;  // an empty folder: rename(2) replaces it
    }
    return fail(ErrorCode::refused, "a plugin the hub did not install already lives at " + plan.target.string() +
                                        "; it is never overwritten (rename or remove it yourself)");
  }
  if (!allow_replace) {
    return fail(ErrorCode::refused,
                "plugin '" + ns + "' is already installed at " + plan.target.string() + "; use --force to reinstall it");
  }
  plan.replace = true;
  return plan;
}

}  // namespace

PluginInstallOutcome install_plugin(const Context& ctx, const Config& config, Fetcher& fetcher,
                                    const PluginInstallRequest& request, Progress* progress) {
  PluginInstallOutcome out;
  auto session = open_hub_session(ctx, request.shared, Operation::create, HubTarget::plugins);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.root = paths.root;
  out.recovered = session->recovered;
  const auto audit = [&](const AuditRecord& record) {
    if (!request.preview) {
      (void)append_audit_line(paths.audit_log, record);
    }
  };
  const auto stop = [&](Error error) {
    audit({AuditAction::blocked, out.name.empty() ? "-" : out.name,
           out.identifier.empty() ? request.source : out.identifier, std::nullopt, std::nullopt, error.message});
    out.error = std::move(error);
    return out;
  };

  auto quarantine = QuarantineDir::create(paths);
  if (!quarantine) {
    return stop(quarantine.error());
  }
  FetchOptions fetch_options;
  fetch_options.progress = progress;
  auto fetched = fetcher.fetch(request.source, quarantine->fetch_dir(), fetch_options);
  if (!fetched) {
    return stop(fetched.error());
  }
  out.identifier = fetched->identifier;
  auto manifest = read_plugin_manifest(fetched->root);
  if (!manifest) {
    Error error = manifest.error();
    // Name the file inside the source, not inside the quarantine.
    const std::string prefix = fetched->root.string() + "/";
    if (error.message.starts_with(prefix)) {
      error.message.erase(0, prefix.size());
    }
    return stop(std::move(error));
  }
  out.name = manifest->name;
  out.version = manifest->version;
  auto folders = skill_folders(*manifest, fetched->root);
  if (!folders) {
    return stop(folders.error());
  }
  if (std::optional<std::string> clash = category_clash(ctx, paths, out.name)) {
    return stop(Error{ErrorCode::refused, *clash, {}});
  }

  const JudgeOptions options = judge_options(ctx, request, config, out.identifier);
  for (const fs::path& folder : *folders) {
    auto discovered = discover_bundle_skills(folder);
    if (!discovered) {
      return stop(discovered.error());
    }
    for (const DiscoveredSkill& skill : *discovered) {
      if (progress != nullptr) {
        progress->update("scan", out.skills.size(), out.skills.size() + 1);
      }
      InstallReport report;
      report.name = out.name + ":" + skill.name;
      report.relative = skill.dir.lexically_relative(fetched->root).generic_string();
      report.judgement = judge_skill(skill.dir, options);
      if (report.judgement.manifest) {
        report.content_hash = report.judgement.manifest->content_hash;
      }
      report.outcome = report.judgement.allowed ? SkillOutcome::allowed : SkillOutcome::blocked;
      report.reason = report.judgement.reason;
      out.skills.push_back(std::move(report));
    }
  }

  // The whole folder too: hooks, scripts and anything else beside the skills.
  JudgeOptions whole = options;
  whole.validate = false;
  out.judgement = judge_skill(fetched->root, whole);
  auto plan = plan_plugin_target(paths, session->lock_file, out.name, request.force);
  out.path = plan ? plan->target : paths.root / out.name;
  std::vector<std::string> refusals;
  if (!plan) {
    refusals.push_back(plan.error().message);
  }
  if (!out.judgement.allowed) {
    refusals.push_back("the plugin folder: " + out.judgement.reason);
  }
  for (const InstallReport& report : out.skills) {
    if (report.outcome == SkillOutcome::blocked) {
      refusals.push_back("skill '" + report.name + "': " + report.reason);
    }
  }
  if (!refusals.empty()) {
    out.outcome = SkillOutcome::blocked;
    for (const std::string& refusal : refusals) {
      out.reason += (out.reason.empty() ? "" : " ") + refusal;
    }
    audit({AuditAction::blocked, out.name, out.identifier,
           out.judgement.scan ? std::optional<TrustLevel>(out.judgement.scan->trust) : std::nullopt,
           out.judgement.scan ? std::optional<Verdict>(out.judgement.scan->verdict) : std::nullopt, out.reason});
    return out;
  }
  if (request.preview) {
    out.outcome = SkillOutcome::allowed;
    out.reason = out.judgement.reason;
    out.success = true;
    return out;
  }

  const auto previous = session->lock_file.installed.find(out.name);
  const std::string installed_at =
      plan->replace && previous != session->lock_file.installed.end() ? previous->second.installed_at : std::string();
  LockEntry entry = make_lock_entry(*fetched, fetched->canonical_source.empty() ? request.source : fetched->canonical_source,
                                    out.judgement, plan->install_path, installed_at);
  if (progress != nullptr) {
    progress->update("install", 0, 1);
  }
  PendingPlacement placement{out.name, AuditAction::install, fetched->root, plan->target, {}, entry};
  if (auto ok = commit_placement(paths, std::move(placement), plan->replace); !ok) {
    out.outcome = SkillOutcome::failed;
    out.reason = ok.error().message;
    return out;
  }
  out.outcome = plan->replace ? SkillOutcome::reinstalled : SkillOutcome::installed;
  out.reason = out.judgement.reason;
  out.entry = entry;
  out.success = true;
  (void)append_audit_line(paths.audit_log, {AuditAction::install, out.name, out.identifier, entry.trust_level,
                                            entry.scan_verdict, entry.content_hash});
  for (const InstallReport& report : out.skills) {
    announce_change(ctx, paths, plan->replace ? ChangeKind::updated : ChangeKind::created, report.name,
                    plan->target / report.relative);
  }
  if (progress != nullptr) {
    progress->update("install", 1, 1);
  }
  return out;
}

PluginUninstallOutcome uninstall_plugin(const Context& ctx, const std::string& ns, bool shared) {
  PluginUninstallOutcome out;
  out.name = ns;
  if (!is_plugin_namespace(ns)) {
    out.error = Error{ErrorCode::invalid_argument,
                      "'" + ns + "' is not a plugin namespace: it must be 2-64 characters of [a-zA-Z0-9_-]", {}};
    return out;
  }
  auto session = open_hub_session(ctx, shared, Operation::remove, HubTarget::plugins);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.recovered = session->recovered;
  LockFile& lock = session->lock_file;
  const auto found = lock.installed.find(ns);
  if (found == lock.installed.end()) {
    out.error = Error{ErrorCode::not_found,
                      "'" + ns + "' is not a plugin `skillrt plugin install` put in " + paths.root.string() +
                          "; uninstall removes only those (disable a plugin with `skillrt plugin disable " + ns + "`)",
                      {}};
    return out;
  }
  const LockEntry entry = found->second;
  if (entry.install_path != ns) {
    out.error = Error{ErrorCode::refused,
                      "Refusing to uninstall '" + ns + "': lock.json records it at '" + entry.install_path +
                          "', not in its own folder",
                      {}};
    return out;
  }
  out.path = paths.root / ns;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(out.path, ec);
  const bool present = fs::exists(status);
  if (present && !fs::is_directory(status)) {
    out.error = Error{ErrorCode::refused,
                      "Refusing to uninstall '" + ns + "': " + out.path.string() + " is not a directory (a symlink?)",
                      {}};
    return out;
  }
  if (present) {
    std::string trash = (paths.trash / (ns + "-XXXXXX")).string();
    if (::mkdtemp(trash.data()) == nullptr) {
      out.error = Error{ErrorCode::io_error, "Cannot make a trash folder in " + paths.trash.string(), {}};
      return out;
    }
    const fs::path moved = fs::path(trash) / ns;
    fs::rename(out.path, moved, ec);
    if (ec) {
      out.error = Error{ErrorCode::io_error, "Cannot remove " + out.path.string() + ": " + ec.message(), {}};
      return out;
    }
    fs::remove_all(trash, ec);  // a leftover is removed by the next hub command
  }
  lock.installed.erase(ns);
  if (auto ok = write_lock_file(paths.lock_json, lock); !ok) {
    out.error = ok.error();
    return out;
  }
  (void)append_audit_line(paths.audit_log,
                          {AuditAction::uninstall, ns, entry.identifier, entry.trust_level, std::nullopt, "user_request"});
  announce_change(ctx, paths, ChangeKind::deleted, ns, out.path);
  out.success = true;
  out.message = present ? "Uninstalled plugin '" + ns + "' from " + out.path.string() + "."
                        : "Plugin '" + ns + "' was already gone from " + out.path.string() + "; its lock entry is removed.";
  return out;
}

}  // namespace skillrt::core::hub
