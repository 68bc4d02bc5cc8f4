// Command slugs and Telegram forms (spec §2.15 rules 1 and 4).
#include "core/commands/slug.hpp"

#include <gtest/gtest.h>

#include "core/commands/builtin_commands.hpp"

namespace skillrt::test {
namespace {

using core::slugify_skill_name;
using core::telegram_command_form;

TEST(Slugify, AsciiNames) {
  EXPECT_EQ(slugify_skill_name("Deploy Staging"), "deploy-staging");
  EXPECT_EQ(slugify_skill_name("git-helper"), "git-helper");
  EXPECT_EQ(slugify_skill_name("  Spaces  Around  "), "spaces-around");
  EXPECT_EQ(slugify_skill_name("a - b"), "a-b");
}

TEST(Slugify, UnderscoresAndDigitsAreKept) {
  EXPECT_EQ(slugify_skill_name("snake_case_2"), "snake_case_2");
  EXPECT_EQ(slugify_skill_name("__init__"), "__init__");
}

TEST(Slugify, PunctuationIsDropped) {
  EXPECT_EQ(slugify_skill_name("what's up?"), "whats-up");
  EXPECT_EQ(slugify_skill_name("c++ & rust!"), "c-rust");
  EXPECT_EQ(slugify_skill_name("v1.2.3"), "v123");
  EXPECT_EQ(slugify_skill_name("«quoted» — dash…"), "quoted-dash");
  EXPECT_EQ(slugify_skill_name("emoji 🚀 launch"), "emoji-launch");
}

TEST(Slugify, NonAsciiLettersAreKept) {
  EXPECT_EQ(slugify_skill_name("小说拆条"), "小说拆条");
  EXPECT_EQ(slugify_skill_name("日本語、テスト。"), "日本語テスト");
  EXPECT_EQ(slugify_skill_name("Résumé Writer"), "résumé-writer");
  EXPECT_EQ(slugify_skill_name("ПРИВЕТ мир"), "привет-мир");
  EXPECT_EQ(slugify_skill_name("Ωmega"), "ωmega");
}

TEST(Slugify, NothingLeftMeansNoCommand) {
  EXPECT_EQ(slugify_skill_name("!!!"), "");
  EXPECT_EQ(slugify_skill_name(" - "), "");
  EXPECT_EQ(slugify_skill_name("\xff\xfe"), "");
}

TEST(TelegramForm, AsciiCommands) {
  EXPECT_EQ(telegram_command_form("deploy-staging"), "deploy_staging");
  EXPECT_EQ(telegram_command_form("Deploy__Staging"), "deploy_staging");
  EXPECT_EQ(telegram_command_form("-x-"), "x");
  EXPECT_EQ(telegram_command_form("v1.2"), "v12");
}

TEST(TelegramForm, NonAsciiLettersCannotBeTyped) {
  EXPECT_EQ(telegram_command_form("小说拆条"), "");
  EXPECT_EQ(telegram_command_form("résumé"), "");
  // Dropped punctuation is fine.
  EXPECT_EQ(telegram_command_form("a—b"), "ab");
}

TEST(BuiltinCommands, SortedAndCoverTheCore) {
  const auto list = core::builtin_commands();
  EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
  for (const char* name : {"help", "skills", "skill", "clear", "new", "reset", "model"}) {
    EXPECT_TRUE(core::is_builtin_command(name)) << name;
  }
  EXPECT_FALSE(core::is_builtin_command("deploy"));
}

} // namespace
} // namespace skillrt::test
