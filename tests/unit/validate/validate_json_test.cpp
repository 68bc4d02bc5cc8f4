#include "protocol/validate_json.hpp"

#include <gtest/gtest.h>

#include "temp_skill_dir.hpp"

namespace skillrt::protocol {
namespace {

TEST(ValidateJson, ShapeOfAValidRun) {
  test::TempSkillDir tmp;
  auto dir = tmp.skill("ok", "---\nname: ok\ndescription: d\n---\nbody\n");
  ValidateOutcome outcome = run_validate({dir.string()}, true, false);
  EXPECT_TRUE(outcome.ok);
  const Json& json = outcome.json;
  EXPECT_EQ(json["success"], true);
  EXPECT_EQ(json["valid"], true);
  EXPECT_FALSE(json.contains("error"));
  EXPECT_EQ(json["error_count"], 0);
  EXPECT_EQ(json["warning_count"], 0);
  ASSERT_EQ(json["results"].size(), 1U);
  const Json& result = json["results"][0];
  EXPECT_EQ(result["path"], dir.string());
  EXPECT_EQ(result["skill_md"], (dir / "SKILL.md").string());
  EXPECT_EQ(result["valid"], true);
  EXPECT_TRUE(result["findings"].empty());
  EXPECT_NE(outcome.text.find("1 skill checked: 1 valid"), std::string::npos);
}

TEST(ValidateJson, FindingsCarryRuleSeverityAndPosition) {
  test::TempSkillDir tmp;
  auto good = tmp.skill("good", "---\nname: good\ndescription: d\n---\nbody\n");
  auto bad = tmp.skill("Bad Dir", "---\nname: Bad\ndescription: d\n---\nbody\n");
  ValidateOutcome outcome = run_validate({good.string(), bad.string(), (tmp.root() / "none").string()}, false, false);
  EXPECT_FALSE(outcome.ok);
  const Json& json = outcome.json;
  EXPECT_EQ(json["success"], false);
  EXPECT_EQ(json["valid"], false);
  EXPECT_EQ(json["error"], "2 of 3 skills invalid (2 errors)");
  EXPECT_EQ(json["error_count"], 2);
  ASSERT_EQ(json["results"].size(), 3U);
  EXPECT_EQ(json["results"][0]["valid"], true);
  const Json& findings = json["results"][1]["findings"];
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0]["rule"], "hermes.dir_name");
  EXPECT_EQ(findings[0]["severity"], "error");
  EXPECT_TRUE(findings[0]["line"].is_null());
  EXPECT_TRUE(findings[0]["column"].is_null());
  bool saw_uppercase = false;
  for (const Json& finding : findings) {
    if (finding["rule"] == "name.uppercase") {
      saw_uppercase = true;
      EXPECT_EQ(finding["severity"], "warning");
      EXPECT_EQ(finding["line"], 2);
      EXPECT_EQ(finding["column"], 7);
      EXPECT_TRUE(finding["message"].is_string());
    }
  }
  EXPECT_TRUE(saw_uppercase);
  EXPECT_EQ(json["results"][2]["skill_md"], nullptr);
  EXPECT_EQ(json["results"][2]["findings"][0]["rule"], "path.not_found");
  // Key order is part of the contract for people reading the output.
  std::vector<std::string> keys;
  for (auto it = json.begin(); it != json.end(); ++it) {
    keys.push_back(it.key());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"success", "error", "valid", "error_count", "warning_count", "info_count",
                                            "results"}));
}

TEST(ValidateJson, StrictModeChangesTheVerdict) {
  test::TempSkillDir tmp;
  auto dir = tmp.skill("style", "---\nname: style\ndescription: d\nauthor: me\n---\nbody\n");
  EXPECT_TRUE(run_validate({dir.string()}, false, false).ok);
  EXPECT_FALSE(run_validate({dir.string()}, true, false).ok);
}

} // namespace
} // namespace skillrt::protocol
