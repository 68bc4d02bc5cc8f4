// Help for every rule the guard can report (issue 19 item 4): which rule
// fired, why it matters, how to fix the skill and how to dismiss a false
// positive. The text lives in rule_help_table.cpp, one table per category;
// docs/guard-rules.md is generated from it (`skillrt scan --rules --format
// markdown`) and a unit test fails when the two differ.
//
// Public next to guard.hpp: scan --explain, the reports (text, JSON, SARIF),
// the hub's block messages and the web UI all read it.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

struct RuleHelp {
  std::string_view id;
  std::string_view summary; // one line, no trailing period
  std::string_view why;     // why it matters: one or two sentences
  std::string_view fix;     // how to fix the skill
};

// A rule the guard can report, with the category it is reported in and its
// highest severity (context rules may report a match lower).
struct GuardRule {
  std::string_view id;
  ThreatCategory category;
  ThreatSeverity severity;
};

// The rules that are not line patterns: structure (structure.cpp,
// skill_tree.cpp), the scanner's own findings (scanner.cpp), Unicode
// smuggling (unicode_smuggling.cpp) and look-alike names (name_lookalike.cpp). A unit test reads those sources and
// fails on an id missing here.
std::span<const GuardRule> non_pattern_rules();

// Every rule id the guard can emit: threat_patterns() in table order, then
// non_pattern_rules().
std::vector<GuardRule> guard_rules();
std::optional<GuardRule> find_guard_rule(std::string_view id);

// The help of `id`; nullopt for an id the table does not know.
std::optional<RuleHelp> rule_help(std::string_view id);
// Every entry of the help table, in table order (for tests and the rules document).
std::vector<RuleHelp> all_rule_help();

// The rules document, as a path relative to the repository root. Every help
// URI is this path plus the rule's anchor: one form for the text report,
// JSON, SARIF and the web UI.
inline constexpr std::string_view k_rules_document = "docs/guard-rules.md";
std::string rule_anchor(std::string_view id); // "rule-<id>"
std::string help_uri(std::string_view id);    // "docs/guard-rules.md#rule-<id>"

// Up to `max` known rule ids closest to `id` (edit distance, then shared
// prefix or substring), best first: the suggestions of an unknown id.
std::vector<std::string> closest_rule_ids(std::string_view id, std::size_t max);

// The whole rules document (docs/guard-rules.md), byte for byte.
std::string rules_markdown();

// `text` for Markdown: every ASCII punctuation that could start markup
// backslash-escaped, so help text shows as written.
std::string markdown_escape(std::string_view text);

// ------------------------------------------------------------ dismissals

// Where a dismissal is written: the skill's own `.skillrt-guard.yaml`, or an
// operator's file (HOME/guard/dismissals/*.yaml, or `scan --dismissals`).
enum class DismissalScope : unsigned char { skill_file, operator_file };

inline constexpr std::string_view k_dismissal_reason_placeholder = "<fill in why>";

struct DismissalSnippet {
  DismissalScope scope = DismissalScope::skill_file; // the scope the text is for
  std::string yaml;                                  // a whole dismissal file that dismisses exactly this finding
  std::string note;                                  // "" or why the scope differs from the one asked for
};

// The dismissal file (in the format of dismissals.hpp) that sets `finding`
// aside: `id`, `file` (the finding's path as an exact glob) and `line` when
// the finding has them, and `reason: <fill in why>`. An operator file gets
// `source: <source>` when `source` is not empty. A skill's own file cannot
// dismiss a critical finding, so for one the operator form is returned, with
// a note. nullopt for malformed_dismissals, which is never dismissable.
std::optional<DismissalSnippet> dismissal_snippet(const GuardFinding& finding, DismissalScope scope,
                                                  std::string_view source = {});

// One operator dismissal file that sets every finding of `findings` aside
// (one entry per finding, malformed_dismissals left out).
std::string operator_dismissal_yaml(std::string_view source, const std::vector<GuardFinding>& findings);

// `text` as a glob that matches exactly `text` (glob_match): `*`, `?` and `[`
// become one-character classes; bytes that are not valid UTF-8 become `?`.
std::string exact_glob(std::string_view text);

// The operator's dismissal folder, HOME/guard/dismissals: install, update
// and audit read every `*.yaml` / `*.yml` file in it (each applies to the
// sources its `source:` key names, or to all without one).
std::filesystem::path operator_dismissal_dir(const std::filesystem::path& home);
// Those files, sorted by name (hidden files and anything but regular files,
// or links to them, left out). Empty when the folder does not exist.
std::vector<std::filesystem::path> operator_dismissal_files(const std::filesystem::path& home);
// A file name for the dismissals of `source`: its characters outside
// [A-Za-z0-9._-] as "-", at most 80, plus ".yaml" ("all-sources.yaml" for "").
std::string operator_dismissal_file_name(std::string_view source);

// ------------------------------------------------------------ blocks

// The findings that put `result` over the line of its install policy: each
// finding whose severity alone would make decide_install(…, force) refuse.
// Dismissing all of them makes the policy allow the skill. Empty when the
// policy allows it already.
std::vector<GuardFinding> blocking_findings(const ScanResult& result, bool force);

// "id (summary), id (summary)…": the distinct rule ids of `findings` in
// order, at most `max` of them, then "and N more".
std::string rule_list_sentence(const std::vector<GuardFinding>& findings, std::size_t max);

} // namespace skillrt::core
