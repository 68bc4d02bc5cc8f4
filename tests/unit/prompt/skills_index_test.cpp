// build_skills_system_prompt on real skill trees (spec §2.16 rules 1, 4-7, 9).
#include "core/prompt/skills_index.hpp"

#include <gtest/gtest.h>

#include "core/prompt/invalidate.hpp"
#include "home_fixture.hpp"

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

class SkillsIndex : public HomeFixture {
protected:
  core::PromptOptions options() const {
    core::PromptOptions o;
    o.catalog.use_cache = false;
    o.snapshot_racy_window_ns = 0;
    return o;
  }
  // The lines between <available_skills> and </available_skills>.
  static std::string index_lines(const std::string& text) {
    const std::size_t begin = text.find("<available_skills>\n");
    const std::size_t end = text.find("</available_skills>");
    if (begin == std::string::npos || end == std::string::npos) {
      return "";
    }
    return text.substr(begin + 19, end - begin - 19);
  }
};

TEST_F(SkillsIndex, EmptyHomeGivesNothing) {
  std::filesystem::remove_all(skills());
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(out.text, "");
}

TEST_F(SkillsIndex, CategoriesFollowTheSharedRule) {
  skill("root-skill", "name: root-skill\ndescription: At the top.\n");
  skill("devops/deploy", "name: deploy\ndescription: Ship it.\n");
  skill("ml/training/fit", "name: fit\ndescription: Fit models.\n");
  write(skills() / "DESCRIPTION.md", "---\ndescription: Uncategorised skills\n---\n");
  write(skills() / "devops" / "DESCRIPTION.md", "---\ndescription: \"Operations\"\n---\n");
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  devops: Operations\n"
                                   "    - deploy: Ship it.\n"
                                   "  general: Uncategorised skills\n"
                                   "    - root-skill: At the top.\n"
                                   "  ml/training:\n"
                                   "    - fit: Fit models.\n");
  EXPECT_EQ(out.categories, (Strings{"devops", "general", "ml/training"}));
}

TEST_F(SkillsIndex, GeneralFallsBackToItsOwnDirectoryDescription) {
  skill("general/helper", "name: helper\ndescription: Helps.\n");
  skill("top", "name: top\ndescription: Top.\n");
  write(skills() / "general" / "DESCRIPTION.md", "---\ndescription: Everyday helpers\n---\n");
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  general: Everyday helpers\n"
                                   "    - helper: Helps.\n"
                                   "    - top: Top.\n");
}

TEST_F(SkillsIndex, DescriptionsUseTheListingFallbackAndAreCut) {
  skill("a", "name: a\ndescription: \"'quoted twice'\"\n");
  skill("b", "name: b\n", "# Heading\n\nFirst body line stands in.\n");
  skill("c", "name: c\ndescription: " + std::string(70, 'x') + "\n");
  skill("d", "name: d\ndescription: |\n  two\n  lines\n");
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  general:\n"
                                   "    - a: quoted twice\n"
                                   "    - b: First body line stands in.\n"
                                   "    - c: " +
                                       std::string(57, 'x') +
                                       "...\n"
                                       "    - d: two lines\n");
}

TEST_F(SkillsIndex, IndexDescriptionCountsCharactersNotBytes) {
  std::string accented;
  for (int i = 0; i < 61; ++i) {
    accented += "é";
  }
  const std::string cut = core::index_description(accented);
  std::string expected;
  for (int i = 0; i < 57; ++i) {
    expected += "é";
  }
  EXPECT_EQ(cut, expected + "...");
  std::string sixty;
  for (int i = 0; i < 60; ++i) {
    sixty += "é";
  }
  EXPECT_EQ(core::index_description(sixty), sixty);
}

