// The help table (rule_help.hpp): every rule the guard can emit has help with
// no empty field, the rules document equals what the table generates, and a
// dismissal snippet parses and really dismisses its finding.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/guard/dismissals.hpp"
#include "core/guard/guard.hpp"
#include "core/guard/ignore_rules.hpp"
#include "core/guard/rule_help.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    out += "\n  " + item;
  }
  return out;
}

// Every id the guard's sources pass as a finding id: a snake_case literal
// followed by a severity or category (structural("…", ThreatSeverity::…),
// ThreatPattern{"…", C::…}) or assigned to pattern_id. The help table's own
// files are left out, so the table cannot vouch for itself.
std::set<std::string> ids_in_guard_sources() {
  const std::regex passed(R"re("([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"\s*,\s*(?:ThreatSeverity|S|C|ThreatCategory)::)re");
  const std::regex assigned(R"re(pattern_id\s*=\s*"([a-z][a-z0-9_]*)")re");
  std::set<std::string> ids;
  for (const auto& entry : fs::directory_iterator(fs::path(SKILLRT_SOURCE_DIR) / "src/core/guard")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".cpp" || name.rfind("rule_help", 0) == 0) {
      continue;
    }
    const std::string text = read_file(entry.path());
    for (const std::regex& re : {passed, assigned}) {
      for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
        ids.insert((*it)[1].str());
      }
    }
  }
  return ids;
}

TEST(RuleHelp, EveryRuleTheGuardCanEmitHasHelp) {
  std::vector<std::string> missing;
  for (const GuardRule& rule : guard_rules()) {
    if (!rule_help(rule.id)) {
      missing.push_back(std::string(rule.id) + " (" + category_name(rule.category) + ")");
    }
  }
  EXPECT_TRUE(missing.empty()) << "rules without help; add them to src/core/guard/rule_help_table.cpp, then "
                                  "`skillrt scan --rules --format markdown > docs/guard-rules.md`:"
                               << joined(missing);
}

TEST(RuleHelp, EveryIdInTheGuardSourcesIsAKnownRuleWithHelp) {
  const std::set<std::string> ids = ids_in_guard_sources();
  // The patterns alone are ~200; the structural, scanner and Unicode ids are 16.
  ASSERT_GE(ids.size(), threat_patterns().size() + non_pattern_rules().size() - 2) << "the source scan broke";
  std::vector<std::string> unknown;
  std::vector<std::string> without_help;
  for (const std::string& id : ids) {
    if (!find_guard_rule(id)) {
      unknown.push_back(id);
    }
    if (!rule_help(id)) {
      without_help.push_back(id);
    }
  }
  EXPECT_TRUE(unknown.empty()) << "ids emitted in src/core/guard/ but missing from non_pattern_rules() "
                                  "(src/core/guard/rule_help.cpp):"
                               << joined(unknown);
  EXPECT_TRUE(without_help.empty()) << "ids emitted in src/core/guard/ without help (rule_help_table.cpp):"
                                    << joined(without_help);
  // And the other way: every non-pattern rule is really emitted somewhere.
  for (const GuardRule& rule : non_pattern_rules()) {
    EXPECT_TRUE(ids.count(std::string(rule.id))) << rule.id << " is listed but no guard source emits it";
  }
}

TEST(RuleHelp, NoStaleOrDuplicateEntries) {
  std::set<std::string_view> seen;
  std::vector<std::string> stale;
  for (const RuleHelp& help : all_rule_help()) {
    EXPECT_TRUE(seen.insert(help.id).second) << "duplicate help for " << help.id;
    if (!find_guard_rule(help.id)) {
      stale.push_back(std::string(help.id));
    }
  }
  EXPECT_TRUE(stale.empty()) << "help for ids the guard no longer emits:" << joined(stale);
  std::set<std::string_view> ids;
  for (const GuardRule& rule : guard_rules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "rule id twice: " << rule.id;
  }
}

