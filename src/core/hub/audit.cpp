// Auditing hub-installed skills (see audit.hpp).
#include "core/hub/audit.hpp"

#include <set>
#include <system_error>

#include "core/files/pristine.hpp"
#include "core/guard/rule_help.hpp"
#include "core/hub/audit_log.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/judge.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/placement.hpp"
#include "core/limits.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

// Skill folders below `root` (not descending into skills, dot folders or
// symlinks), relative to it; bounded like a bundle.
std::vector<std::string> skill_folders(const fs::path& root) {
  std::vector<std::string> out;
  std::vector<std::pair<fs::path, std::size_t>> stack{{root, 0}};
  std::size_t visited = 0;
  while (!stack.empty() && visited < limits::k_max_bundle_entries) {
    auto [dir, depth] = stack.back();
    stack.pop_back();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      ++visited;
      const std::string leaf = it->path().filename().string();
      std::error_code sec;
      if (leaf.empty() || leaf.front() == '.' || it->is_symlink(sec) || !it->is_directory(sec)) {
        continue;
      }
      if (fs::exists(it->path() / "SKILL.md", sec)) {
        out.push_back(fs::relative(it->path(), root).generic_string());
      } else if (depth + 1 < limits::k_max_bundle_depth) {
        stack.emplace_back(it->path(), depth + 1);
      }
    }
  }
  return out;
}

} // namespace

AuditOutcome audit_installed(const Context& ctx, const Config& config, bool shared, Progress* progress) {
  AuditOutcome out;
  auto session = open_hub_session(ctx, shared, Operation::read);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.recovered = session->recovered;
  LockFile* lock = &session->lock_file;
  std::set<std::string> tracked;
  std::size_t done = 0;
  for (const auto& [name, entry] : lock->installed) {
    if (progress != nullptr) {
      progress->update("scan", done++, lock->installed.size());
    }
    tracked.insert(entry.install_path);
    AuditRow row;
    row.name = name;
    row.install_path = entry.install_path;
    row.trust_level = entry.trust_level;
    row.recorded_verdict = entry.scan_verdict;
    row.recorded_scanner = entry.scanner_version;
    row.recorded_hash = entry.content_hash;
    auto target = recorded_target(paths, name, entry);
    std::error_code ec;
    if (!target) {
      row.invalid_install = true;
      row.issues.push_back("invalid install record: " + target.error().message);
    } else if (!fs::is_directory(fs::symlink_status(*target, ec))) {
      row.missing = true;
      row.issues.push_back("the folder " + target->string() + " is gone");
    } else {
      const auto current = bundle_content_hash(*target);
      row.drift = !files::is_pristine(current, entry.content_hash);
      if (current) {
        row.current_hash = *current;
      } else {
        row.issues.push_back("cannot hash the folder: " + current.error().message);
      }
      if (row.drift && row.current_hash.size() > 0) {
        row.issues.push_back("drift: the folder changed since install (lock " + entry.content_hash + ", disk " +
                             row.current_hash + ")");
      }
      // As install judged it: the guard's source id and the operator's dismissal files.
      ScanOptions options;
      options.source = guard_source_id(entry.identifier);
      options.dismissal_files = operator_dismissal_files(ctx.home);
      if (auto scan = scan_skill(*target, options); scan) {
        if (entry.trust_level) {
          scan->trust = *entry.trust_level;
        }
        row.policy = decide_install(*scan, false);
        row.verdict_changed = entry.scan_verdict != scan->verdict;
        if (row.verdict_changed) {
          row.issues.push_back(std::string("verdict now ") + verdict_name(scan->verdict) + " (recorded " +
                               (entry.scan_verdict ? verdict_name(*entry.scan_verdict) : "none") + ")");
        }
        if (row.policy->decision != InstallDecision::allow) {
          row.issues.push_back("today's policy would refuse it: " + row.policy->reason);
        }
        row.scan = std::move(*scan);
      } else {
        row.issues.push_back("the guard scan could not run: " + scan.error().message);
      }
      auto signature = verify_bundle_signature(*target, config.skills.trusted_keys);
      if (signature) {
        const TrustLevel trust = entry.trust_level.value_or(TrustLevel::community);
        const bool required = signature_required(config.skills, trust, false);
        if (auto ok = apply_signature_policy(*signature, required); !ok) {
          row.signature_ok = false;
          row.signature_message = ok.error().message;
          row.issues.push_back("signature: " + ok.error().message);
        } else {
          row.signature_message = signature->message;
        }
        row.signature = std::move(*signature);
      } else {
        row.signature_ok = false;
        row.signature_message = signature.error().message;
        row.issues.push_back("signature: " + signature.error().message);
      }
    }
    std::string extra = row.issues.empty() ? "ok" : std::to_string(row.issues.size()) + "_issues";
    if (session->lock) { // a reader who may not write the root leaves no trace in it
      (void)append_audit_line(paths.audit_log, {AuditAction::audit, name, entry.identifier, entry.trust_level,
                                                row.scan ? std::optional(row.scan->verdict) : std::nullopt, extra});
    }
    out.issue_count += row.issues.size();
    out.rows.push_back(std::move(row));
  }
  for (std::string& folder : skill_folders(paths.root)) {
    if (tracked.count(folder) == 0) {
      out.untracked.push_back(std::move(folder));
    }
  }
  out.success = out.issue_count == 0;
  return out;
}

} // namespace skillrt::core::hub
