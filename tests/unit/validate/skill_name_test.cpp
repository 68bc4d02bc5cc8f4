// The one skill-name checker: each rule with the wording its callers show.
// (The lookup rule's cases with view's hint are in tests/unit/view/name_check_test.cpp.)
#include "core/validate/skill_name.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

std::optional<std::string> problem(std::string_view name, SkillNameRule rule) {
  auto checked = check_skill_name(name, rule);
  return checked ? std::nullopt : std::optional<std::string>(checked.error().message);
}

TEST(SkillNameCreate, AcceptsHermesNames) {
  EXPECT_EQ(problem("deploy-k8s_v1.2", SkillNameRule::create), std::nullopt);
  EXPECT_EQ(problem("0day", SkillNameRule::create), std::nullopt);
  EXPECT_EQ(problem(std::string(limits::k_max_name_length, 'a'), SkillNameRule::create), std::nullopt);
}

TEST(SkillNameCreate, RefusesEmptyLongAndBadNamesInHermesWords) {
  EXPECT_EQ(problem("", SkillNameRule::create), "Skill name is required.");
  EXPECT_EQ(problem(std::string(limits::k_max_name_length + 1, 'a'), SkillNameRule::create),
            "Skill name exceeds 64 characters.");
  for (const char* bad : {"Upper", "-lead", ".lead", "a/b", "a b", "../x", "a\\b", " deploy"}) {
    auto message = problem(bad, SkillNameRule::create);
    ASSERT_TRUE(message) << bad;
    EXPECT_EQ(message->rfind("Invalid skill name '", 0), 0U) << *message;
  }
  auto checked = check_skill_name("Upper", SkillNameRule::create);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().code, ErrorCode::invalid_argument);
}

TEST(SkillNameCreate, RefusesConfusablesAndNul) {
  // A Cyrillic 'а' (U+0430) looks like the Latin one.
  EXPECT_TRUE(problem("\xD0\xB0pi-helper", SkillNameRule::create));
  EXPECT_TRUE(problem(std::string("ab\0cd", 5), SkillNameRule::create));
}

TEST(SkillNameInstall, AcceptsOneSegmentThatCreateWouldRefuse) {
  // Third-party bundles: capitals and spaces are fine in one folder name.
  EXPECT_EQ(problem("My Skill", SkillNameRule::install), std::nullopt);
  EXPECT_EQ(problem("pdf-tools", SkillNameRule::install), std::nullopt);
}

TEST(SkillNameInstall, RefusesWhatCannotBeOneSafeFolder) {
  EXPECT_EQ(problem("a/b", SkillNameRule::install), "skill name 'a/b' must be a single path segment");
  EXPECT_EQ(problem("", SkillNameRule::install), "skill name has an empty path segment");
  EXPECT_EQ(problem("..", SkillNameRule::install), "skill name may not contain the segment '..'");
  EXPECT_EQ(problem(".hidden", SkillNameRule::install),
            "skill name segment '.hidden' starts with '.' (dot folders are never skills)");
  for (const std::string& bad : {std::string("a:b"), std::string("a\\b"), std::string("a\x01"), std::string("a\0b", 3)}) {
    auto message = problem(bad, SkillNameRule::install);
    ASSERT_TRUE(message) << bad;
    EXPECT_NE(message->find("control character"), std::string::npos) << *message;
  }
  EXPECT_EQ(problem(std::string(limits::k_max_name_length + 1, 'a'), SkillNameRule::install),
            "skill name is longer than 64 bytes");
}

TEST(SkillNameLookup, TrimsAndAcceptsPathsAndExistingNames) {
  EXPECT_EQ(check_skill_name("  mlops/axolotl \n", SkillNameRule::lookup).value(), "mlops/axolotl");
  EXPECT_EQ(check_skill_name("My Skill", SkillNameRule::lookup).value(), "My Skill");
  auto too_long = check_skill_name(std::string(limits::k_max_path_length + 1, 'a'), SkillNameRule::lookup);
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(problem("../x", SkillNameRule::lookup), "Skill name cannot contain '..' path traversal components.");
}

} // namespace
} // namespace skillrt::core
