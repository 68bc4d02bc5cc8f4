// Name resolution through skill_view's JSON (spec §2.7 rules 3-10).
#include "core/view/resolver.hpp"

#include <gtest/gtest.h>

#include "core/discovery/catalog.hpp"
#include "view_fixture.hpp"

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

class Resolver : public ViewFixture {};

TEST_F(Resolver, FindsByDirectoryNameCategoryPathAndFrontmatterName) {
  skill("mlops/axolotl", "name: axolotl-trainer\ndescription: Fine-tune.\n");
  for (const char* name : {"axolotl", "mlops/axolotl", "axolotl-trainer", "mlops:axolotl"}) {
    const auto out = view(name);
    ASSERT_TRUE(out["success"].get<bool>()) << name << ": " << out.dump();
    EXPECT_EQ(out["name"], "axolotl-trainer");
    EXPECT_EQ(out["path"], "mlops/axolotl/SKILL.md");
  }
}

TEST_F(Resolver, TrailingSlashNamesTheDirectory) {
  skill("cat/plain", "description: no name key\n");
  const auto out = view("cat/plain/");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_EQ(out["name"], "plain");
  EXPECT_EQ(out["skill_dir"], (skills() / "cat" / "plain").string());
}

TEST_F(Resolver, LocalAndExternalWithSameNameIsAmbiguous) {
  const auto local = skill("cat/foo", "name: foo\n");
  const auto ext = external("ext");
  const auto ext_md = m_tree.write("ext/foo/SKILL.md", "---\nname: foo\n---\nExternal.\n");
  const auto out = view("foo");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["error"],
            "Ambiguous skill name 'foo': 2 skills match across your local skills dir and external_dirs. Refusing to "
            "guess \xE2\x80\x94 load one explicitly by its categorized path.");
  EXPECT_EQ(out["matches"], (Strings{local.string(), ext_md.string()}));
  EXPECT_EQ(out["hint"], std::string(core::k_ambiguity_hint));
  EXPECT_EQ(keys(out), (Strings{"success", "error", "matches", "hint"}));
}

TEST_F(Resolver, CategorizedPathRecoversFromAmbiguity) {
  skill("cat/foo", "name: foo\n", "Local body.\n");
  external("ext");
  m_tree.write("ext/foo/SKILL.md", "---\nname: foo\n---\nExternal.\n");
  const auto out = view("cat/foo");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_NE(out["content"].get<std::string>().find("Local body."), std::string::npos);
  EXPECT_EQ(out["source"], "local");
}

TEST_F(Resolver, ProjectTierWinsOverLocalAndExternal) {
  skill("foo", "name: foo\n", "Local.\n");
  external("ext");
  m_tree.write("ext/foo/SKILL.md", "---\nname: foo\n---\nExternal.\n");
  trusted_project();
  const auto project_md = m_tree.write("proj/.hermes/skills/foo/SKILL.md", "---\nname: foo\n---\nProject.\n");
  const auto out = view("foo");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_EQ(out["source"], "project");
  EXPECT_EQ(out["_source_path"], project_md.string());
  EXPECT_EQ(out["path"], "foo/SKILL.md"); // relative to the skill's grandparent
}

TEST_F(Resolver, AmbiguityInsideTheProjectTierStillRefuses) {
  trusted_project();
  m_tree.write("proj/.hermes/skills/foo/SKILL.md", "---\nname: foo\n---\nA\n");
  m_tree.write("proj/.agents/skills/foo/SKILL.md", "---\nname: foo\n---\nB\n");
  skill("foo", "name: foo\n");
  const auto out = view("foo");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["matches"].size(), 2U);
}

TEST_F(Resolver, UntrustedProjectIsIgnored) {
  m_tree.mkdir("proj/.git");
  m_ctx.cwd = m_tree.path() / "proj";
  m_tree.write("proj/.hermes/skills/foo/SKILL.md", "---\nname: foo\n---\nProject.\n");
  skill("foo", "name: foo\n", "Local.\n");
  const auto out = view("foo");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_EQ(out["source"], "local");
}

TEST_F(Resolver, FrontmatterNameAndDirectoryNameCollide) {
  skill("alpha", "name: beta\n");
  skill("beta", "name: gamma\n");
  // "beta" is alpha's frontmatter name and the directory of the other skill.
  const auto out = view("beta");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["matches"].size(), 2U);
}

TEST_F(Resolver, SymlinkedTwinIsOneCandidate) {
  skill("real", "name: real\n");
  std::filesystem::create_directory_symlink(skills() / "real", skills() / "twin");
  const auto out = view("real");
  EXPECT_TRUE(out["success"].get<bool>()) << out.dump();
}

