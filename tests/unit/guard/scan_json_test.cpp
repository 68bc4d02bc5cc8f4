#include <gtest/gtest.h>

#include "core/guard/guard.hpp"
#include "core/guard/rule_help.hpp"
#include "protocol/sarif.hpp"
#include "protocol/scan_json.hpp"

namespace skillrt::protocol {
namespace {

core::ScanResult sample() {
  core::ScanResult r;
  r.skill_name = "demo";
  r.source = "community";
  r.verdict = core::Verdict::caution;
  core::GuardFinding f;
  f.pattern_id = "invisible_unicode";
  f.severity = core::ThreatSeverity::high;
  f.category = core::ThreatCategory::injection;
  f.file = "references/my notes.md";
  f.line = 4;
  f.column = 7;
  f.snippet = "U+200B (zero width space)";
  f.description = "Invisible";
  r.findings.push_back(f);
  core::GuardFinding d = f;
  d.pattern_id = "unexpected_executable";
  d.severity = core::ThreatSeverity::medium;
  d.category = core::ThreatCategory::structural;
  d.file = "";
  d.line = 0;
  d.column = 0;
  r.dismissed.push_back({d, "fine", ".skillrt-guard.yaml"});
  r.content_hash = "sha256:0123456789abcdef";
  return r;
}

TEST(ScanJson, Shape) {
  const core::ScanResult r = sample();
  const Json j = scan_result_json(r, core::decide_install(r, false));
  std::vector<std::string> keys;
  for (const auto& item : j.items()) {
    keys.push_back(item.key());
  }
  const std::vector<std::string> expected{"success",         "verdict",       "trust_level",   "decision",
                                          "reason",          "summary",       "content_hash",  "scanned_at",
                                          "scanner_version", "findings",      "dismissed",     "skill_name",
                                          "source",          "files_scanned", "bytes_scanned", "rules"};
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(j["decision"], "block");
  EXPECT_EQ(j["findings"][0]["match"], "U+200B (zero width space)");
  EXPECT_EQ(j["findings"][0]["column"], 7);
  EXPECT_EQ(j["dismissed"][0]["reason"], "fine");
  EXPECT_EQ(j["dismissed"][0]["dismissed_by"], ".skillrt-guard.yaml");
}

TEST(Sarif, RequiredFields) {
  const core::ScanResult r = sample();
  const Json s = scan_result_sarif(r, core::decide_install(r, false));
  EXPECT_EQ(s["version"], "2.1.0");
  EXPECT_EQ(s["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  const Json& run = s["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "skillrt-guard");
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), 2u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], "invisible_unicode");
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"], "error");
  ASSERT_EQ(run["results"].size(), 2u);
  const Json& first = run["results"][0];
  EXPECT_EQ(first["level"], "error");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "references/my%20notes.md");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startLine"], 4);
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startColumn"], 7);
  EXPECT_EQ(first["partialFingerprints"]["skillrtFinding/v1"].get<std::string>().size(), 32u);
  const Json& suppressed = run["results"][1];
  EXPECT_EQ(suppressed["level"], "warning");
  EXPECT_EQ(suppressed["suppressions"][0]["kind"], "external");
  EXPECT_FALSE(suppressed["locations"][0]["physicalLocation"].contains("region"));
}

TEST(ScanJson, RulesCarryTheHelpOfEveryReportedId) {
  const core::ScanResult r = sample();
  const Json j = scan_result_json(r, core::decide_install(r, false));
  ASSERT_EQ(j["rules"].size(), 2u); // the finding's rule and the dismissed one's
  for (const char* id : {"invisible_unicode", "unexpected_executable"}) {
    const core::RuleHelp help = *core::rule_help(id);
    const Json& entry = j["rules"][id];
    EXPECT_EQ(entry["summary"], std::string(help.summary)) << id;
    EXPECT_EQ(entry["why"], std::string(help.why)) << id;
    EXPECT_EQ(entry["fix"], std::string(help.fix)) << id;
    EXPECT_EQ(entry["help_uri"], core::help_uri(id)) << id;
  }
  // An id the table does not know still gets its URI, nothing invented.
  EXPECT_EQ(rule_help_json("no_such_rule"), Json({{"help_uri", "docs/guard-rules.md#rule-no_such_rule"}}));
}

