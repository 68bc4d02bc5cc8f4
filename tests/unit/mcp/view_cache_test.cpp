// skill_view answers cached per snapshot (mcp/view_cache): a cached answer is
// served only while everything it was computed from is unchanged, and it is
// byte for byte what a fresh computation gives. Also the one-pass string
// escaper the tool results are written with.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/config/config.hpp"
#include "core/limits.hpp"
#include "core/view/skill_view.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/view_cache.hpp"
#include "mcp_harness.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;

TEST(AppendJsonString, EscapesExactlyAsTheJsonLibraryDoes) {
  const std::vector<std::string> samples{
      "",
      "plain text",
      "quote \" backslash \\ slash /",
      "lines\nand\ttabs\r\n\b\f",
      std::string("nul \0 and \x01 \x1f \x7f", sizeof("nul \0 and \x01 \x1f \x7f") - 1),
      "unicode: héllo — 技能 😀",
  };
  for (const std::string& sample : samples) {
    std::string out = "prefix:";
    mcp::append_json_string(out, sample);
    EXPECT_EQ(out, "prefix:" + mcp::dump_json(Json(sample))) << sample;
    EXPECT_EQ(Json::parse(out.substr(7)).get<std::string>(), sample);
  }
}

// A skill on disk, viewed the way the server views it, and a cache with no
// racy window (the test's files are all brand new).
class ViewCacheTest : public ::testing::Test {
 protected:
  ViewCacheTest() {
    m_home.shared_skill("ops/deploy", "deploy", "Deploy the service",
                        "Run it.\n");
    m_home.tree().write("home/skills/ops/deploy/references/api.md", "# API\n");
    m_ctx = m_home.options().base;
  }

  fs::path skill_dir() const { return m_home.home() / "skills/ops/deploy"; }

  // Views `deploy` afresh and stores the answer; returns the stored text.
  std::string view_and_store(const core::Config& config = {}) {
    std::vector<std::string> warnings;
    auto answer = core::view_skill(m_ctx, config, "deploy", std::nullopt, warnings);
    EXPECT_TRUE(answer.has_value());
    const auto& doc = std::get<core::SkillDocument>(*answer);
    const std::string text = "answer for " + doc.content + std::to_string(doc.linked_files.size());
    m_cache.store("deploy", doc, m_ctx, config, text, warnings);
    return text;
  }

  McpHome m_home;
  core::Context m_ctx;
  mcp::ViewCache m_cache{0};
};

TEST_F(ViewCacheTest, AHitServesTheStoredAnswerUntilSkillMdChanges) {
  const std::string text = view_and_store();
  ASSERT_TRUE(m_cache.find("deploy").has_value());
  EXPECT_EQ(m_cache.find("deploy")->payload_text, text);
  EXPECT_EQ(m_cache.hits(), 2u);
  EXPECT_FALSE(m_cache.find("other").has_value());

  m_home.tree().write("home/skills/ops/deploy/SKILL.md", skill_md("deploy", "Deploy the service", "Run it now.\n"));
  EXPECT_FALSE(m_cache.find("deploy").has_value());
}

TEST_F(ViewCacheTest, NewSupportFilesAnywhereBelowTheFoldersInvalidate) {
  view_and_store();
  m_home.tree().write("home/skills/ops/deploy/references/more.md", "# More\n");
  EXPECT_FALSE(m_cache.find("deploy").has_value());

  // An empty nested folder, cached, then a file appears in it: only that
  // folder's stamp moves.
  fs::create_directories(skill_dir() / "templates/deep/er");
  view_and_store();
  ASSERT_TRUE(m_cache.find("deploy").has_value());
  m_home.tree().write("home/skills/ops/deploy/templates/deep/er/x.md", "x\n");
  EXPECT_FALSE(m_cache.find("deploy").has_value());

  // A support folder that did not exist at all is created.
  view_and_store();
  ASSERT_TRUE(m_cache.find("deploy").has_value());
  m_home.tree().write("home/skills/ops/deploy/scripts/run.sh", "echo\n");
  EXPECT_FALSE(m_cache.find("deploy").has_value());
}

TEST_F(ViewCacheTest, DotEnvAndCredentialFilesInvalidate) {
  m_home.tree().write("home/skills/ops/deploy/SKILL.md",
                      "---\nname: deploy\ndescription: Deploy the service\nrequired_environment_variables:\n"
                      "  - name: DEPLOY_TOKEN\nrequired_credential_files:\n  - creds/deploy.json\n---\nRun it.\n");
  view_and_store();
  ASSERT_TRUE(m_cache.find("deploy").has_value());
  m_home.tree().write("home/.env", "DEPLOY_TOKEN=abc\n");
  EXPECT_FALSE(m_cache.find("deploy").has_value());

  view_and_store();
  ASSERT_TRUE(m_cache.find("deploy").has_value());
  m_home.tree().write("home/creds/deploy.json", "{}\n");
  EXPECT_FALSE(m_cache.find("deploy").has_value());
}

