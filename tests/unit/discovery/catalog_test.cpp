#include "core/discovery/catalog.hpp"

#include <sys/stat.h>

#include <chrono>
#include <future>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/discovery/skill_reader.hpp"
#include "core/limits.hpp"
#include "temp_tree.hpp"

namespace skillrt::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override { tree.mkdir("hermes/skills"); }

  // Writes a skill under the local skills dir.
  fs::path skill(const std::string& rel_dir, const std::string& text) const {
    return tree.write("hermes/skills/" + rel_dir + "/SKILL.md", text);
  }
  core::Context ctx(std::map<std::string, std::string> env = {}) const {
    env.emplace("HOME", "/nonexistent-home");
    return make_context(tree.path("hermes"), tree.root(), std::move(env));
  }
  core::Catalog build(const core::Context& context) const { return core::build_catalog(context, config); }
  core::Catalog build() const { return build(ctx()); }

  const core::SkillRecord* find(const core::Catalog& catalog, const std::string& dir_name) const {
    for (const auto& record : catalog.records) {
      if (record.dir_name == dir_name) {
        return &record;
      }
    }
    return nullptr;
  }
  std::vector<std::string> listed_names(const core::Catalog& catalog) const {
    std::vector<std::string> out;
    for (std::size_t index : catalog.listed) {
      out.emplace_back(catalog.records[index].name);
    }
    return out;
  }

  TempTree tree;
  core::Config config;
};

TEST_F(CatalogTest, RecordsCarryNamesCategoriesAndPaths) {
  skill("top", skill_text("top", "Top level"));
  skill("cat/inner", skill_text("inner-name", "In a category"));
  skill("a/b/deep", skill_text("deep", "Nested category"));
  auto catalog = build();
  ASSERT_EQ(catalog.records.size(), 3u);
  EXPECT_THAT(listed_names(catalog), ElementsAre("deep", "inner-name", "top"));

  const auto* top = find(catalog, "top");
  ASSERT_NE(top, nullptr);
  EXPECT_FALSE(top->category.has_value());
  EXPECT_EQ(top->index_category, "");
  EXPECT_EQ(top->skill_md.path(), tree.path("hermes/skills/top/SKILL.md"));
  EXPECT_EQ(top->dir.path(), tree.path("hermes/skills/top"));
  EXPECT_EQ(top->tier, core::Tier::local);

  const auto* inner = find(catalog, "inner");
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->category, "cat");
  EXPECT_EQ(inner->frontmatter_name, "inner-name");
  EXPECT_EQ(inner->dir_name, "inner");

  const auto* deep = find(catalog, "deep");
  ASSERT_NE(deep, nullptr);
  EXPECT_EQ(deep->category, "a");
  EXPECT_EQ(deep->index_category, "a/b");

  EXPECT_THAT(catalog.skills_per_root, ElementsAre(3u));
  EXPECT_THAT(catalog.dirs_per_root, ElementsAre(7u));
}

TEST_F(CatalogTest, NameFallsBackToDirectoryAndIsStringified) {
  skill("no-name", skill_text("", "described"));
  skill("numeric", skill_text("123", "typed name"));
  skill("null-name", "---\nname:\ndescription: d\n---\n");
  auto catalog = build();
  EXPECT_EQ(find(catalog, "no-name")->name, "no-name");
  EXPECT_EQ(find(catalog, "numeric")->name, "123");
  EXPECT_EQ(find(catalog, "null-name")->name, "null-name");
}

TEST_F(CatalogTest, NoFrontmatterStillListsWithBodyDescription) {
  skill("plain", "# Heading\n\nJust markdown.\n");
  auto catalog = build();
  ASSERT_EQ(catalog.records.size(), 1u);
  EXPECT_EQ(catalog.records[0].name, "plain");
  EXPECT_EQ(catalog.description(catalog.records[0]), "Just markdown.");
}

