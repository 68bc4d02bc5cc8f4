// When a signature is required (flag, "all", listed levels) and what each
// signature status is allowed to do with and without that requirement.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/hub/signature.hpp"

namespace skillrt::core::hub {
namespace {

constexpr TrustLevel k_levels[] = {TrustLevel::builtin, TrustLevel::trusted, TrustLevel::community,
                                   TrustLevel::agent_created, TrustLevel::project_local};

SkillsConfig config_requiring(std::vector<std::string> levels) {
  SkillsConfig config;
  config.require_signature = std::move(levels);
  return config;
}

TEST(SignatureRequired, NothingConfiguredNothingRequired) {
  for (const TrustLevel level : k_levels) {
    EXPECT_FALSE(signature_required(SkillsConfig{}, level, false)) << trust_level_name(level);
  }
}

TEST(SignatureRequired, TheFlagRequiresItAtEveryLevel) {
  for (const TrustLevel level : k_levels) {
    EXPECT_TRUE(signature_required(SkillsConfig{}, level, true)) << trust_level_name(level);
    EXPECT_TRUE(signature_required(config_requiring({"community"}), level, true)) << trust_level_name(level);
  }
}

TEST(SignatureRequired, AllRequiresItAtEveryLevel) {
  for (const TrustLevel level : k_levels) {
    EXPECT_TRUE(signature_required(config_requiring({"all"}), level, false)) << trust_level_name(level);
    EXPECT_TRUE(signature_required(config_requiring({"bogus", "ALL"}), level, false)) << trust_level_name(level);
  }
}

TEST(SignatureRequired, ListedLevelsOnly) {
  const SkillsConfig config = config_requiring({"community", "agent-created"});
  EXPECT_FALSE(signature_required(config, TrustLevel::builtin, false));
  EXPECT_FALSE(signature_required(config, TrustLevel::trusted, false));
  EXPECT_TRUE(signature_required(config, TrustLevel::community, false));
  EXPECT_TRUE(signature_required(config, TrustLevel::agent_created, false));
  EXPECT_FALSE(signature_required(config, TrustLevel::project_local, false));
}

TEST(SignatureRequired, EveryLevelNameIsRecognised) {
  for (const TrustLevel level : k_levels) {
    const SkillsConfig config = config_requiring({trust_level_name(level)});
    for (const TrustLevel other : k_levels) {
      EXPECT_EQ(signature_required(config, other, false), other == level)
          << trust_level_name(level) << " listed, asking about " << trust_level_name(other);
    }
  }
}

TEST(SignatureRequired, NearMissSpellingsRequireMoreNotLess) {
  EXPECT_TRUE(signature_required(config_requiring({"Community"}), TrustLevel::community, false));
  EXPECT_TRUE(signature_required(config_requiring({"project_local"}), TrustLevel::project_local, false));
  EXPECT_TRUE(signature_required(config_requiring({"AGENT_CREATED"}), TrustLevel::agent_created, false));
}

TEST(SignatureRequired, UnknownNamesAreIgnored) {
  const SkillsConfig config = config_requiring({"bogus", "", "al", "communit", "community ", "*"});
  for (const TrustLevel level : k_levels) {
    EXPECT_FALSE(signature_required(config, level, false)) << trust_level_name(level);
  }
}

SignatureCheck check_of(SignatureStatus status) {
  SignatureCheck check;
  check.status = status;
  check.key = "ed25519:AAAA";
  check.message = std::string("status says ") + signature_status_name(status);
  return check;
}

TEST(ApplySignaturePolicy, Matrix) {
  struct Row {
    SignatureStatus status;
    bool required;
    bool allowed;
  };
  const Row rows[] = {
      {SignatureStatus::unsigned_bundle, false, true}, {SignatureStatus::unsigned_bundle, true, false},
      {SignatureStatus::valid, false, true},           {SignatureStatus::valid, true, true},
      {SignatureStatus::untrusted_key, false, true},   {SignatureStatus::untrusted_key, true, false},
      {SignatureStatus::invalid, false, false},        {SignatureStatus::invalid, true, false},
  };
  for (const Row& row : rows) {
    const SignatureCheck check = check_of(row.status);
    const Result<void> decision = apply_signature_policy(check, row.required);
    EXPECT_EQ(decision.has_value(), row.allowed)
        << signature_status_name(row.status) << (row.required ? " required" : " not required");
    if (!decision) {
      EXPECT_EQ(decision.error().code, ErrorCode::refused);
      // The refusal carries the check's own sentence, so the user sees why.
      EXPECT_NE(decision.error().message.find(check.message), std::string::npos) << decision.error().message;
    }
  }
}

TEST(ApplySignaturePolicy, RequiredRefusalSaysWhatIsRequired) {
  const Result<void> decision = apply_signature_policy(check_of(SignatureStatus::unsigned_bundle), true);
  ASSERT_FALSE(decision);
  EXPECT_NE(decision.error().message.find("skills.trusted_keys"), std::string::npos);
  EXPECT_NE(decision.error().message.find("--require-signature"), std::string::npos);
}

TEST(SignatureStatusName, Names) {
  EXPECT_STREQ(signature_status_name(SignatureStatus::unsigned_bundle), "unsigned");
  EXPECT_STREQ(signature_status_name(SignatureStatus::valid), "valid");
  EXPECT_STREQ(signature_status_name(SignatureStatus::untrusted_key), "untrusted-key");
  EXPECT_STREQ(signature_status_name(SignatureStatus::invalid), "invalid");
}

} // namespace
} // namespace skillrt::core::hub
