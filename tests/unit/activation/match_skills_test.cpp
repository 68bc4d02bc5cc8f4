// Matching over the three layers with a real catalog and a real store (SQLite
// and PostgreSQL): ranking and reasons, off-topic messages, layer precedence,
// user isolation, hidden skills, the memo a server keeps, and bad requests.
#include "core/activation/match_skills.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "support/temp_tree.hpp"
#include "unit/store/store_test_env.hpp"

namespace skillrt::test {
namespace {

using Names = std::vector<std::string>;

class MatchSkills : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string skip;
    m_env = make_store_env(GetParam(), skip);
    if (!m_env) {
      GTEST_SKIP() << skip;
    }
    m_tree.mkdir("home/skills");
    m_tree.mkdir("cwd");
    ctx.home = m_tree.path() / "home";
    ctx.cwd = m_tree.path() / "cwd";
    ctx.os = "linux";
    ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    auto opened = m_env->open();
    ASSERT_TRUE(opened) << opened.error().message;
    store = std::move(*opened);
    shared_skill("security/web-pentest",
                 "name: web-pentest\ndescription: Test a web app for vulnerabilities.\ntriggers:\n"
                 "  - \"pentest [URL]\"\n  - \"security test this web app\"\n  - \"find vulns in [URL]\"\n");
    shared_skill("music/songwriting",
                 "name: songwriting\ndescription: Write songs.\ntriggers: [writing a song, song lyrics, suno prompt]\n");
    shared_skill("frontend/ts-style",
                 "name: ts-style\ndescription: House style for TypeScript.\npaths:\n  - \"src/**/*.{ts,tsx}\"\n");
    shared_skill("notes", "name: notes\ndescription: Keep notes about songs and pentests.\n");
  }

  std::filesystem::path shared_skill(const std::string& rel, const std::string& frontmatter) {
    return m_tree.write("home/skills/" + rel + "/SKILL.md", "---\n" + frontmatter + "---\nBody.\n");
  }
  std::filesystem::path user_skill(const std::string& user, const std::string& rel, const std::string& frontmatter) {
    return m_tree.write("home/users/" + user + "/skills/" + rel + "/SKILL.md", "---\n" + frontmatter + "---\nBody.\n");
  }
  void db_skill(const std::string& user, const std::string& name, const std::string& frontmatter) {
    core::NewDbSkill skill;
    skill.name = name;
    skill.description = "Database " + name;
    skill.content = "---\nname: " + name + "\ndescription: Database " + name + "\n" + frontmatter + "---\nBody.\n";
    auto created = store->create_skill(user, skill);
    ASSERT_TRUE(created) << created.error().message;
  }
  core::Context as(std::optional<std::string> user) const {
    core::Context other = ctx;
    other.user_id = std::move(user);
    return other;
  }
  Result<core::SkillMatch> match(const core::Context& who, const std::string& message,
                                 std::vector<std::string> paths = {}, std::size_t limit = 5) {
    const core::Catalog catalog = core::build_catalog(who, cfg);
    core::MatchRequest request{message, std::move(paths), limit};
    return core::match_skills_in(who, catalog, *store, request);
  }
  static Names names(const Result<core::SkillMatch>& found) {
    Names out;
    if (found) {
      for (const auto& hit : found->results) {
        out.push_back(hit.name);
      }
    }
    return out;
  }

  std::unique_ptr<StoreEnv> m_env;
  TempTree m_tree;
  core::Context ctx;
  core::Config cfg;
  std::unique_ptr<core::SkillStore> store;
};

