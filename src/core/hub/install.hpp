// `install SOURCE` (dist_shared decision 4, spec §2.14.7-8): fetch into
// quarantine → find the skills → validate → guard scan at the trust level →
// signature check and policy → install policy → atomic rename into
// <root>/<category>/<name> → lock.json → audit.log → change events and cache
// invalidation. Each skill of a bundle is judged and placed on its own.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/judge.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/pending_commit.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct InstallRequest {
  std::string source;              // SOURCE[//subdir][#ref]
  std::string category;            // --category: "" = 3rd/<vendor> (vendor_folder.hpp), "." = the root
  bool force = false;              // --force: reinstall, and override a force-overridable block
  std::optional<TrustLevel> trust; // --trust
  bool require_signature = false;  // --require-signature
  bool shared = false;             // --shared: HOME/skills even with --user
  // Judge only: fetch into quarantine, validate, scan and plan every skill,
  // then discard the quarantine. Nothing is placed and nothing is written to
  // lock.json or audit.log; an allowed skill's outcome is `allowed`. The
  // first half of a two-step install (a person reads the report, then confirms).
  bool preview = false;
  // The second half: the content hash (bundle_manifest) of every skill the
  // person saw in the preview, by name. When set, a skill whose fetched
  // content hashes differently — or that the preview did not show — is
  // blocked, so what is installed is exactly what was reviewed even though
  // the source is fetched again.
  std::map<std::string, std::string> pinned_hashes;
};

enum class SkillOutcome : unsigned char { installed, reinstalled, updated, blocked, failed, allowed };
// "installed" | "reinstalled" | "updated" | "blocked" | "failed" | "allowed" (a preview's yes)
const char* skill_outcome_name(SkillOutcome outcome);

struct InstallReport {
  std::string name;
  std::string relative;       // where the skill was in the bundle ("" = its top)
  std::filesystem::path path; // the installed folder (or where it would have gone)
  SkillOutcome outcome = SkillOutcome::failed;
  std::string reason;
  Judgement judgement;
  std::optional<LockEntry> entry; // what lock.json now records
  std::string content_hash;       // the fetched folder's bundle_manifest hash ("" when it could not be taken)
};

struct InstallOutcome {
  bool success = false;       // every skill installed (a preview: every skill allowed)
  std::optional<Error> error; // the operation could not run (fetch, permission, lock...)
  std::filesystem::path root;
  std::string identifier;
  std::vector<RecoveryNote> recovered;
  std::vector<InstallReport> skills;
};

InstallOutcome install_skills(const Context& ctx, const Config& config, Fetcher& fetcher, const InstallRequest& request,
                              Progress* progress);

} // namespace skillrt::core::hub