TEST(ScanJson, ExplanationOfARule) {
  const Json high = rule_explanation_json(*core::find_guard_rule("curl_pipe_shell"), "/h/guard/dismissals");
  EXPECT_EQ(high["severity"], "high");
  EXPECT_EQ(high["category"], "supply_chain");
  EXPECT_EQ(high["dismiss"]["skill_file"]["file"], ".skillrt-guard.yaml");
  EXPECT_EQ(high["dismiss"]["skill_file"]["yaml"],
            "dismiss:\n  - id: curl_pipe_shell\n    file: SKILL.md\n    line: 12\n    reason: <fill in why>\n");
  EXPECT_EQ(high["dismiss"]["operator_file"]["file"], "/h/guard/dismissals/example-org-skills.yaml");
  EXPECT_EQ(high["dismiss"]["operator_file"]["yaml"].get<std::string>().rfind("source: example-org/skills\n", 0), 0u);
  const Json critical = rule_explanation_json(*core::find_guard_rule("binary_file"), "/h/guard/dismissals/");
  EXPECT_TRUE(critical["dismiss"]["skill_file"].is_null());
  EXPECT_EQ(critical["dismiss"]["operator_file"]["file"], "/h/guard/dismissals/example-org-skills.yaml");
  EXPECT_NE(critical["dismiss"]["note"].get<std::string>().find("critical"), std::string::npos);
  const Json never = rule_explanation_json(*core::find_guard_rule("malformed_dismissals"), "/h");
  EXPECT_TRUE(never["dismiss"]["skill_file"].is_null());
  EXPECT_TRUE(never["dismiss"]["operator_file"].is_null());
}

TEST(Sarif, RulesCarryHelpAndAHelpUriOnlyWhenItCanBeAbsolute) {
  const core::ScanResult r = sample();
  const Json s = scan_result_sarif(r, core::decide_install(r, false));
  for (const Json& rule : s["runs"][0]["tool"]["driver"]["rules"]) {
    const std::string id = rule["id"];
    const core::RuleHelp help = *core::rule_help(id);
    EXPECT_EQ(rule["fullDescription"]["text"], std::string(help.why)) << id;
    const std::string text = rule["help"]["text"];
    const std::string markdown = rule["help"]["markdown"];
    EXPECT_NE(text.find(std::string(help.fix)), std::string::npos) << id;
    EXPECT_NE(text.find(core::help_uri(id)), std::string::npos) << id;
    EXPECT_NE(markdown.find("**Fix:** " + core::markdown_escape(help.fix)), std::string::npos) << id;
    EXPECT_NE(markdown.find("skillrt scan --explain " + id), std::string::npos) << id;
    // SARIF's helpUri is an absolute URI: without a base there is none.
    EXPECT_FALSE(rule.contains("helpUri")) << id;
  }
  const Json based = scan_result_sarif(r, core::decide_install(r, false), "https://example.org/skillrt/blob/main");
  for (const Json& rule : based["runs"][0]["tool"]["driver"]["rules"]) {
    EXPECT_EQ(rule["helpUri"],
              "https://example.org/skillrt/blob/main/" + core::help_uri(rule["id"].get<std::string>()));
  }
  EXPECT_TRUE(valid_help_base_url("https://example.org/x/"));
  EXPECT_TRUE(valid_help_base_url("http://localhost:8080"));
  EXPECT_FALSE(valid_help_base_url("docs/"));
  EXPECT_FALSE(valid_help_base_url("https://"));
  EXPECT_FALSE(valid_help_base_url("https:///x"));
  EXPECT_FALSE(valid_help_base_url("https://a b"));
  EXPECT_FALSE(valid_help_base_url("javascript:alert(1)"));
}

// A flow finding carries its source line: related_line in JSON, a related
// location in SARIF; other findings carry neither.
TEST(ScanJson, FlowFindingsCarryTheirSourceLine) {
  core::ScanResult r = sample();
  core::GuardFinding flow = r.findings[0];
  flow.pattern_id = "secret_file_flow";
  flow.severity = core::ThreatSeverity::critical;
  flow.category = core::ThreatCategory::exfiltration;
  flow.file = "scripts/sync.py";
  flow.line = 30;
  flow.related_line = 12;
  r.findings.push_back(flow);
  const Json j = scan_result_json(r, core::decide_install(r, false));
  EXPECT_FALSE(j["findings"][0].contains("related_line"));
  EXPECT_EQ(j["findings"][1]["related_line"], 12);
  const Json s = scan_result_sarif(r, core::decide_install(r, false));
  std::size_t with_source = 0;
  for (const Json& result : s["runs"][0]["results"]) {
    if (result["ruleId"] != "secret_file_flow") {
      EXPECT_FALSE(result.contains("relatedLocations")) << result["ruleId"];
      continue;
    }
    ++with_source;
    EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 12);
    EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"], "scripts/sync.py");
  }
  EXPECT_EQ(with_source, 1U);
}

TEST(Sarif, UriEncoding) {
  EXPECT_EQ(sarif_uri("a b/c#d%e.md"), "a%20b/c%23d%25e.md");
  EXPECT_EQ(sarif_uri("\xC3\xA9.md"), "%C3%A9.md");
}

} // namespace
} // namespace skillrt::protocol