TEST_F(Resolver, NotFoundListsTwentyNamesInListingOrder) {
  for (int i = 0; i < 12; ++i) {
    const std::string n = std::to_string(10 + i);
    skill("zcat/skill-" + n, "name: skill-" + n + "\n");
    skill("top-" + n, "name: top-" + n + "\n");
  }
  const auto out = view("missing");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["error"], "Skill 'missing' not found.");
  EXPECT_EQ(out["hint"], "Use skills_list to see all available skills");
  ASSERT_EQ(out["available_skills"].size(), 20U);
  // Uncategorised first (category ""), then by name inside "zcat".
  EXPECT_EQ(out["available_skills"][0], "top-10");
  EXPECT_EQ(out["available_skills"][11], "top-21");
  EXPECT_EQ(out["available_skills"][12], "skill-10");
  EXPECT_EQ(out["available_skills"][19], "skill-17");
  EXPECT_EQ(keys(out), (Strings{"success", "error", "available_skills", "hint"}));
}

TEST_F(Resolver, NoRootsMeansNoSkillsDirectory) {
  std::filesystem::remove_all(skills());
  const auto out = view("x");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["error"], "Skills directory does not exist yet. It will be created on first install.");
}

TEST_F(Resolver, SupportDocumentsNeverShadowSkills) {
  skill("foo", "name: foo\n");
  m_tree.write("home/skills/other/SKILL.md", "---\nname: other\n---\n");
  m_tree.write("home/skills/other/references/foo.md", "A reference named like a skill.\n");
  m_tree.write("home/skills/other/references/foo/SKILL.md", "---\nname: foo\n---\nDecoy.\n");
  const auto out = view("foo");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_EQ(out["path"], "foo/SKILL.md");
}

TEST_F(Resolver, LegacyFlatFileIsFound) {
  m_tree.write("home/skills/notes/legacy.md", "Legacy instructions.\n");
  const auto out = view("legacy");
  ASSERT_TRUE(out["success"].get<bool>()) << out.dump();
  EXPECT_EQ(out["name"], "legacy");
  EXPECT_TRUE(out["skill_dir"].is_null());
  EXPECT_EQ(out["path"], "notes/legacy.md");
  EXPECT_EQ(out["content"], "Legacy instructions.\n");
  // A file request on a legacy skill returns the skill itself.
  const auto with_file = view("legacy", std::string("references/x.md"));
  EXPECT_EQ(with_file["content"], "Legacy instructions.\n");
}

TEST_F(Resolver, LegacyFileAndSkillWithSameNameCollide) {
  skill("foo", "name: foo\n");
  m_tree.write("home/skills/notes/foo.md", "Legacy.\n");
  const auto out = view("foo");
  EXPECT_FALSE(out["success"].get<bool>());
  EXPECT_EQ(out["matches"].size(), 2U);
}

TEST_F(Resolver, CollectCandidatesDedupesAcrossStrategies) {
  skill("foo", "name: foo\n");
  const core::Catalog catalog = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.collect_legacy = true});
  // Direct path and recursive match find the same SKILL.md once.
  const auto candidates = core::collect_candidates(catalog, "foo", std::nullopt);
  ASSERT_EQ(candidates.size(), 1U);
  EXPECT_TRUE(candidates[0].skill_dir.has_value());
  EXPECT_EQ(candidates[0].tier, core::Tier::local);
}

// The MCP servers resolve through an indexed catalog; it must answer exactly
// as the scan does, for every way a name can match (or not).
TEST_F(Resolver, NameIndexAnswersExactlyAsTheScan) {
  skill("mlops/axolotl", "name: axolotl-trainer\n");
  skill("cat/foo", "name: foo\n");
  skill("other/foo", "name: foo\n");            // ambiguous in one root
  skill("cat/renamed", "name: shared-name\n");  // frontmatter name only
  skill("plain", "description: no name key\n");
  external("ext");
  m_tree.write("ext/axolotl/SKILL.md", "---\nname: axolotl\n---\nExternal.\n");
  m_tree.write("ext/shared-name/SKILL.md", "---\nname: other\n---\nExternal.\n");
  core::Catalog scanned = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.collect_legacy = true});
  core::Catalog indexed = core::build_catalog(m_ctx, m_cfg, core::CatalogOptions{.collect_legacy = true});
  core::index_catalog_names(indexed);
  ASSERT_TRUE(indexed.name_index != nullptr);
  ASSERT_TRUE(scanned.name_index == nullptr);
  for (const char* name : {"axolotl", "axolotl-trainer", "mlops/axolotl", "foo", "cat/foo", "shared-name", "other",
                           "plain", "plain/", "missing", "ext", "cat"}) {
    const auto a = core::collect_candidates(scanned, name, std::nullopt);
    const auto b = core::collect_candidates(indexed, name, std::nullopt);
    ASSERT_EQ(a.size(), b.size()) << name;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].skill_md, b[i].skill_md) << name;
      EXPECT_EQ(a[i].tier, b[i].tier) << name;
      EXPECT_EQ(a[i].record == nullptr, b[i].record == nullptr) << name;
      if (a[i].record != nullptr && b[i].record != nullptr) {
        EXPECT_EQ(a[i].record - scanned.records.data(), b[i].record - indexed.records.data()) << name;
      }
    }
  }
  EXPECT_EQ(core::collect_candidates(indexed, "foo", std::nullopt).size(), 2U);
  EXPECT_EQ(core::collect_candidates(indexed, "axolotl", std::nullopt).size(), 2U);
}

} // namespace
} // namespace skillrt::test
