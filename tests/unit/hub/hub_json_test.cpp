// JSON of the hub commands: one object, `success` first, error + code on
// failure, lock entries spelled as lock.json spells them.
#include <gtest/gtest.h>

#include "core/hub/install.hpp"
#include "hub_fixture.hpp"
#include "protocol/hub_json.hpp"

namespace skillrt::protocol {
namespace {

using namespace core::hub;

TEST(HubJson, InstallSuccessShape) {
  test::HubWorld world;
  test::FolderCopyFetcher fetcher;
  InstallRequest request;
  request.source = test::write_skill(world.tree, "src/demo", "demo").string();
  const Json json = install_outcome_json(install_skills(world.ctx, core::Config{}, fetcher, request, nullptr));
  EXPECT_EQ(json.begin().key(), "success");
  EXPECT_EQ(json["success"], true);
  EXPECT_FALSE(json.contains("error"));
  ASSERT_EQ(json["skills"].size(), 1u);
  const Json& skill = json["skills"][0];
  EXPECT_EQ(skill["outcome"], "installed");
  EXPECT_EQ(skill["scan"]["verdict"], "safe");
  EXPECT_FALSE(skill["scan"].contains("success"));
  EXPECT_EQ(skill["signature"]["status"], "unsigned");
  EXPECT_EQ(skill["signature"]["required"], false);
  std::vector<std::string> keys;
  for (auto it = skill["lock_entry"].begin(); it != skill["lock_entry"].end(); ++it) {
    keys.push_back(it.key());
  }
  EXPECT_EQ(keys,
            (std::vector<std::string>{"source", "identifier", "source_spec", "ref", "revision", "subdir", "trust_level",
                                      "scan_verdict", "scanner_version", "findings", "content_hash", "install_path",
                                      "files", "signature", "installed_at", "updated_at"}));
}

TEST(HubJson, FailureCarriesErrorAndCode) {
  UninstallOutcome outcome;
  outcome.error = Error{ErrorCode::not_found, "'x' is not a hub-installed skill", {}};
  const Json json = uninstall_outcome_json(outcome);
  EXPECT_EQ(json.begin().key(), "success");
  EXPECT_EQ(json["success"], false);
  EXPECT_EQ(json["code"], "not_found");
  EXPECT_EQ(json["error"], "'x' is not a hub-installed skill");
}

TEST(HubJson, BlockedSkillsMakeTheInstallFail) {
  InstallOutcome outcome;
  InstallReport report;
  report.name = "x";
  report.outcome = SkillOutcome::blocked;
  report.reason = "Blocked";
  outcome.skills.push_back(report);
  const Json json = install_outcome_json(outcome);
  EXPECT_EQ(json["success"], false);
  EXPECT_TRUE(json["error"].is_string());
  EXPECT_EQ(json["skills"][0]["outcome"], "blocked");
  EXPECT_TRUE(json["skills"][0]["lock_entry"].is_null());
}

TEST(HubJson, AuditReportsIssueCount) {
  AuditOutcome outcome;
  outcome.issue_count = 2;
  AuditRow row;
  row.name = "demo";
  row.drift = true;
  row.issues = {"drift", "missing"};
  outcome.rows.push_back(row);
  const Json json = audit_outcome_json(outcome);
  EXPECT_EQ(json["success"], false);
  EXPECT_EQ(json["issues"], 2);
  EXPECT_EQ(json["skills"][0]["drift"], true);
  EXPECT_EQ(json["skills"][0]["verdict"], "n/a");
}

} // namespace
} // namespace skillrt::protocol
