// Finding-level dismissals: a skill's own `.skillrt-guard.yaml` and the
// operator's per-source files (ScanOptions::dismissal_files), same format:
//
//   source: owner/repo        # per-source files only, optional: the sources it applies to
//   dismiss:
//     - id: ssh_dir_access    # required
//       file: references/*.md # optional glob on the finding's file
//       line: 12              # optional
//       reason: documents where keys live   # required, non-empty
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

struct DismissalRule {
  std::string id;
  std::optional<std::string> file_glob;
  std::size_t line = 0; // 0: any line
  std::string reason;
};

struct DismissalFile {
  std::string origin;                // shown as dismissed_by
  bool from_operator = false;        // per-source file (may dismiss critical findings)
  std::optional<std::string> source; // the source (or source prefix) it applies to; nullopt: every source
  std::vector<DismissalRule> rules;
};

// The skill's own dismissal file name, read from the skill root.
inline constexpr std::string_view k_skill_dismissal_file = ".skillrt-guard.yaml";

// Parses one dismissal file strictly (unknown keys, missing id/reason, a
// `source:` in a skill's own file are errors).
Result<DismissalFile> parse_dismissal_file(std::string_view text, std::string origin, bool from_operator);

// Whether `file` applies when scanning for `source` (equal, or `source` lies below it).
bool dismissal_applies_to_source(const DismissalFile& file, std::string_view source);

// Moves each finding some rule matches to `dismissed`. A skill's own file
// cannot dismiss a critical finding (that would be self-attestation); such a
// finding stays, its description saying the dismissal was refused.
// malformed_dismissals findings are never dismissed.
void apply_dismissals(const std::vector<DismissalFile>& files, std::vector<GuardFinding>& findings,
                      std::vector<DismissedFinding>& dismissed);

} // namespace skillrt::core
