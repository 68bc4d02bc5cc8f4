#include <gtest/gtest.h>

#include <string>

#include "core/guard/guard.hpp"

namespace skillrt::core {
namespace {

GuardFinding finding(const char* id, ThreatSeverity severity, ThreatCategory category, const char* file, std::size_t line,
                     std::string snippet) {
  GuardFinding f;
  f.pattern_id = id;
  f.severity = severity;
  f.category = category;
  f.file = file;
  f.line = line;
  f.snippet = std::move(snippet);
  return f;
}

TEST(Report, Format) {
  ScanResult r;
  r.skill_name = "demo";
  r.source = "community";
  r.trust = TrustLevel::community;
  r.verdict = Verdict::dangerous;
  r.findings.push_back(finding("too_many_files", ThreatSeverity::medium, ThreatCategory::structural, "", 0, ""));
  r.findings.push_back(
      finding("fork_bomb", ThreatSeverity::critical, ThreatCategory::destructive, "scripts/x.sh", 3, std::string(80, 'z')));
  r.dismissed.push_back(DismissedFinding{
      finding("ssh_dir_access", ThreatSeverity::high, ThreatCategory::exfiltration, "SKILL.md", 12, "ls ~/.ssh"),
      "documents where keys live", ".skillrt-guard.yaml"});
  const PolicyDecision d = decide_install(r, false);
  const std::string report = format_scan_report(r, d);
  const std::string expected = "Scan: demo (community/community)  Verdict: DANGEROUS\n"
                               "  CRITICAL destructive    scripts/x.sh:3                 \"" +
                               std::string(57, 'z') +
                               "...\"\n"
                               "  MEDIUM   structural     (directory)                    \"\"\n"
                               "\n"
                               "Dismissed:\n"
                               "  HIGH     exfiltration   SKILL.md:12                    \"ls ~/.ssh\"\n"
                               "    reason: documents where keys live (.skillrt-guard.yaml)\n"
                               "\n"
                               "Decision: BLOCKED \u2014 Blocked (community source + dangerous verdict, 2 findings). "
                               "--force does not override a dangerous verdict.\n";
  EXPECT_EQ(report, expected);
}

TEST(Report, CleanAndAsk) {
  ScanResult r;
  r.skill_name = "ok";
  r.source = "agent-created";
  r.trust = TrustLevel::agent_created;
  EXPECT_EQ(format_scan_report(r, decide_install(r, false)),
            "Scan: ok (agent-created/agent-created)  Verdict: SAFE\n\n"
            "Decision: ALLOWED \u2014 Allowed (agent-created source, safe verdict)\n");
  r.verdict = Verdict::dangerous;
  EXPECT_NE(format_scan_report(r, decide_install(r, false)).find("Decision: NEEDS CONFIRMATION"), std::string::npos);
}

TEST(ScannerVersion, NamesRulesAndTable) {
  const std::string_view v = scanner_version();
  EXPECT_EQ(v.substr(0, 16), "skillrt-guard-2+");
  EXPECT_EQ(v.size(), 28u);
  EXPECT_EQ(v, scanner_version());
}

} // namespace
} // namespace skillrt::core