TEST_F(SkillsIndex, ConditionsHideOnlyWithToolInfo) {
  skill("search-fallback", "name: search-fallback\ndescription: d\nmetadata:\n  hermes:\n"
                           "    fallback_for_tools: [web_search]\n");
  skill("needs-browser", "name: needs-browser\ndescription: d\nmetadata:\n  hermes:\n"
                         "    requires_toolsets: [browser]\n");
  skill("plain", "name: plain\ndescription: d\n");
  auto o = options();
  auto out = core::build_skills_system_prompt(ctx, cfg, o);
  EXPECT_EQ(out.skills_count, 3u);

  o.tools.tools = Strings{"web_search", "terminal"};
  out = core::build_skills_system_prompt(ctx, cfg, o);
  EXPECT_EQ(index_lines(out.text), "  general:\n    - plain: d\n");
  EXPECT_NE(out.text.find("web_search or terminal"), std::string::npos);

  o.tools.tools = Strings{"terminal"};
  o.tools.toolsets = Strings{"browser"};
  out = core::build_skills_system_prompt(ctx, cfg, o);
  EXPECT_EQ(index_lines(out.text), "  general:\n    - needs-browser: d\n    - plain: d\n    - search-fallback: d\n");
  EXPECT_NE(out.text.find("basic tools such as terminal alone"), std::string::npos);
}

TEST_F(SkillsIndex, DisabledByNameOrDirectoryAndPlatformAreHidden) {
  skill("x-dir", "name: shown-name\ndescription: d\n");
  skill("y", "name: y\ndescription: d\n");
  skill("mac", "name: mac\ndescription: d\nplatforms: [macos]\n");
  skill("keep", "name: keep\ndescription: d\n");
  config("skills:\n  disabled: [x-dir, y]\n");
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  general:\n    - keep: d\n");
}

TEST_F(SkillsIndex, ProjectSkillsComeFirstWithPrefixAndClaimNames) {
  const auto project = root() / "proj";
  std::filesystem::create_directories(project / ".git");
  write(project / ".hermes" / "skills" / "tools" / "deploy" / "SKILL.md",
        "---\nname: deploy\ndescription: Project deploy.\n---\nBody\n");
  skill("ops/deploy", "name: deploy\ndescription: Home deploy.\n");
  skill("ops/other", "name: other\ndescription: Home other.\n");
  config("skills:\n  trusted_project_dirs: [" + std::filesystem::canonical(project).string() + "]\n");
  ctx.cwd = project;
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  ops:\n"
                                   "    - other: Home other.\n"
                                   "  tools:\n"
                                   "    - deploy: [project] Project deploy.\n");
}

TEST_F(SkillsIndex, ExternalSkillsFillOnlyUnclaimedNames) {
  const auto ext = root() / "ext";
  write(ext / "ops" / "deploy" / "SKILL.md", "---\nname: deploy\ndescription: External deploy.\n---\n");
  write(ext / "ops" / "extra" / "SKILL.md", "---\nname: extra\ndescription: External extra.\n---\n");
  write(ext / "ops" / "DESCRIPTION.md", "---\ndescription: From external\n---\n");
  skill("ops/deploy", "name: deploy\ndescription: Home deploy.\n");
  config("skills:\n  external_dirs: [" + ext.string() + "]\n");
  const auto out = core::build_skills_system_prompt(ctx, cfg, options());
  EXPECT_EQ(index_lines(out.text), "  ops: From external\n"
                                   "    - deploy: Home deploy.\n"
                                   "    - extra: External extra.\n");
}

TEST_F(SkillsIndex, CachedBuildHitsUntilInvalidated) {
  core::clear_prompt_cache();
  skill("a", "name: a\ndescription: first\n");
  const auto first = core::build_skills_system_prompt_cached(ctx, cfg, options());
  EXPECT_EQ(core::prompt_cache_size(), 1u);
  skill("a", "name: a\ndescription: second\n");
  // A hit does not look at the disk (long-running hosts invalidate on writes).
  EXPECT_EQ(core::build_skills_system_prompt_cached(ctx, cfg, options()).text, first.text);
  // A different key is a different entry.
  auto compact = options();
  compact.compact_categories = {"general"};
  EXPECT_NE(core::build_skills_system_prompt_cached(ctx, cfg, compact).text, first.text);
  EXPECT_EQ(core::prompt_cache_size(), 2u);
  core::invalidate_skill_caches(ctx);
  EXPECT_EQ(core::prompt_cache_size(), 0u);
  EXPECT_NE(core::build_skills_system_prompt_cached(ctx, cfg, options()).text.find("a: second"), std::string::npos);
}

} // namespace
} // namespace skillrt::test