TEST_F(CatalogTest, DescriptionFallsBackToFirstBodyLine) {
  skill("empty-desc", "---\nname: e\ndescription:\n---\n\n# Title\n\n   First real line.  \nSecond.\n");
  skill("quoted-empty", "---\nname: q\ndescription: \"\"\n---\n## H\nUse me.\n");
  skill("no-body", "---\nname: n\n---\n# Only a heading\n");
  auto catalog = build();
  EXPECT_EQ(catalog.description(*find(catalog, "empty-desc")), "First real line.");
  EXPECT_EQ(catalog.description(*find(catalog, "quoted-empty")), "Use me.");
  EXPECT_EQ(catalog.description(*find(catalog, "no-body")), "");
}

TEST_F(CatalogTest, DescriptionFallbackReadsPastTheWindow) {
  std::string headings;
  while (headings.size() < limits::k_listing_read_window + 500) {
    headings += "# heading line to push the text out of the window\n";
  }
  skill("far", "---\nname: far\n---\n" + headings + "Found far away.\n");
  auto catalog = build();
  EXPECT_EQ(catalog.description(*find(catalog, "far")), "Found far away.");
}

TEST_F(CatalogTest, FrontmatterClosingPastTheWindowIsStillRead) {
  std::string long_description(limits::k_listing_read_window + 1000, 'x');
  skill("long-fm", "---\ndescription: " + long_description + "\nname: late-name\nplatforms: [linux]\n---\nbody\n");
  auto catalog = build();
  ASSERT_EQ(catalog.records.size(), 1u);
  EXPECT_EQ(catalog.records[0].name, "late-name");
  EXPECT_THAT(catalog.records[0].platforms, ElementsAre("linux"));
}

TEST_F(CatalogTest, UnclosedHugeFrontmatterIsTooLarge) {
  std::string filler;
  while (filler.size() < limits::k_max_frontmatter_bytes + 100) {
    filler += "key" + std::to_string(filler.size()) + ": value\n";
  }
  skill("huge", "---\n" + filler + "---\nbody\n");
  auto catalog = build();
  EXPECT_THAT(catalog.records, IsEmpty());
  ASSERT_EQ(catalog.skipped.size(), 1u);
  EXPECT_EQ(catalog.skipped[0].reason, core::SkipReason::too_large);
}

TEST_F(CatalogTest, TruncatesNameAndDescriptionByCodePoints) {
  std::string long_name(70, 'n');
  std::string long_description;
  for (int i = 0; i < 1100; ++i) {
    long_description += "\xC3\xA9";  // é: two bytes, one code point
  }
  skill("long", skill_text(long_name, long_description));
  std::string exact(1024, 'd');
  skill("exact", skill_text("exact", exact));
  auto catalog = build();
  const auto* record = find(catalog, "long");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->name, std::string(64, 'n'));
  EXPECT_EQ(core::utf8_length(catalog.description(*record)), limits::k_max_description_length);
  EXPECT_TRUE(catalog.description(*record).ends_with("\xC3\xA9..."));
  EXPECT_EQ(catalog.description(*find(catalog, "exact")), exact);
}

TEST_F(CatalogTest, WindowBoundaryInsideAMultibyteCharacterIsNotInvalid) {
  std::string body;
  while (body.size() < limits::k_listing_read_window * 2) {
    body += "\xE2\x82\xAC";  // €: three bytes, so some cut falls inside one
  }
  for (int shift = 0; shift < 3; ++shift) {
    skill("euro" + std::to_string(shift), skill_text("euro" + std::to_string(shift), "d") + std::string(shift, 'a') + body);
  }
  auto catalog = build();
  EXPECT_EQ(catalog.records.size(), 3u);
  EXPECT_THAT(catalog.skipped, IsEmpty());
}

TEST_F(CatalogTest, InvalidUtf8IsSkippedWithReason) {
  auto path = skill("bad", "---\nname: bad\ndescription: caf\xE9\n---\n");
  skill("good", skill_text("good", "fine"));
  auto catalog = build();
  EXPECT_THAT(listed_names(catalog), ElementsAre("good"));
  EXPECT_THAT(reasons_for(catalog.skipped, path), ElementsAre("not_utf8"));
}

TEST_F(CatalogTest, BomAndCrlfAreTolerated) {
  skill("bom", "\xEF\xBB\xBF---\r\nname: bom-skill\r\ndescription: with bom\r\n---\r\nbody\r\n");
  auto catalog = build();
  ASSERT_EQ(catalog.records.size(), 1u);
  EXPECT_EQ(catalog.records[0].name, "bom-skill");
  EXPECT_EQ(catalog.description(catalog.records[0]), "with bom");
}