TEST(RuleHelp, FieldsAreFilledAndShaped) {
  const std::regex sentence_end(R"re([.!?]["')]?\s+[A-Z(])re");
  for (const RuleHelp& help : all_rule_help()) {
    const std::string id(help.id);
    EXPECT_FALSE(help.summary.empty()) << id;
    EXPECT_FALSE(help.why.empty()) << id;
    EXPECT_FALSE(help.fix.empty()) << id;
    EXPECT_EQ(help.summary.find('\n'), std::string_view::npos) << id << ": the summary is one line";
    EXPECT_LE(help.summary.size(), 120u) << id << ": the summary is one short line";
    EXPECT_NE(help.summary.back(), '.') << id << ": a summary has no final period";
    for (const std::string_view text : {help.why, help.fix}) {
      EXPECT_EQ(text.find('\n'), std::string_view::npos) << id;
      EXPECT_TRUE(text.back() == '.' || text.back() == ')') << id << ": " << text;
    }
    const std::string why(help.why);
    const auto sentences =
        std::distance(std::sregex_iterator(why.begin(), why.end(), sentence_end), std::sregex_iterator()) + 1;
    EXPECT_LE(sentences, 2) << id << ": `why` is one or two sentences: " << why;
  }
}

TEST(RuleHelp, HelpUriPointsAtTheRulesAnchor) {
  EXPECT_EQ(help_uri("curl_pipe_shell"), "docs/guard-rules.md#rule-curl_pipe_shell");
  EXPECT_EQ(rule_anchor("binary_file"), "rule-binary_file");
  const std::regex shape(R"re(docs/guard-rules\.md#rule-[a-z][a-z0-9_]*)re");
  for (const GuardRule& rule : guard_rules()) {
    EXPECT_TRUE(std::regex_match(help_uri(rule.id), shape)) << help_uri(rule.id);
  }
}

TEST(RuleHelp, DocumentIsUpToDate) {
  const fs::path doc = fs::path(SKILLRT_SOURCE_DIR) / k_rules_document;
  const std::string on_disk = read_file(doc);
  const std::string generated = rules_markdown();
  if (on_disk == generated) {
    SUCCEED();
    return;
  }
  std::istringstream a(on_disk);
  std::istringstream b(generated);
  std::string la;
  std::string lb;
  std::size_t line = 0;
  while (true) {
    ++line;
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) {
      break;
    }
    if (!more_a || !more_b || la != lb) {
      break;
    }
  }
  ADD_FAILURE() << k_rules_document << " is out of date with src/core/guard/rule_help_table.cpp (first difference "
                << "at line " << line << ":\n  file:      " << la << "\n  generated: " << lb
                << "\nRegenerate it: skillrt scan --rules --format markdown > " << k_rules_document;
}

TEST(RuleHelp, EveryRuleHasItsAnchorInTheDocument) {
  const std::string doc = rules_markdown();
  for (const GuardRule& rule : guard_rules()) {
    EXPECT_NE(doc.find("<a id=\"" + rule_anchor(rule.id) + "\"></a>\n### " + markdown_escape(rule.id) + "\n"),
              std::string::npos)
        << rule.id;
  }
}

GuardFinding finding_of(const GuardRule& rule, std::string file, std::size_t line) {
  GuardFinding f;
  f.pattern_id = std::string(rule.id);
  f.category = rule.category;
  f.severity = rule.severity;
  f.file = std::move(file);
  f.line = line;
  return f;
}

// The snippet parses, dismisses its finding and nothing else of the same rule.
void expect_dismisses(const DismissalSnippet& snippet, const GuardFinding& f, std::string_view source) {
  const bool from_operator = snippet.scope == DismissalScope::operator_file;
  auto parsed = parse_dismissal_file(snippet.yaml, "snippet", from_operator);
  ASSERT_TRUE(parsed) << parsed.error().message << "\n" << snippet.yaml;
  EXPECT_TRUE(dismissal_applies_to_source(*parsed, source)) << snippet.yaml;
  std::vector<GuardFinding> findings{f};
  if (f.line > 0) {
    GuardFinding elsewhere = f; // same rule and file, another line
    elsewhere.line = f.line + 1;
    findings.push_back(elsewhere);
  }
  if (!f.file.empty()) {
    GuardFinding other_file = f; // same rule and line, another file
    other_file.file = f.file + "x";
    findings.push_back(other_file);
  }
  const std::size_t others = findings.size() - 1;
  std::vector<DismissedFinding> dismissed;
  apply_dismissals({*parsed}, findings, dismissed);
  ASSERT_EQ(dismissed.size(), 1u) << f.pattern_id << "\n" << snippet.yaml;
  EXPECT_EQ(dismissed[0].finding.line, f.line);
  EXPECT_EQ(dismissed[0].finding.file, f.file);
  EXPECT_EQ(dismissed[0].reason, k_dismissal_reason_placeholder);
  EXPECT_EQ(findings.size(), others);
}