TEST_P(MatchSkills, FiresWithReasons) {
  const auto found = match(ctx, "Can you pentest https://shop.example/login and find vulns in the API?");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(names(found), (Names{"web-pentest"}));
  const core::SkillActivation& hit = found->results.front();
  EXPECT_EQ(hit.source, core::Layer::shared);
  EXPECT_EQ(hit.description, "Test a web app for vulnerabilities.");
  ASSERT_TRUE(hit.path.has_value());
  EXPECT_TRUE(hit.path->ends_with("security/web-pentest/SKILL.md"));
  // Strongest first: "find vulns in [URL]" has two content words to one.
  ASSERT_EQ(hit.reasons.size(), 2U);
  EXPECT_EQ(hit.reasons[0].trigger, "find vulns in [URL]");
  EXPECT_EQ(hit.reasons[0].matched, "find vulns in the");  // a placeholder takes as few words as it can
  EXPECT_EQ(hit.reasons[1].trigger, "pentest [URL]");
  EXPECT_EQ(hit.reasons[1].matched, "pentest https://shop.example/login");
}

TEST_P(MatchSkills, OffTopicMessagesMatchNothing) {
  for (const char* message : {"What's the weather in Lisbon tomorrow?", "thanks, that worked", "Summarise this article",
                              "notes"}) {
    const auto found = match(ctx, message);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_TRUE(found->results.empty()) << message << " fired " << found->results.front().name;
  }
}

TEST_P(MatchSkills, RanksMoreSpecificReasonsFirstAndHonoursTheLimit) {
  const auto found = match(ctx, "song lyrics for a pentest of https://a.example");
  ASSERT_TRUE(found) << found.error().message;
  // Both fire by a phrase; "song lyrics" has two content words to
  // "pentest [URL]"'s one, so it is the more specific.
  EXPECT_EQ(names(found), (Names{"songwriting", "web-pentest"}));
  EXPECT_GT(found->results[0].score, found->results[1].score);
  EXPECT_EQ(names(match(ctx, "song lyrics for a pentest of https://a.example", {}, 1)), (Names{"songwriting"}));
}

TEST_P(MatchSkills, PathsActivateAndLimit) {
  EXPECT_EQ(names(match(ctx, "", {"src/ui/button.tsx"})), (Names{"ts-style"}));
  // An absolute path under the working directory counts from there.
  EXPECT_EQ(names(match(ctx, "", {(ctx.cwd / "src/a.ts").string()})), (Names{"ts-style"}));
  EXPECT_TRUE(match(ctx, "", {"docs/readme.md"})->results.empty());
}

TEST_P(MatchSkills, DatabaseSkillShadowsAFileSkillOfTheSameName) {
  db_skill("alice", "songwriting", "triggers: [compose a melody]\n");
  // Alice's row has other triggers: the shared file skill's no longer fire for her.
  EXPECT_TRUE(match(as("alice"), "song lyrics")->results.empty());
  const auto found = match(as("alice"), "compose a melody for me");
  ASSERT_EQ(names(found), (Names{"songwriting"}));
  EXPECT_EQ(found->results[0].source, core::Layer::database);
  EXPECT_TRUE(found->results[0].id.has_value());
  // Bob still gets the shared one, and never Alice's row.
  EXPECT_EQ(names(match(as("bob"), "song lyrics")), (Names{"songwriting"}));
  EXPECT_TRUE(match(as("bob"), "compose a melody for me")->results.empty());
}

TEST_P(MatchSkills, UserSkillsAreTheirOwnersAlone) {
  user_skill("alice", "invoices", "name: invoices\ndescription: Bill clients.\ntriggers: [send an invoice]\n");
  EXPECT_EQ(names(match(as("alice"), "please send an invoice to ACME")), (Names{"invoices"}));
  EXPECT_EQ(match(as("alice"), "please send an invoice to ACME")->results[0].source, core::Layer::user);
  EXPECT_TRUE(match(as("bob"), "please send an invoice to ACME")->results.empty());
  EXPECT_TRUE(match(ctx, "please send an invoice to ACME")->results.empty());
}

TEST_P(MatchSkills, HiddenSkillsNeverFire) {
  shared_skill("mac-only", "name: mac-only\ndescription: x\nplatforms: [macos]\ntriggers: [open the finder]\n");
  m_tree.write("home/config.yaml", "skills:\n  disabled: [songwriting]\n");
  cfg = core::load_config(ctx.config_path());
  EXPECT_TRUE(match(ctx, "open the finder")->results.empty());
  EXPECT_TRUE(match(ctx, "song lyrics")->results.empty());
}