TEST_F(CatalogTest, FifoSkillFileNeverHangs) {
  tree.mkdir("hermes/skills/pipe");
  ASSERT_EQ(::mkfifo(tree.path("hermes/skills/pipe/SKILL.md").c_str(), 0600), 0);
  auto future = std::async(std::launch::async, [&] { return build(); });
  ASSERT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto catalog = future.get();
  EXPECT_THAT(catalog.records, IsEmpty());
  EXPECT_THAT(reasons_for(catalog.skipped, tree.path("hermes/skills/pipe/SKILL.md")), ElementsAre("special_file"));

  // The reader itself refuses a FIFO it is handed (a race with the walk).
  std::string buffer;
  core::ListingFields fields;
  core::ListingFailure failure{};
  auto reader = std::async(std::launch::async, [&] {
    return core::read_listing_fields(tree.path("hermes/skills/pipe/SKILL.md").string(), buffer, fields, failure);
  });
  ASSERT_EQ(reader.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_FALSE(reader.get());
  EXPECT_EQ(failure.reason, core::SkipReason::special_file);
}

TEST_F(CatalogTest, PlatformGateInEveryValueForm) {
  skill("any", skill_text("any", "d"));
  skill("lin-scalar", skill_text("lin-scalar", "d", "platforms: linux\n"));
  skill("lin-upper", skill_text("lin-upper", "d", "platforms: [' Linux ']\n"));
  skill("mac-list", skill_text("mac-list", "d", "platforms:\n  - macos\n"));
  skill("win-flow", skill_text("win-flow", "d", "platforms: [windows]\n"));
  skill("mixed", skill_text("mixed", "d", "platforms: [windows, linux]\n"));
  skill("unknown", skill_text("unknown", "d", "platforms: [platform-agnostic]\n"));
  skill("empty-list", skill_text("empty-list", "d", "platforms: []\n"));
  skill("null", skill_text("null", "d", "platforms:\n"));

  auto linux_catalog = build();
  EXPECT_THAT(listed_names(linux_catalog), ElementsAre("any", "empty-list", "lin-scalar", "lin-upper", "mixed", "null"));
  EXPECT_EQ(find(linux_catalog, "unknown")->hidden, core::Hidden::platform);
  EXPECT_EQ(find(linux_catalog, "mac-list")->hidden, core::Hidden::platform);

  auto darwin = ctx();
  darwin.os = "darwin";
  EXPECT_THAT(listed_names(build(darwin)), ElementsAre("any", "empty-list", "mac-list", "null"));
  auto windows = ctx();
  windows.os = "win32";
  EXPECT_THAT(listed_names(build(windows)), ElementsAre("any", "empty-list", "mixed", "null", "win-flow"));
}

TEST(Gates, MatchesPlatform) {
  EXPECT_TRUE(core::matches_platform({}, "linux"));
  EXPECT_TRUE(core::matches_platform({"MacOS"}, "darwin"));
  EXPECT_TRUE(core::matches_platform({"win"}, "win32"));  // prefix match, as Hermes does
  EXPECT_FALSE(core::matches_platform({"freebsd"}, "linux"));
  EXPECT_FALSE(core::matches_platform({"darwin"}, "linux"));
}

TEST_F(CatalogTest, EnvironmentGate) {
  skill("kanban-only", skill_text("kanban-only", "d", "environments: kanban\n"));
  skill("unknown-env", skill_text("unknown-env", "d", "environments: [somewhere]\n"));
  skill("plain", skill_text("plain", "d"));
  auto without = build();
  EXPECT_THAT(listed_names(without), ElementsAre("plain", "unknown-env"));
  EXPECT_EQ(find(without, "kanban-only")->hidden, core::Hidden::environment);
  EXPECT_THAT(find(without, "kanban-only")->environments, ElementsAre("kanban"));

  auto with = build(ctx({{"HERMES_KANBAN_BOARD", "b1"}}));
  EXPECT_THAT(listed_names(with), ElementsAre("kanban-only", "plain", "unknown-env"));
  EXPECT_TRUE(core::matches_environment({"kanban"}, ctx({{"HERMES_KANBAN_TASK", "t"}})));
  EXPECT_FALSE(core::matches_environment({"kanban"}, ctx()));
  EXPECT_TRUE(core::matches_environment({"kanban", "mystery"}, ctx()));
  EXPECT_TRUE(core::matches_environment({}, ctx()));
}

TEST_F(CatalogTest, DisabledGlobalAndPerPlatform) {
  skill("a", skill_text("alpha", "d"));
  skill("b", skill_text("beta", "d"));
  skill("c", skill_text("gamma", "d"));
  config.skills.disabled = {"alpha"};
  config.skills.platform_disabled["telegram"] = {"beta"};
  auto cli = build();
  EXPECT_THAT(listed_names(cli), ElementsAre("beta", "gamma"));
  EXPECT_EQ(find(cli, "a")->hidden, core::Hidden::disabled);

  auto telegram = ctx();
  telegram.platform = "telegram";
  auto on_telegram = build(telegram);
  EXPECT_THAT(listed_names(on_telegram), ElementsAre("gamma"));
  EXPECT_EQ(find(on_telegram, "b")->hidden, core::Hidden::disabled);
}

TEST_F(CatalogTest, TierPrecedenceAndShadowing) {
  tree.mkdir("proj/.git");
  tree.write("proj/.hermes/skills/dup/SKILL.md", skill_text("dup", "from project"));
  skill("dup", skill_text("dup", "from local"));
  skill("cat/renamed", skill_text("dup", "local, other dir"));
  tree.write("ext/dup/SKILL.md", skill_text("dup", "from external"));
  tree.write("ext/only-ext/SKILL.md", skill_text("only-ext", "external only"));
  tree.write("ext/cat2/x/SKILL.md", skill_text("x", "external categorised"));
  config.skills.external_dirs = {tree.path("ext").string()};
  config.skills.trusted_project_dirs = {tree.path("proj").string()};
  auto context = make_context(tree.path("hermes"), tree.path("proj"), {{"HOME", "/nonexistent-home"}});
  auto catalog = build(context);

  ASSERT_EQ(catalog.roots.roots.size(), 3u);
  ASSERT_EQ(catalog.records.size(), 6u);
  // Tier order, then path order inside a root.
  EXPECT_EQ(catalog.records[0].tier, core::Tier::project);
  EXPECT_EQ(catalog.description(catalog.records[0]), "from project");
  EXPECT_FALSE(catalog.records[0].category.has_value());
  EXPECT_EQ(catalog.description(catalog.records[1]), "local, other dir");
  EXPECT_EQ(catalog.records[1].hidden, core::Hidden::shadowed);
  EXPECT_EQ(catalog.records[1].shadowed_by, 0u);
  EXPECT_EQ(catalog.description(catalog.records[2]), "from local");
  EXPECT_EQ(catalog.records[2].shadowed_by, 0u);
  EXPECT_EQ(catalog.records[3].category, "cat2");
  EXPECT_EQ(catalog.records[3].tier, core::Tier::external);
  EXPECT_EQ(catalog.description(catalog.records[4]), "from external");
  EXPECT_EQ(catalog.records[4].hidden, core::Hidden::shadowed);
  EXPECT_THAT(listed_names(catalog), ElementsAre("dup", "x", "only-ext"));
  EXPECT_THAT(catalog.skills_per_root, ElementsAre(1u, 2u, 3u));
}

TEST_F(CatalogTest, HiddenSkillDoesNotClaimItsName) {
  skill("a-mac", skill_text("same", "mac only", "platforms: macos\n"));
  skill("b-any", skill_text("same", "everywhere"));
  auto catalog = build();
  EXPECT_THAT(listed_names(catalog), ElementsAre("same"));
  EXPECT_EQ(catalog.description(catalog.records[catalog.listed[0]]), "everywhere");
}

TEST_F(CatalogTest, UnicodeSpacesAndConfusableNames) {
  skill("with space", skill_text("", "spaced"));
  skill("caf\xC3\xA9", skill_text("", "precomposed"));
  skill("cafe\xCC\x81", skill_text("", "decomposed"));  // looks the same, different bytes
  skill("\xD0\xB0pple", skill_text("", "cyrillic a"));
  skill("apple", skill_text("", "latin a"));
  auto catalog = build();
  EXPECT_EQ(catalog.listed.size(), 5u);
  EXPECT_EQ(find(catalog, "with space")->name, "with space");
  EXPECT_EQ(catalog.description(*find(catalog, "caf\xC3\xA9")), "precomposed");
  EXPECT_EQ(catalog.description(*find(catalog, "cafe\xCC\x81")), "decomposed");
  EXPECT_EQ(catalog.description(*find(catalog, "\xD0\xB0pple")), "cyrillic a");
}

TEST_F(CatalogTest, SortedListingAndCategoryFilter) {
  skill("zeta", skill_text("zeta", "d"));
  skill("b-cat/beta", skill_text("beta", "d"));
  skill("a-cat/alpha", skill_text("alpha", "d"));
  skill("a-cat/aardvark", skill_text("aardvark", "d"));
  skill("early", skill_text("Early", "d"));
  auto catalog = build();
  std::vector<std::string> sorted;
  for (const auto* record : catalog.sorted_listing(std::nullopt)) {
    sorted.emplace_back(record->name);
  }
  // Uncategorised first ("" sorts first), then by category, then name (bytewise: 'E' < 'z').
  EXPECT_THAT(sorted, ElementsAre("Early", "zeta", "aardvark", "alpha", "beta"));
  std::vector<std::string> filtered;
  for (const auto* record : catalog.sorted_listing(std::string("a-cat"))) {
    filtered.emplace_back(record->name);
  }
  EXPECT_THAT(filtered, ElementsAre("aardvark", "alpha"));
  EXPECT_THAT(catalog.sorted_listing(std::string("nope")), IsEmpty());
}

TEST_F(CatalogTest, SupportDirDecoysAndExcludedDirsNeverBecomeSkills) {
  skill("real", skill_text("real", "d"));
  tree.write("hermes/skills/real/references/SKILL.md", skill_text("decoy", "d"));
  tree.write("hermes/skills/node_modules/pkg/SKILL.md", skill_text("npm", "d"));
  skill("scripts/tool", skill_text("tool", "category called scripts"));
  auto catalog = build();
  EXPECT_THAT(listed_names(catalog), ElementsAre("real", "tool"));
  EXPECT_EQ(find(catalog, "tool")->category, "scripts");
}

TEST_F(CatalogTest, StrictYamlFailureUsesLineFallbackAndIsReported) {
  auto path = skill("fallback", "---\nname: fb\ndescription: a: b: c\nfoo: [unclosed\n---\nbody\n");
  auto catalog = build();
  ASSERT_EQ(catalog.records.size(), 1u);
  EXPECT_EQ(catalog.records[0].name, "fb");
  EXPECT_THAT(reasons_for(catalog.skipped, path), ElementsAre("bad_frontmatter"));
}

TEST_F(CatalogTest, LegacyFilesOnlyWhenAsked) {
  tree.write("hermes/skills/old.md", "# old\n");
  skill("s", skill_text("s", "d"));
  EXPECT_THAT(core::build_catalog(ctx(), config).legacy_files, IsEmpty());
  auto with = core::build_catalog(ctx(), config, core::CatalogOptions{.collect_legacy = true});
  ASSERT_EQ(with.legacy_files.size(), 1u);
  EXPECT_EQ(with.legacy_files[0].path(), tree.path("hermes/skills/old.md"));
}

TEST_F(CatalogTest, HiddenNames) {
  EXPECT_STREQ(core::hidden_name(core::Hidden::shadowed), "shadowed");
  EXPECT_STREQ(core::hidden_name(core::Hidden::environment), "environment");
}

}  // namespace
}  // namespace skillrt::test

