#include <gtest/gtest.h>

#include <string>

#include "core/guard/guard.hpp"

namespace skillrt::core {
namespace {

ScanResult result(TrustLevel trust, Verdict verdict, std::size_t findings = 2) {
  ScanResult r;
  r.trust = trust;
  r.verdict = verdict;
  r.findings.resize(findings);
  return r;
}

struct Cell {
  TrustLevel trust;
  Verdict verdict;
  InstallDecision without_force;
  InstallDecision with_force;
};

TEST(Policy, EveryCellOfTheMatrix) {
  using D = InstallDecision;
  using T = TrustLevel;
  using V = Verdict;
  const Cell cells[] = {
      {T::builtin, V::safe, D::allow, D::allow},
      {T::builtin, V::caution, D::allow, D::allow},
      {T::builtin, V::dangerous, D::allow, D::allow},
      {T::trusted, V::safe, D::allow, D::allow},
      {T::trusted, V::caution, D::allow, D::allow},
      {T::trusted, V::dangerous, D::block, D::block},
      {T::community, V::safe, D::allow, D::allow},
      {T::community, V::caution, D::block, D::allow},
      {T::community, V::dangerous, D::block, D::block},
      {T::agent_created, V::safe, D::allow, D::allow},
      {T::agent_created, V::caution, D::allow, D::allow},
      {T::agent_created, V::dangerous, D::ask, D::allow},
      {T::project_local, V::safe, D::allow, D::allow},
      {T::project_local, V::caution, D::allow, D::allow},
      {T::project_local, V::dangerous, D::block, D::block},
  };
  for (const Cell& c : cells) {
    const ScanResult r = result(c.trust, c.verdict);
    EXPECT_EQ(decide_install(r, false).decision, c.without_force)
        << trust_level_name(c.trust) << "/" << verdict_name(c.verdict);
    EXPECT_EQ(decide_install(r, true).decision, c.with_force)
        << trust_level_name(c.trust) << "/" << verdict_name(c.verdict) << " --force";
  }
}

TEST(Policy, ReasonTexts) {
  EXPECT_EQ(decide_install(result(TrustLevel::community, Verdict::safe), false).reason,
            "Allowed (community source, safe verdict)");
  EXPECT_EQ(decide_install(result(TrustLevel::community, Verdict::caution), false).reason,
            "Blocked (community source + caution verdict, 2 findings). Use --force to override.");
  EXPECT_EQ(decide_install(result(TrustLevel::community, Verdict::caution), true).reason,
            "Force-installed despite caution verdict (2 findings)");
  EXPECT_EQ(decide_install(result(TrustLevel::trusted, Verdict::dangerous), true).reason,
            "Blocked (trusted source + dangerous verdict, 2 findings). --force does not override a dangerous verdict.");
  EXPECT_EQ(decide_install(result(TrustLevel::agent_created, Verdict::dangerous), false).reason,
            "Requires confirmation (agent-created source + dangerous verdict, 2 findings)");
}

TEST(TrustLevels, FromSource) {
  EXPECT_EQ(trust_level_for_source("official"), TrustLevel::builtin);
  EXPECT_EQ(trust_level_for_source("agent-created"), TrustLevel::agent_created);
  EXPECT_EQ(trust_level_for_source("project-local"), TrustLevel::project_local);
  for (const char* s : {"openai/skills", "anthropics/skills", "huggingface/skills", "NVIDIA/skills",
                        "openai/skills/skills/pdf", "skills-sh/anthropics/skills", "skills.sh/openai/skills/x",
                        "skils-sh/huggingface/skills", "skils.sh/NVIDIA/skills"}) {
    EXPECT_EQ(trust_level_for_source(s), TrustLevel::trusted) << s;
  }
  for (const char* s : {"", "community", "openai/skills-evil", "someone/skills", "https://example.com/x.zip",
                        "skills-sh/skills-sh/openai/skills", "clawhub/x", "nvidia/skills"}) {
    EXPECT_EQ(trust_level_for_source(s), TrustLevel::community) << s;
  }
}

TEST(Names, AllNamed) {
  EXPECT_STREQ(verdict_name(Verdict::caution), "caution");
  EXPECT_STREQ(trust_level_name(TrustLevel::agent_created), "agent-created");
  EXPECT_STREQ(trust_level_name(TrustLevel::project_local), "project-local");
  EXPECT_STREQ(install_decision_name(InstallDecision::ask), "ask");
  EXPECT_STREQ(threat_severity_name(ThreatSeverity::medium), "medium");
  EXPECT_STREQ(category_name(ThreatCategory::privilege_escalation), "privilege_escalation");
  EXPECT_STREQ(category_name(ThreatCategory::structural), "structural");
}

TEST(Verdict, FromFindings) {
  std::vector<GuardFinding> findings(3);
  findings[0].severity = ThreatSeverity::low;
  findings[1].severity = ThreatSeverity::medium;
  findings[2].severity = ThreatSeverity::low;
  EXPECT_EQ(verdict_for(findings), Verdict::safe);
  findings[1].severity = ThreatSeverity::high;
  EXPECT_EQ(verdict_for(findings), Verdict::caution);
  findings[2].severity = ThreatSeverity::critical;
  EXPECT_EQ(verdict_for(findings), Verdict::dangerous);
  EXPECT_EQ(verdict_for({}), Verdict::safe);
}

} // namespace
} // namespace skillrt::core