TEST(RuleHelp, DismissalSnippetParsesAndDismissesExactlyItsFinding) {
  // File names a YAML scalar or a glob would misread: spaces, quotes, colons,
  // glob characters, a leading dash, a YAML keyword, non-ASCII and a byte that
  // is not UTF-8.
  const std::vector<std::string> files{
      "SKILL.md", "references/my notes.md", "a: b/'c' \"d\".md",       "x/*[a]?.sh", "-dash.md",
      "null",     "références.md",          std::string("bad\xff.md"), "#hash.md"};
  const std::string source = "https://github.com/acme/skills: tricky";
  for (const GuardRule& rule : guard_rules()) {
    if (rule.id == "malformed_dismissals") {
      EXPECT_FALSE(dismissal_snippet(finding_of(rule, "x.yaml", 0), DismissalScope::operator_file));
      continue;
    }
    for (const std::string& file : files) {
      const GuardFinding f = finding_of(rule, file, 7);
      const auto own = dismissal_snippet(f, DismissalScope::skill_file);
      ASSERT_TRUE(own) << rule.id;
      if (rule.severity == ThreatSeverity::critical) {
        EXPECT_EQ(own->scope, DismissalScope::operator_file) << rule.id;
        EXPECT_FALSE(own->note.empty());
      } else {
        EXPECT_EQ(own->scope, DismissalScope::skill_file) << rule.id;
        EXPECT_EQ(own->yaml.rfind("dismiss:\n", 0), 0u) << own->yaml;
        expect_dismisses(*own, f, source);
      }
      const auto by_operator = dismissal_snippet(f, DismissalScope::operator_file, source);
      ASSERT_TRUE(by_operator);
      expect_dismisses(*by_operator, f, source);
    }
  }
  // A finding about the whole skill: no file or line, so the entry covers the rule.
  const GuardFinding whole = finding_of(*find_guard_rule("too_many_files"), "", 0);
  const auto snippet = dismissal_snippet(whole, DismissalScope::skill_file);
  ASSERT_TRUE(snippet);
  EXPECT_EQ(snippet->yaml, "dismiss:\n  - id: too_many_files\n    reason: <fill in why>\n");
}

TEST(RuleHelp, ASkillsOwnSnippetOfACriticalFindingWouldBeRefused) {
  // The reason the snippet switches to the operator form: the skill's own form is refused.
  GuardFinding f = finding_of(*find_guard_rule("binary_file"), "lib/x.so", 0);
  auto own = parse_dismissal_file("dismiss:\n  - id: binary_file\n    reason: r\n", ".skillrt-guard.yaml", false);
  ASSERT_TRUE(own);
  std::vector<GuardFinding> findings{f};
  std::vector<DismissedFinding> dismissed;
  apply_dismissals({*own}, findings, dismissed);
  EXPECT_TRUE(dismissed.empty());
  const auto snippet = dismissal_snippet(f, DismissalScope::skill_file);
  ASSERT_TRUE(snippet);
  EXPECT_EQ(snippet->scope, DismissalScope::operator_file);
  expect_dismisses(*snippet, f, "anything");
}

TEST(RuleHelp, OperatorFileOfSeveralFindingsDismissesThemAll) {
  std::vector<GuardFinding> findings{finding_of(*find_guard_rule("curl_pipe_shell"), "SKILL.md", 3),
                                     finding_of(*find_guard_rule("binary_file"), "bin/tool", 0),
                                     finding_of(*find_guard_rule("malformed_dismissals"), ".skillrt-guard.yaml", 2)};
  const std::string yaml = operator_dismissal_yaml("acme/skills", findings);
  EXPECT_EQ(yaml.find("malformed_dismissals"), std::string::npos) << yaml;
  auto parsed = parse_dismissal_file(yaml, "op", true);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_TRUE(dismissal_applies_to_source(*parsed, "acme/skills/sub"));
  EXPECT_FALSE(dismissal_applies_to_source(*parsed, "acme/skills-evil"));
  std::vector<DismissedFinding> dismissed;
  apply_dismissals({*parsed}, findings, dismissed);
  EXPECT_EQ(dismissed.size(), 2u);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].pattern_id, "malformed_dismissals");
}

TEST(RuleHelp, ExactGlobMatchesOnlyItsText) {
  for (const std::string text : {"a*b", "x?y", "[ab]", "plain/path.md", "*"}) {
    EXPECT_TRUE(glob_match(exact_glob(text), text)) << text;
  }
  EXPECT_FALSE(glob_match(exact_glob("a*b"), "axxb"));
  EXPECT_FALSE(glob_match(exact_glob("x?y"), "xzy"));
  EXPECT_FALSE(glob_match(exact_glob("[ab]"), "a"));
}

ScanResult scan_of(TrustLevel trust, std::vector<GuardFinding> findings) {
  ScanResult r;
  r.trust = trust;
  r.source = "acme/skills";
  r.findings = std::move(findings);
  r.verdict = verdict_for(r.findings);
  return r;
}