namespace skillrt::test {
namespace {

TEST(CatalogFixture, CheckedInTreeBehavesAsDocumented) {
  const fs::path home = fs::path(SKILLRT_SOURCE_DIR) / "tests/fixtures/discovery/home";
  ASSERT_TRUE(fs::is_directory(home / "skills"));
  core::Config config;
  auto ctx = make_context(home, home, {{"HOME", "/nonexistent-home"}});
  // The checked-in tree is read-only data: no listing cache inside it.
  auto catalog = core::build_catalog(ctx, config, {.use_cache = false, .find_decoys = true});
  std::vector<std::string> offered;
  for (const auto* record : catalog.sorted_listing(std::nullopt)) {
    offered.push_back(std::string(record->name) + "|" + std::string(record->category.value_or("-")) + "|" +
                      catalog.description(*record));
  }
  EXPECT_THAT(offered, ElementsAre("plain|-|Description comes from this line.",
                                   "nested-template|devops|templates/ is not beside a SKILL.md here, so this one is a skill.",
                                   "arxiv|research|Search and summarise arXiv papers.",
                                   "deploy|scripts|A skill in a category that happens to be called scripts."));
  ASSERT_EQ(catalog.records.size(), 5u);
  std::vector<std::string> skipped;
  for (const auto& skip : catalog.skipped) {
    skipped.push_back(std::string(core::skip_reason_name(skip.reason)) + ":" +
                      skip.path.lexically_relative(home / "skills").string());
  }
  EXPECT_THAT(skipped, ::testing::UnorderedElementsAre("excluded:node_modules", "support_dir:research/arxiv/references/SKILL.md"));

  auto kanban = make_context(home, home, {{"HOME", "/nonexistent-home"}, {"HERMES_KANBAN_TASK", "42"}});
  EXPECT_EQ(core::build_catalog(kanban, config, {.use_cache = false}).listed.size(), 5u);
}

}  // namespace
}  // namespace skillrt::test

