// Skill names one slip from a well-known name (typosquatting).
#include "core/guard/name_lookalike.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace skillrt::core {
namespace {

std::vector<GuardFinding> scan_name(const std::string& name) {
  std::vector<GuardFinding> out;
  find_lookalike_name("SKILL.md", "---\nname: " + name + "\ndescription: d\n---\n\nBody.\n", out);
  return out;
}

TEST(NameLookalike, SlipsOfDistinctiveNamesAndEverydayWords) {
  EXPECT_EQ(imitated_name("githib"), "github");     // one letter changed
  EXPECT_EQ(imitated_name("pyetst"), "pytest");     // neighbours swapped
  EXPECT_EQ(imitated_name("kubectll"), "kubectl");  // a letter doubled
  EXPECT_EQ(imitated_name("valdiator"), "validator");
  EXPECT_EQ(imitated_name("scannner"), "scanner");
}

TEST(NameLookalike, RealWordsAndNamesAreLeftAlone) {
  for (const char* word : {"github", "parser", "manage", "tester", "pester", "openapi", "stride", "write", "agents",
                           "lister", "bazel", "llama", "helpers", "configs", "docs", "api"}) {
    EXPECT_FALSE(imitated_name(word)) << word;
  }
  // Everyday words only count a swap or a doubled letter: one changed letter
  // too often makes another word.
  EXPECT_FALSE(imitated_name("monitors"));
  EXPECT_FALSE(imitated_name("logged"));
}

TEST(NameLookalike, FindingNamesTheImitatedWordAndTheLine) {
  const auto findings = scan_name("reqeusts-helper");
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(findings[0].pattern_id, "name_lookalike");
  EXPECT_EQ(findings[0].severity, ThreatSeverity::high);
  EXPECT_EQ(findings[0].line, 2U);
  EXPECT_NE(findings[0].description.find("\"requests\""), std::string::npos);
  EXPECT_TRUE(scan_name("requests-helper").empty());
  EXPECT_TRUE(scan_name("\"json-formatter\"").empty());
}

TEST(NameLookalike, NoFrontmatterOrNoNameIsNoFinding) {
  std::vector<GuardFinding> out;
  find_lookalike_name("SKILL.md", "# githib\n", out);
  find_lookalike_name("SKILL.md", "---\ndescription: githib\n---\n", out);
  find_lookalike_name("SKILL.md", "---\nname: x\n", out);
  EXPECT_TRUE(out.empty());
}

} // namespace
} // namespace skillrt::core