TEST_F(ViewCacheTest, InlineShellAnswersAreNeverKept) {
  core::Config config;
  config.skills.inline_shell = true;
  view_and_store(config);
  EXPECT_FALSE(m_cache.find("deploy").has_value());
  EXPECT_EQ(m_cache.size(), 0u);
}

TEST_F(ViewCacheTest, RecentlyChangedFilesAreNotKept) {
  mcp::ViewCache cautious;  // the real 2 s racy window
  std::vector<std::string> warnings;
  auto answer = core::view_skill(m_ctx, core::Config{}, "deploy", std::nullopt, warnings);
  ASSERT_TRUE(answer.has_value());
  cautious.store("deploy", std::get<core::SkillDocument>(*answer), m_ctx, core::Config{}, "text", warnings);
  EXPECT_EQ(cautious.size(), 0u);
}

// limits::k_mcp_view_cache_max_dirs: a skill with more support folders than
// a hit may re-check is served but never kept.
TEST_F(ViewCacheTest, SkillsWithTooManyFoldersAreNotKept) {
  for (std::size_t i = 0; i < limits::k_mcp_view_cache_max_dirs; ++i) {
    fs::create_directories(skill_dir() / "references" / ("d" + std::to_string(i)));
  }
  view_and_store();  // the references folder itself plus its children: one too many
  EXPECT_FALSE(m_cache.find("deploy").has_value());
  fs::remove(skill_dir() / "references" / "d0");
  view_and_store();
  EXPECT_TRUE(m_cache.find("deploy").has_value());
}

// limits::k_mcp_view_cache_bytes: past the budget new answers are not kept.
TEST_F(ViewCacheTest, TheByteBudgetIsKept) {
  std::vector<std::string> warnings;
  auto answer = core::view_skill(m_ctx, core::Config{}, "deploy", std::nullopt, warnings);
  ASSERT_TRUE(answer.has_value());
  const auto& doc = std::get<core::SkillDocument>(*answer);
  m_cache.store("big", doc, m_ctx, core::Config{}, std::string(limits::k_mcp_view_cache_bytes, 'x'), warnings);
  EXPECT_FALSE(m_cache.find("big").has_value());
  m_cache.store("half", doc, m_ctx, core::Config{}, std::string(limits::k_mcp_view_cache_bytes / 2, 'x'), warnings);
  ASSERT_TRUE(m_cache.find("half").has_value());
  m_cache.store("other-half", doc, m_ctx, core::Config{}, std::string(limits::k_mcp_view_cache_bytes / 2, 'x'),
                warnings);
  EXPECT_FALSE(m_cache.find("other-half").has_value());
  EXPECT_EQ(m_cache.size(), 1u);
}

// Through the server: the cached answer is the fresh answer, byte for byte,
// and an edit is seen on the next call.
TEST(ViewCacheServer, CachedToolResultsEqualFreshOnesAndFollowEdits) {
  // A watching server keeps its snapshot (and so its view cache) between
  // requests; with no racy window the files just written may be cached.
  McpHome home(true);
  home.set_view_racy_window(std::chrono::milliseconds(0));
  home.shared_skill("ops/deploy", "deploy", "Deploy the service", "Say \"hi\"\\n\ttabbed — ünïcode\n");
  home.tree().write("home/skills/ops/deploy/references/api.md", "# API\n");
  auto session = home.ready();
  const Json request = Json{{"name", "skill_view"}, {"arguments", Json{{"name", "deploy"}}}};
  const std::string call = Json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"}, {"params", request}}.dump();
  const std::string first = *session->handle(call);
  const std::string second = *session->handle(call);
  EXPECT_EQ(home.server().view_cache_hits(), 1u) << "the second call must come from the cache";
  EXPECT_EQ(first, second);
  const Json parsed = Json::parse(second);
  EXPECT_EQ(Json::parse(parsed["result"]["content"][0]["text"].get<std::string>()),
            parsed["result"]["structuredContent"]);
  EXPECT_EQ(parsed["result"]["isError"], false);
  EXPECT_NE(parsed["result"]["structuredContent"]["content"].get<std::string>().find("ünïcode"), std::string::npos);

  home.tree().write("home/skills/ops/deploy/SKILL.md", skill_md("deploy", "Deploy the service", "Changed.\n"));
  const Json third = Json::parse(*session->handle(call));
  EXPECT_NE(third["result"]["structuredContent"]["content"].get<std::string>().find("Changed."), std::string::npos);
}

}  // namespace
}  // namespace skillrt::test