namespace skillrt::test {
namespace {

// Past the memory budget descriptions live in an unlinked temporary file
// (description_store.hpp): a catalog built that way must read exactly as one
// held in memory. HOME/cache does not exist here, so $TMPDIR takes the file.
TEST_F(CatalogTest, DescriptionsPastTheMemoryBudgetReadTheSame) {
  for (std::size_t i = 0; i < 300; ++i) {
    const std::string name = "skill-" + std::to_string(i);
    skill("c" + std::to_string(i % 7) + "/" + name,
          skill_text(name, "Description " + std::to_string(i) + " " +
                               std::string(250 + i % 40, static_cast<char>('a' + i % 26))));
  }
  tree.mkdir("tmp");
  const core::Context context = ctx({{"TMPDIR", tree.path("tmp").string()}});
  const core::Catalog in_memory = core::build_catalog(context, config, {.use_cache = false});
  core::Catalog spilled = core::build_catalog(context, config, {.use_cache = false, .description_memory_budget = 0});
  EXPECT_FALSE(in_memory.descriptions.spilled());
  EXPECT_TRUE(spilled.descriptions.spilled());
  EXPECT_TRUE(fs::is_empty(tree.path("tmp")));
  ASSERT_EQ(in_memory.records.size(), 300u);
  ASSERT_EQ(spilled.records.size(), 300u);
  const auto a = in_memory.sorted_listing(std::nullopt);
  const auto b = spilled.sorted_listing(std::nullopt);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]->name, b[i]->name);
    const std::string expected = in_memory.description(*a[i]);
    EXPECT_TRUE(expected.starts_with("Description ")) << expected;
    EXPECT_EQ(spilled.description(*b[i]), expected);
    spilled.visit_description(*b[i], [&expected](std::string_view text) { EXPECT_EQ(text, expected); });
  }
  // A moved catalog keeps its descriptions (and its file).
  const core::Catalog moved = std::move(spilled);
  EXPECT_EQ(moved.description(*b.back()), in_memory.description(*a.back()));
}