TEST_P(MatchSkills, ProblemsAreReportedAndTheRestStillWorks) {
  shared_skill("broken", "name: broken\ndescription: x\ntriggers: [\"/(unclosed/\", \"deploy the broken thing\"]\n"
                         "paths: \"src/{a,b\"\n");
  const auto found = match(ctx, "deploy the broken thing");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(names(found), (Names{"broken"}));
  ASSERT_EQ(found->problems.size(), 2U);
  EXPECT_EQ(found->problems[0].skill, "broken");
  EXPECT_EQ(found->problems[0].rule, "/(unclosed/");
  EXPECT_EQ(found->problems[1].rule, "src/{a,b");
}

TEST_P(MatchSkills, SkippedFilesBeforeAMatchDoNotShiftItsTriggers) {
  // Records that are not listed (not UTF-8) are dropped from the catalog
  // after reading: the triggers kept beside the records must follow theirs.
  m_tree.write("home/skills/aaa/bad/SKILL.md", "---\nname: bad\ndescription: \xff\xfe\n---\n");
  m_tree.write("home/skills/security/aaa-bad/SKILL.md", "---\nname: aaa-bad\ndescription: \xc3\x28\n---\n");
  shared_skill("security/zz-other", "name: zz-other\ndescription: Other.\ntriggers: [rotate the logs]\n");
  const auto found = match(ctx, "pentest https://a.example then rotate the logs");
  ASSERT_TRUE(found) << found.error().message;
  // "rotate the logs" (two content words) ranks above "pentest [URL]" (one).
  EXPECT_EQ(names(found), (Names{"zz-other", "web-pentest"}));
  ASSERT_EQ(found->results.size(), 2U);
  EXPECT_TRUE(found->results[0].path->ends_with("security/zz-other/SKILL.md"));
  EXPECT_EQ(found->results[0].reasons[0].trigger, "rotate the logs");
  EXPECT_EQ(found->results[1].reasons[0].trigger, "pentest [URL]");
}

TEST_P(MatchSkills, AKeptMemoIsBuiltOnceAndAnsweredFromAgain) {
  const core::Catalog catalog = core::build_catalog(ctx, cfg);
  core::CatalogActivationMemo memo;
  for (int i = 0; i < 3; ++i) {
    auto found = core::match_skills_in(ctx, catalog, *store, core::MatchRequest{"suno prompt please", {}, 5}, &memo);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(names(found), (Names{"songwriting"}));
  }
  EXPECT_EQ(&memo.index(catalog), &memo.index(catalog));
}

TEST_P(MatchSkills, BadRequestsAreRefusedWithClearErrors) {
  auto refused = [&](core::MatchRequest request, const std::string& text) {
    const core::Catalog catalog = core::build_catalog(ctx, cfg);
    auto found = core::match_skills_in(ctx, catalog, *store, request);
    ASSERT_FALSE(found);
    EXPECT_NE(found.error().message.find(text), std::string::npos) << found.error().message;
  };
  refused(core::MatchRequest{"  ", {}, 5}, "message is empty");
  refused(core::MatchRequest{"x", {}, 0}, "limit must be between 1 and 50");
  refused(core::MatchRequest{"x", {}, 51}, "limit must be between 1 and 50");
  refused(core::MatchRequest{std::string(limits::k_max_match_message_bytes + 1, 'a'), {}, 5}, "longer than 65536");
  refused(core::MatchRequest{"x", std::vector<std::string>(limits::k_max_match_paths + 1, "a.ts"), 5}, "more than 256");
  // Ill-formed UTF-8 is matched, and what is shown of it is valid.
  const auto found = match(ctx, "pentest \xff\xfe https://x.example");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(names(found), (Names{"web-pentest"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, MatchSkills, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

}  // namespace
}  // namespace skillrt::test
