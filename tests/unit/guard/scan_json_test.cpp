#include <gtest/gtest.h>

#include "core/guard/guard.hpp"
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
  const std::vector<std::string> expected{"success",         "verdict",       "trust_level",  "decision",
                                          "reason",          "summary",       "content_hash", "scanned_at",
                                          "scanner_version", "findings",      "dismissed",    "skill_name",
                                          "source",          "files_scanned", "bytes_scanned"};
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

TEST(Sarif, UriEncoding) {
  EXPECT_EQ(sarif_uri("a b/c#d%e.md"), "a%20b/c%23d%25e.md");
  EXPECT_EQ(sarif_uri("\xC3\xA9.md"), "%C3%A9.md");
}

} // namespace
} // namespace skillrt::protocol