std::string first_description(const core::Catalog& catalog) {
  return catalog.description(catalog.records.at(0));
}

// The listing cache (discovery/listing_cache) must never serve a stale entry: an in-place
// edit that keeps the size and even the mtime is seen on the very next build
// (Hermes shows stale listings for up to 30 s, spec §5.1 item 3).
TEST_F(CatalogTest, ListingCacheSeesAnInPlaceEditOnTheNextCall) {
  const fs::path file = skill("editme", skill_text("editme", "Version A"));
  const core::CatalogOptions cached{.use_cache = true, .cache_racy_window_ns = 0};
  EXPECT_EQ(first_description(core::build_catalog(ctx(), config, cached)), "Version A");
  ASSERT_TRUE(fs::exists(core::listing_cache_path(ctx())));
  // Second build is served from the cache.
  EXPECT_EQ(first_description(core::build_catalog(ctx(), config, cached)), "Version A");
  const auto mtime = fs::last_write_time(file);
  tree.write("hermes/skills/editme/SKILL.md", skill_text("editme", "Version B"));
  fs::last_write_time(file, mtime);
  EXPECT_EQ(first_description(core::build_catalog(ctx(), config, cached)), "Version B");
}

// The cache is kept in path order while roots are walked in tier order: with
// an external root sorting before the local one, an unchanged tree must still
// be served entirely from the cache (the file is not rewritten) and give the
// same records.
TEST_F(CatalogTest, ListingCacheServesSeveralRootsWithoutRewriting) {
  skill("local-a", skill_text("local-a", "Local A"));
  skill("cat/local-b", skill_text("local-b", "Local B"));
  tree.write("aaa-ext/ext-a/SKILL.md", skill_text("ext-a", "External A"));
  tree.write("aaa-ext/local-a/SKILL.md", skill_text("local-a", "Shadowed"));
  tree.write("aaa-ext/broken/SKILL.md", std::string("---\nname: x\n---\n\xff\n"));
  config.skills.external_dirs = {tree.path("aaa-ext").string()};
  const core::CatalogOptions cached{.use_cache = true, .cache_racy_window_ns = 0};
  const core::Catalog first = core::build_catalog(ctx(), config, cached);
  const fs::path cache_file = core::listing_cache_path(ctx());
  ASSERT_TRUE(fs::exists(cache_file));
  struct stat before {};
  ASSERT_EQ(::stat(cache_file.c_str(), &before), 0);
  const core::Catalog second = core::build_catalog(ctx(), config, cached);
  struct stat after {};
  ASSERT_EQ(::stat(cache_file.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);
  ASSERT_EQ(first.records.size(), second.records.size());
  for (std::size_t i = 0; i < first.records.size(); ++i) {
    EXPECT_EQ(first.records[i].skill_md, second.records[i].skill_md);
    EXPECT_EQ(first.description(first.records[i]), second.description(second.records[i]));
    EXPECT_EQ(first.records[i].hidden, second.records[i].hidden);
  }
  EXPECT_EQ(first.listed, second.listed);
  ASSERT_EQ(first.skipped.size(), second.skipped.size());
  for (std::size_t i = 0; i < first.skipped.size(); ++i) {
    EXPECT_EQ(first.skipped[i].path, second.skipped[i].path);
    EXPECT_EQ(first.skipped[i].reason, second.skipped[i].reason);
  }
  EXPECT_EQ(first.records.size(), 4u);
}

TEST_F(CatalogTest, ListingCacheCanBeSwitchedOffByEnvironment) {
  skill("one", skill_text("one", "Only"));
  const core::CatalogOptions cached{.use_cache = true, .cache_racy_window_ns = 0};
  auto off = ctx({{"SKILLRT_NO_CACHE", "1"}});
  EXPECT_EQ(core::build_catalog(off, config, cached).listed.size(), 1u);
  EXPECT_FALSE(fs::exists(core::listing_cache_path(off)));
  EXPECT_EQ(core::build_catalog(ctx(), config, cached).listed.size(), 1u);
  EXPECT_TRUE(fs::exists(core::listing_cache_path(ctx())));
}

TEST_F(CatalogTest, CorruptListingCacheIsIgnoredAndRebuilt) {
  skill("one", skill_text("one", "Only"));
  const fs::path cache_file = core::listing_cache_path(ctx());
  fs::create_directories(cache_file.parent_path());
  tree.write("hermes/cache/skillrt-listing.bin", std::string(4096, '\x7f'));
  const core::CatalogOptions cached{.use_cache = true, .cache_racy_window_ns = 0};
  auto catalog = core::build_catalog(ctx(), config, cached);
  ASSERT_EQ(catalog.listed.size(), 1u);
  EXPECT_EQ(catalog.description(catalog.records.at(0)), "Only");
  EXPECT_LT(fs::file_size(cache_file), 4096u);
}

}  // namespace
}  // namespace skillrt::test
