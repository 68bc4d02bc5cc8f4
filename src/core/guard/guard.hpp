// The skills guard (spec §2.12, §3): scan a skill folder or file, judge it, and
// decide what an install or an agent write may do with the result.
//
// This header is the guard's public API, used by `scan`, skill_manage (issue 2)
// and install (issue 5). Implementation: scanner.cpp, structure.cpp,
// unicode_smuggling.cpp, dismissals.cpp, policy.cpp, report.cpp. What each
// finding means and how to dismiss it: rule_help.hpp.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/threat_pattern.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class Verdict : unsigned char { safe, caution, dangerous };
enum class TrustLevel : unsigned char { builtin, trusted, community, agent_created, project_local };
enum class InstallDecision : unsigned char { allow, ask, block };

const char* verdict_name(Verdict verdict);            // "safe" | "caution" | "dangerous"
const char* trust_level_name(TrustLevel trust);       // "builtin" | "trusted" | "community" | "agent-created" | "project-local"
const char* install_decision_name(InstallDecision d); // "allow" | "ask" | "block"

// The inverses of verdict_name and trust_level_name (lock.json and other
// stored records keep the names); nullopt for any other text.
std::optional<Verdict> parse_verdict(std::string_view name);
std::optional<TrustLevel> parse_trust_level(std::string_view name);

// Spec §2.12 rule 6 (source id → trust level); "project-local" maps to project_local.
TrustLevel trust_level_for_source(std::string_view source);

struct GuardFinding {
  std::string pattern_id;     // a ThreatPattern id, or a structural / unicode id
  ThreatCategory category;
  ThreatSeverity severity;
  std::string file;           // POSIX path relative to the scanned skill ("" for the skill itself)
  std::size_t line = 0;       // 1-based; 0 when not about a line
  std::size_t column = 0;     // 1-based byte column of the match; 0 when unknown
  std::size_t related_line = 0; // the source line of a flow finding; 0 otherwise
  std::string snippet;        // the stripped line, at most 120 chars with "..."
  std::string description;
};

// A finding a `.skillrt-guard.yaml` (per skill) or a per-source rule set aside, with why.
struct DismissedFinding {
  GuardFinding finding;
  std::string reason;
  std::string dismissed_by;   // the file that dismissed it
};

struct ScanResult {
  std::string skill_name;     // folder name (or file name)
  std::string source;         // as given
  TrustLevel trust = TrustLevel::community;
  Verdict verdict = Verdict::safe;   // from findings only (dismissed ones do not count)
  std::vector<GuardFinding> findings;
  std::vector<DismissedFinding> dismissed;
  std::string content_hash;   // "sha256:" + 16 hex (spec §2.12 rule 7)
  std::string scanned_at;     // ISO-8601 UTC
  std::string summary;        // spec §2.12 rule 4
  std::size_t files_scanned = 0;
  std::size_t bytes_scanned = 0;
};

struct ScanOptions {
  std::string source = "community";
  // Extra per-source dismissal files (the skill's own .skillrt-guard.yaml is always read).
  std::vector<std::filesystem::path> dismissal_files;
};

// Scans a skill folder (structure + every file) or a single file. Fails only
// when `path` cannot be opened at all; unreadable files inside become findings.
Result<ScanResult> scan_skill(const std::filesystem::path& path, const ScanOptions& options);

// The content findings (threat patterns and Unicode smuggling) of one file's
// bytes, as scan_skill finds them for the file at `rel_path` (which decides the
// language rules). A leading UTF-8 BOM is skipped; invalid UTF-8 is scanned as
// it is. No structural, binary or dismissal rules. For tests and fuzzing.
std::vector<GuardFinding> scan_text(std::string_view rel_path, std::string_view bytes);

// Spec §2.12 rule 4: any critical finding → dangerous, else any high → caution, else safe.
Verdict verdict_for(const std::vector<GuardFinding>& findings);

struct PolicyDecision {
  InstallDecision decision = InstallDecision::allow;
  std::string reason;
};

// The install policy of spec §3.3 for result.trust and result.verdict. `force`
// turns a force-overridable "block" (community + caution) into "allow"; it never
// overrides a block on a dangerous verdict. "ask" (agent-created + dangerous) is
// not a block: the caller asks for confirmation (docs/compat.md).
PolicyDecision decide_install(const ScanResult& result, bool force);

// How much format_scan_report says. `rows` is spec §2.12 rule 10 exactly (what
// the Python package, skill_manage and proposals show); `explained` adds under
// the first row of each rule its id, summary, why and fix (rule_help.hpp), the
// id alone under its later rows, and a last line on `scan --explain`.
enum class ReportDetail : unsigned char { rows, explained };

// Spec §2.12 rule 10, plus the dismissed findings under their own heading.
std::string format_scan_report(const ScanResult& result, const PolicyDecision& decision,
                               ReportDetail detail = ReportDetail::rows);

// The version string recorded in lock files and caches; changes whenever the
// pattern table or the scanner's rules change.
std::string_view scanner_version();

}  // namespace skillrt::core
