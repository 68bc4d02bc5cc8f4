// `audit`: every hub-installed skill rescanned with today's guard at its
// recorded trust level (verdict and decision now vs. recorded), its signature
// verified again under today's policy, drift between lock content_hash and the
// disk, entries whose folder is gone, and skill folders in the root that
// lock.json does not know (not installed by the hub: bundled or hand-made).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/pending_commit.hpp"
#include "core/hub/signature.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct AuditRow {
  std::string name;
  std::string install_path;
  std::optional<TrustLevel> trust_level; // as recorded
  std::optional<Verdict> recorded_verdict;
  std::string recorded_scanner; // scanner_version at install
  bool missing = false;
  bool invalid_install = false;
  std::optional<ScanResult> scan;       // today's scan
  std::optional<PolicyDecision> policy; // today's decision at the recorded trust
  bool verdict_changed = false;
  bool drift = false; // disk manifest hash ≠ lock content_hash
  std::string recorded_hash;
  std::string current_hash;
  std::optional<SignatureCheck> signature;
  bool signature_ok = true; // today's signature policy accepts it
  std::string signature_message;
  std::vector<std::string> issues; // one short sentence each; empty = clean
};

struct AuditOutcome {
  bool success = false; // ran, and found no issue
  std::optional<Error> error;
  std::vector<AuditRow> rows;
  std::vector<std::string> untracked; // skill folders (relative to the root) not in lock.json
  std::size_t issue_count = 0;
  std::vector<RecoveryNote> recovered;
};

AuditOutcome audit_installed(const Context& ctx, const Config& config, bool shared, Progress* progress);

} // namespace skillrt::core::hub
