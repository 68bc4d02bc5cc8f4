// audit.log (spec §2.14.3): one line per hub event, appended:
//   <UTC %Y-%m-%dT%H:%M:%SZ> <ACTION> <skill> <source>:<trust> <verdict> [extra]
// Actions: INSTALL (extra: content hash), UNINSTALL (verdict n/a, extra
// user_request), BLOCKED (extra: <n>_findings or the reason), UPDATE (extra:
// old hash -> new hash), AUDIT (extra: ok or the issues found).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/guard/guard.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

enum class AuditAction : unsigned char { install, uninstall, blocked, update, audit };
const char* audit_action_name(AuditAction action); // "INSTALL" | "UNINSTALL" | "BLOCKED" | "UPDATE" | "AUDIT"

struct AuditRecord {
  AuditAction action = AuditAction::install;
  std::string skill;
  std::string source; // the identifier
  std::optional<TrustLevel> trust; // nullopt: not known (a fetch that failed before any scan)
  std::optional<Verdict> verdict;  // nullopt: not scanned ("-"; "n/a" on UNINSTALL and AUDIT lines)
  std::string extra;
};

// `source` without the user:password@ of a URL ("https://u:t@h/x" →
// "https://h/x"), so no credential reaches the log.
std::string without_credentials(std::string_view source);

// The line for `record` at `timestamp` (no newline). The source goes through
// without_credentials. Spaces and control
// characters inside fields become '_' so a line always splits into its fields.
std::string format_audit_line(const AuditRecord& record, std::string_view timestamp);

// Appends the line with O_APPEND (0600 when new), so concurrent writers never
// interleave inside a line.
Result<void> append_audit_line(const std::filesystem::path& log, const AuditRecord& record);

} // namespace skillrt::core::hub
