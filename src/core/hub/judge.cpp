// Judging a staged skill (see judge.hpp).
#include "core/hub/judge.hpp"

#include <algorithm>
#include <string_view>

#include "core/guard/rule_help.hpp"
#include "core/util/utc_time.hpp"
#include "core/validate/validator.hpp"

namespace skillrt::core::hub {
namespace {

// Hermes' hub only warns about a SKILL.md past 100 000 characters (spec
// §2.14.8), although skill_manage refuses to write one: an install keeps it.
constexpr std::string_view k_warn_only_rule = "hermes.content_too_long";

// The guard's explanation of a policy block: the rules over the line, the
// operator dismissal that would allow the skill, and the sentence `reason`
// gets ("" when nothing is over the line).
std::string explain_block(const JudgeOptions& options, Judgement& out) {
  const ScanResult& scan = *out.scan;
  out.blocking = blocking_findings(scan, options.force);
  if (out.blocking.empty()) {
    return {};
  }
  std::string sentence = "Over the line: " + rule_list_sentence(out.blocking, 6) + ".";
  const auto malformed = [](const GuardFinding& f) { return f.pattern_id == "malformed_dismissals"; };
  if (std::any_of(out.blocking.begin(), out.blocking.end(), malformed)) {
    sentence += " A malformed dismissal file dismisses nothing and cannot itself be dismissed: fix it first.";
  }
  if (std::all_of(out.blocking.begin(), out.blocking.end(), malformed)) {
    return sentence;
  }
  const std::filesystem::path dir =
      options.home.empty() ? std::filesystem::path("HOME/guard/dismissals") : operator_dismissal_dir(options.home);
  out.dismissal_file = dir / operator_dismissal_file_name(scan.source);
  out.dismissal_yaml = operator_dismissal_yaml(scan.source, out.blocking);
  sentence += " After reading the findings, dismiss them in " + out.dismissal_file.string() +
              " to allow it (skillrt scan --explain RULE).";
  return sentence;
}

} // namespace

// The source id the guard's trust table knows (spec §3.2 names repositories
// as "owner/repo[/path]"): an https://github.com/OWNER/REPO[.git][/…] source
// becomes "OWNER/REPO[/…]"; anything else stays as it is. Only github.com over
// https, where the owner segment is the owner.
std::string guard_source_id(const std::string& identifier) {
  constexpr std::string_view k_github = "https://github.com/";
  if (identifier.size() <= k_github.size() || identifier.compare(0, k_github.size(), k_github) != 0) {
    return identifier;
  }
  std::string rest = identifier.substr(k_github.size());
  const std::size_t owner_end = rest.find('/');
  if (owner_end == std::string::npos) {
    return identifier;
  }
  const std::size_t repo_end = rest.find('/', owner_end + 1);
  std::string repo = rest.substr(owner_end + 1, repo_end == std::string::npos ? std::string::npos : repo_end - owner_end - 1);
  if (repo.size() > 4 && repo.compare(repo.size() - 4, 4, ".git") == 0) {
    repo.resize(repo.size() - 4);
  }
  return rest.substr(0, owner_end + 1) + repo + (repo_end == std::string::npos ? "" : rest.substr(repo_end));
}

LockEntry make_lock_entry(const FetchedSource& source, const std::string& source_spec, const Judgement& judgement,
                          const std::string& install_path, const std::string& installed_at) {
  LockEntry e;
  e.source = source.kind;
  e.identifier = source.identifier;
  e.source_spec = source_spec;
  e.ref = source.ref;
  e.revision = source.revision;
  e.subdir = source.subdir;
  if (judgement.scan) {
    e.trust_level = judgement.scan->trust;
    e.scan_verdict = judgement.scan->verdict;
    e.findings.total = judgement.scan->findings.size();
    for (const GuardFinding& f : judgement.scan->findings) {
      switch (f.severity) {
      case ThreatSeverity::critical:
        ++e.findings.critical;
        break;
      case ThreatSeverity::high:
        ++e.findings.high;
        break;
      case ThreatSeverity::medium:
        ++e.findings.medium;
        break;
      case ThreatSeverity::low:
        ++e.findings.low;
        break;
      }
    }
  }
  e.scanner_version = std::string(scanner_version());
  if (judgement.manifest) {
    e.content_hash = judgement.manifest->content_hash;
    for (const ManifestEntry& file : judgement.manifest->entries) {
      e.files.push_back(file.path);
    }
  }
  e.install_path = install_path;
  if (judgement.signature) {
    e.signature_status = judgement.signature->status;
    e.signature_key = judgement.signature->key;
  }
  e.updated_at = utc_now_iso8601();
  e.installed_at = installed_at.empty() ? e.updated_at : installed_at;
  return e;
}


Judgement judge_skill(const std::filesystem::path& dir, const JudgeOptions& options) {
  Judgement out;
  std::vector<std::string> refusals;

  const ValidationReport report = options.validate ? validate_skill(dir, ValidateOptions{}) : ValidationReport{};
  for (const Finding& finding : report.findings) {
    if (finding.severity == Severity::error && finding.rule_id == k_warn_only_rule) {
      out.warnings.push_back(finding.rule_id + ": " + finding.message);
    } else if (finding.severity == Severity::error) {
      out.validation_errors.push_back(finding.rule_id + ": " + finding.message);
    }
  }
  if (!out.validation_errors.empty()) {
    refusals.push_back("validation failed: " + out.validation_errors.front() +
                       (out.validation_errors.size() > 1
                            ? " (and " + std::to_string(out.validation_errors.size() - 1) + " more)"
                            : std::string()));
  }

  // The manifest also refuses symlinks and devices anywhere in the bundle.
  auto manifest = build_bundle_manifest(dir);
  if (manifest) {
    out.manifest = std::move(*manifest);
  } else {
    refusals.push_back("the bundle cannot be hashed: " + manifest.error().message);
  }

  ScanOptions scan_options;
  scan_options.source = guard_source_id(options.identifier);
  if (!options.home.empty()) {
    scan_options.dismissal_files = operator_dismissal_files(options.home);
  }
  auto scan = scan_skill(dir, scan_options);
  if (scan) {
    if (options.trust) {
      scan->trust = *options.trust;
    }
    out.policy = decide_install(*scan, options.force);
    out.scan = std::move(*scan);
    if (out.policy->decision != InstallDecision::allow) {
      const std::string why = explain_block(options, out);
      refusals.push_back(out.policy->reason + (why.empty() ? "" : " " + why));
    }
  } else {
    refusals.push_back("the guard scan could not run: " + scan.error().message);
  }

  const std::vector<std::string> no_keys;
  const std::vector<std::string>& keys = options.config != nullptr ? options.config->skills.trusted_keys : no_keys;
  auto signature = verify_bundle_signature(dir, keys);
  // The operator's signature policy holds at the source's own trust level as
  // well as at a --trust the caller chose: raising the trust never drops a
  // signature requirement.
  const TrustLevel source_trust = trust_level_for_source(guard_source_id(options.identifier));
  const TrustLevel trust = out.scan ? out.scan->trust : options.trust.value_or(source_trust);
  const SkillsConfig no_config;
  const SkillsConfig& skills_config = options.config != nullptr ? options.config->skills : no_config;
  out.signature_required = signature_required(skills_config, trust, options.require_signature) ||
                           signature_required(skills_config, source_trust, false);
  if (signature) {
    if (auto ok = apply_signature_policy(*signature, out.signature_required); !ok) {
      refusals.push_back(ok.error().message);
    }
    out.signature = std::move(*signature);
  } else {
    refusals.push_back("the signature could not be checked: " + signature.error().message);
  }

  out.allowed = refusals.empty();
  if (out.allowed) {
    out.reason = out.policy->reason;
  } else {
    for (const std::string& r : refusals) {
      out.reason += (out.reason.empty() ? "" : " ") + r;
    }
  }
  return out;
}

} // namespace skillrt::core::hub
