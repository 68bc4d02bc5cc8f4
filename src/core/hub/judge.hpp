// The judgement of one staged skill, shared by install and update: validate
// (core/validate), guard scan at the trust level, signature check and the
// signature policy, install policy (decide_install; "ask" counts as a block,
// --force never overrides a dangerous verdict).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/signature.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct JudgeOptions {
  std::string identifier;          // the scan's source id
  std::optional<TrustLevel> trust; // --trust; else trust_level_for_source(identifier)
  bool force = false;              // passed to decide_install
  bool require_signature = false;  // --require-signature
  const Config* config = nullptr;  // trusted_keys, require_signature
  // Validate the folder as one skill. Off for a whole plugin folder, whose
  // skills are each judged on their own (plugin_install.hpp).
  bool validate = true;
  // The skillrt home whose operator dismissal files (HOME/guard/dismissals/*.yaml,
  // core/guard/rule_help.hpp) the scan reads; empty: none.
  std::filesystem::path home;
};

struct Judgement {
  bool allowed = false;
  std::string reason; // why allowed or refused (one or more sentences)
  std::vector<std::string> validation_errors;
  std::vector<std::string> warnings; // reported, never blocking (e.g. a very large SKILL.md)
  std::optional<ScanResult> scan;
  std::optional<PolicyDecision> policy;
  std::optional<SignatureCheck> signature;
  bool signature_required = false;
  std::optional<BundleManifest> manifest; // content hash and files
  // When the install policy refused the scan: the findings that put it over
  // the line (blocking_findings) and the operator dismissal file that would
  // allow it once a person has read them: where to write it (in
  // HOME/guard/dismissals) and its text. `reason` names the rules too.
  std::vector<GuardFinding> blocking;
  std::filesystem::path dismissal_file;
  std::string dismissal_yaml;
};

// The source id the guard's trust table and dismissal files use for a hub
// identifier: https://github.com/OWNER/REPO[.git][/…] becomes OWNER/REPO[/…];
// anything else stays as it is.
std::string guard_source_id(const std::string& identifier);

// Judges the skill folder `dir`. Never throws; a step that cannot run makes
// the skill refused with the reason.
Judgement judge_skill(const std::filesystem::path& dir, const JudgeOptions& options);

// The lock.json entry of an allowed judgement (manifest and scan present).
// `installed_at` "" = now; updated_at is always now.
LockEntry make_lock_entry(const FetchedSource& source, const std::string& source_spec, const Judgement& judgement,
                          const std::string& install_path, const std::string& installed_at);

} // namespace skillrt::core::hub