TEST(RuleHelp, BlockingFindingsAreThoseOverThePolicysLine) {
  const GuardFinding critical = finding_of(*find_guard_rule("reverse_shell"), "SKILL.md", 1);
  const GuardFinding high = finding_of(*find_guard_rule("curl_pipe_shell"), "SKILL.md", 2);
  const GuardFinding medium = finding_of(*find_guard_rule("sudo_usage"), "SKILL.md", 3);
  const std::vector<GuardFinding> all{critical, high, medium};
  EXPECT_EQ(blocking_findings(scan_of(TrustLevel::community, all), false).size(), 2u);
  EXPECT_EQ(blocking_findings(scan_of(TrustLevel::community, all), true).size(), 1u); // --force passes caution
  EXPECT_EQ(blocking_findings(scan_of(TrustLevel::trusted, all), false).size(), 1u);
  EXPECT_EQ(blocking_findings(scan_of(TrustLevel::agent_created, all), false).size(), 1u); // ask
  EXPECT_TRUE(blocking_findings(scan_of(TrustLevel::builtin, all), false).empty());
  EXPECT_TRUE(blocking_findings(scan_of(TrustLevel::community, {medium}), false).empty());

  // Dismissing exactly the blocking ones turns the decision into allow.
  for (const TrustLevel trust : {TrustLevel::community, TrustLevel::trusted, TrustLevel::project_local}) {
    ScanResult r = scan_of(trust, all);
    auto file = parse_dismissal_file(operator_dismissal_yaml(r.source, blocking_findings(r, false)), "op", true);
    ASSERT_TRUE(file);
    apply_dismissals({*file}, r.findings, r.dismissed);
    r.verdict = verdict_for(r.findings);
    EXPECT_EQ(decide_install(r, false).decision, InstallDecision::allow) << trust_level_name(trust);
  }
  EXPECT_EQ(rule_list_sentence(all, 2), "reverse_shell (" + std::string(rule_help("reverse_shell")->summary) +
                                            "), curl_pipe_shell (" +
                                            std::string(rule_help("curl_pipe_shell")->summary) + ") and 1 more");
}

TEST(RuleHelp, ClosestIdsSuggestNearbyRules) {
  EXPECT_EQ(closest_rule_ids("curl_pipe_shel", 3).front(), "curl_pipe_shell");
  EXPECT_EQ(closest_rule_ids("CURL-PIPE-SHELL", 1).front(), "curl_pipe_shell");
  const std::vector<std::string> shells = closest_rule_ids("reverse_shel", 3);
  EXPECT_EQ(shells.front(), "reverse_shell");
  EXPECT_EQ(closest_rule_ids("x", 5).size(), 5u);
}

TEST(RuleHelp, OperatorFileNames) {
  EXPECT_EQ(operator_dismissal_file_name("acme/skills"), "acme-skills.yaml");
  EXPECT_EQ(operator_dismissal_file_name("/tmp/x y/skill"), "tmp-x-y-skill.yaml");
  EXPECT_EQ(operator_dismissal_file_name(""), "all-sources.yaml");
  EXPECT_EQ(operator_dismissal_file_name("../.."), "all-sources.yaml");
  EXPECT_LE(operator_dismissal_file_name(std::string(300, 'a')).size(), 85u);
  EXPECT_EQ(operator_dismissal_dir("/h"), fs::path("/h/guard/dismissals"));
}

TEST(RuleHelp, ExplainedReportAddsTheHelpOncePerRule) {
  ScanResult r = scan_of(TrustLevel::community, {finding_of(*find_guard_rule("curl_pipe_shell"), "SKILL.md", 2),
                                                 finding_of(*find_guard_rule("curl_pipe_shell"), "SKILL.md", 9)});
  r.skill_name = "demo";
  const RuleHelp help = *rule_help("curl_pipe_shell");
  const std::string report = format_scan_report(r, decide_install(r, false), ReportDetail::explained);
  const std::string first = "    rule curl_pipe_shell: " + std::string(help.summary) +
                            "\n      why: " + std::string(help.why) + "\n      fix: " + std::string(help.fix) + "\n";
  EXPECT_NE(report.find("\"\"\n" + first), std::string::npos) << report;
  EXPECT_NE(report.find("    rule curl_pipe_shell (see above)\n"), std::string::npos) << report;
  EXPECT_NE(report.find("skillrt scan --explain RULE (docs/guard-rules.md)"), std::string::npos) << report;
  // The rows alone stay spec §2.12 rule 10's report.
  const std::string rows = format_scan_report(r, decide_install(r, false));
  EXPECT_EQ(rows.find("rule curl_pipe_shell"), std::string::npos);
  EXPECT_EQ(format_scan_report(r, decide_install(r, false), ReportDetail::rows), rows);
}

TEST(RuleHelp, MarkdownEscapeKeepsTextLiteral) {
  EXPECT_EQ(markdown_escape("a <TOKEN> __x__ ~/.ssh |"), "a \\<TOKEN\\> \\_\\_x\\_\\_ \\~/.ssh \\|");
}

} // namespace
} // namespace skillrt::core
