// Relevant-skill search over real skill trees and a real store in a temporary
// home — SQLite, and PostgreSQL when the test cluster is there (see
// tests/unit/store/store_test_env.hpp): ranking, fields searched, layer
// precedence, freshness of the index after file changes, user isolation and
// hostile queries.
#include "core/search/search_skills.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
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

class SearchSkills : public ::testing::TestWithParam<std::string> {
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
  }

  // Writes HOME/skills/<rel>/SKILL.md.
  std::filesystem::path shared_skill(const std::string& rel, const std::string& frontmatter,
                                     const std::string& body = "Body text.\n") {
    return m_tree.write("home/skills/" + rel + "/SKILL.md", "---\n" + frontmatter + "---\n" + body);
  }
  // Writes HOME/users/<user>/skills/<rel>/SKILL.md.
  std::filesystem::path user_skill(const std::string& user, const std::string& rel, const std::string& frontmatter,
                                   const std::string& body = "Body text.\n") {
    return m_tree.write("home/users/" + user + "/skills/" + rel + "/SKILL.md", "---\n" + frontmatter + "---\n" + body);
  }
  void db_skill(const std::string& user, const std::string& name, const std::string& description,
                const std::string& body) {
    core::NewDbSkill skill;
    skill.name = name;
    skill.description = description;
    skill.content = "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body;
    auto created = store->create_skill(user, skill);
    ASSERT_TRUE(created) << created.error().message;
  }
  void config(const std::string& yaml) {
    m_tree.write("home/config.yaml", yaml);
    cfg = core::load_config(ctx.config_path());
  }

  core::Context as(std::optional<std::string> user) const {
    core::Context other = ctx;
    other.user_id = std::move(user);
    return other;
  }

  Result<core::SkillSearch> search(const core::Context& who, const std::string& query, std::size_t limit = 5) {
    return core::search_skills(who, cfg, *store, query, limit);
  }
  Result<core::SkillSearch> search(const std::string& query, std::size_t limit = 5) {
    return search(ctx, query, limit);
  }

  static Names names(const Result<core::SkillSearch>& found) {
    Names out;
    if (found) {
      for (const auto& hit : found->results) {
        out.push_back(hit.name);
      }
    }
    return out;
  }
  static const core::SkillSearchResult* find(const Result<core::SkillSearch>& found, const std::string& name) {
    if (!found) {
      return nullptr;
    }
    for (const auto& hit : found->results) {
      if (hit.name == name) {
        return &hit;
      }
    }
    return nullptr;
  }

  std::unique_ptr<StoreEnv> m_env;
  TempTree m_tree;
  core::Context ctx;
  core::Config cfg;
  std::unique_ptr<core::SkillStore> store;
};

TEST_P(SearchSkills, NameMatchRanksAboveBodyOnlyMatch) {
  shared_skill("notes", "name: notes\ndescription: Keep a journal of the day.\n",
               "Write what happened. Sometimes about kubernetes, mostly about lunch.\n");
  shared_skill("devops/kubernetes", "name: kubernetes\ndescription: Roll out services to a cluster.\n",
               "Apply manifests and wait for the rollout.\n");
  const auto found = search("kubernetes");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(names(found), (Names{"kubernetes", "notes"}));
  EXPECT_GT(found->results[0].score, found->results[1].score);
  EXPECT_EQ(found->results[0].source, core::Layer::shared);
  ASSERT_TRUE(found->results[0].path.has_value());
  EXPECT_EQ(*found->results[0].path, (ctx.home / "skills/devops/kubernetes/SKILL.md").string());
  EXPECT_FALSE(found->results[0].id.has_value());
  EXPECT_EQ(found->results[0].description, "Roll out services to a cluster.");
}

TEST_P(SearchSkills, DescriptionTagsTriggersAndBodyAreSearched) {
  shared_skill("a", "name: alpha\ndescription: Handles quokka sightings.\n");
  shared_skill("b", "name: bravo\ndescription: Nothing here.\ntags: [zeppelin, airship]\n");
  shared_skill("c", "name: charlie\ndescription: Nothing either.\nmetadata:\n  hermes:\n    tags: [marmalade]\n");
  shared_skill("d", "name: delta\ndescription: Still nothing.\ntriggers: [\"when the kettle whistles\"]\n");
  shared_skill("e", "name: echo\ndescription: Quiet.\n", "The body mentions a narwhal once.\n");
  EXPECT_EQ(names(search("quokka")), (Names{"alpha"}));
  EXPECT_EQ(names(search("zeppelin")), (Names{"bravo"}));
  EXPECT_EQ(names(search("marmalade")), (Names{"charlie"}));
  EXPECT_EQ(names(search("kettle")), (Names{"delta"}));
  EXPECT_EQ(names(search("narwhal")), (Names{"echo"}));
}

TEST_P(SearchSkills, ResultsAreCappedAtTheLimit) {
  for (int i = 0; i < 12; ++i) {
    const std::string name = "tool-" + std::to_string(i);
    shared_skill(name, "name: " + name + "\ndescription: A common widget helper.\n");
  }
  EXPECT_EQ(search("widget").value().results.size(), 5U);
  EXPECT_EQ(search("widget", 3).value().results.size(), 3U);
  EXPECT_EQ(search("widget", 50).value().results.size(), 12U);
}

TEST_P(SearchSkills, HiddenSkillsAreNeverReturned) {
  shared_skill("visible", "name: visible\ndescription: A pelican tool.\n");
  shared_skill("windows-only", "name: windows-only\ndescription: A pelican tool for Windows.\nplatforms: [windows]\n");
  shared_skill("turned-off", "name: turned-off\ndescription: A disabled pelican tool.\n");
  config("skills:\n  disabled: [turned-off]\n");
  EXPECT_EQ(names(search("pelican")), (Names{"visible"}));
}

TEST_P(SearchSkills, UserFileSkillShadowsSharedOne) {
  shared_skill("deploy", "name: deploy\ndescription: Shared way to deploy the walrus service.\n");
  user_skill("alice", "deploy", "name: deploy\ndescription: Alice's way to deploy the walrus service.\n");
  const auto for_alice = search(as("alice"), "walrus");
  ASSERT_TRUE(for_alice) << for_alice.error().message;
  ASSERT_EQ(names(for_alice), (Names{"deploy"}));
  EXPECT_EQ(for_alice->results[0].source, core::Layer::user);
  EXPECT_EQ(for_alice->results[0].description, "Alice's way to deploy the walrus service.");

  const auto for_bob = search(as("bob"), "walrus");
  ASSERT_EQ(names(for_bob), (Names{"deploy"}));
  EXPECT_EQ(for_bob->results[0].source, core::Layer::shared);
}

TEST_P(SearchSkills, DatabaseSkillShadowsFileSkills) {
  shared_skill("deploy", "name: deploy\ndescription: Shared way to deploy the walrus service.\n");
  user_skill("alice", "deploy", "name: deploy\ndescription: Alice's file way to deploy the walrus service.\n");
  shared_skill("rollback", "name: rollback\ndescription: Undo a walrus release.\n");
  db_skill("alice", "deploy", "Alice's database way to deploy the walrus.", "Use the walrus pipeline.\n");
  db_skill("alice", "rollback", "Alice's own walrus rollback.", "Revert the walrus tag.\n");
  const auto found = search(as("alice"), "walrus", 10);
  ASSERT_TRUE(found) << found.error().message;
  Names got = names(found);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Names{"deploy", "rollback"}));
  for (const auto& hit : found->results) {
    EXPECT_EQ(hit.source, core::Layer::database) << hit.name;
    EXPECT_TRUE(hit.id.has_value());
    EXPECT_FALSE(hit.path.has_value());
  }
  EXPECT_EQ(find(found, "deploy")->description, "Alice's database way to deploy the walrus.");
}

TEST_P(SearchSkills, UsersNeverSeeEachOthersSkills) {
  shared_skill("common", "name: common\ndescription: Shared otter care.\n");
  user_skill("alice", "secret-file", "name: secret-file\ndescription: Alice's private otter notes.\n");
  db_skill("alice", "secret-row", "Alice's private otter row.", "Otters only.\n");

  const auto alice = search(as("alice"), "otter", 10);
  Names got = names(alice);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Names{"common", "secret-file", "secret-row"}));

  // Bob and the anonymous caller search after Alice's documents are indexed.
  EXPECT_EQ(names(search(as("bob"), "otter", 10)), (Names{"common"}));
  EXPECT_EQ(names(search(as(std::nullopt), "otter", 10)), (Names{"common"}));
  EXPECT_EQ(names(search(as("bob"), "secret", 10)), Names{});
  EXPECT_EQ(names(search(as(std::nullopt), "private", 10)), Names{});
  // And Alice still finds hers after the others' syncs.
  EXPECT_EQ(names(search(as("alice"), "private", 10)).size(), 2U);
}

TEST_P(SearchSkills, IndexFollowsEditsDeletesAndNewSkills) {
  const auto md = shared_skill("birds", "name: birds\ndescription: Watch the heron.\n");
  EXPECT_EQ(names(search("heron")), (Names{"birds"}));

  // Edit in place (same inode): the new text is found, the old text is not.
  m_tree.write("home/skills/birds/SKILL.md", "---\nname: birds\ndescription: Watch the egret.\n---\nEgrets.\n");
  EXPECT_EQ(names(search("egret")), (Names{"birds"}));
  EXPECT_EQ(names(search("heron")), Names{});

  // A new skill appears.
  shared_skill("fish", "name: fish\ndescription: Count the egret's prey.\n");
  Names got = names(search("egret"));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Names{"birds", "fish"}));

  // A deleted skill disappears from the index, not only from the results.
  std::filesystem::remove_all(md.parent_path());
  EXPECT_EQ(names(search("egret")), (Names{"fish"}));
  auto stamps = store->file_doc_stamps("");
  ASSERT_TRUE(stamps);
  ASSERT_EQ(stamps->size(), 1U);
  EXPECT_EQ(stamps->front().key, (ctx.home / "skills/fish/SKILL.md").string());
}

TEST_P(SearchSkills, UserFileEditsAreSeenToo) {
  user_skill("alice", "mine", "name: mine\ndescription: About lemurs.\n");
  EXPECT_EQ(names(search(as("alice"), "lemurs")), (Names{"mine"}));
  user_skill("alice", "mine", "name: mine\ndescription: About tapirs.\n");
  EXPECT_EQ(names(search(as("alice"), "lemurs")), Names{});
  EXPECT_EQ(names(search(as("alice"), "tapirs")), (Names{"mine"}));
  std::filesystem::remove_all(ctx.home / "users/alice/skills/mine");
  EXPECT_EQ(names(search(as("alice"), "tapirs")), Names{});
  auto stamps = store->file_doc_stamps("alice");
  ASSERT_TRUE(stamps);
  EXPECT_TRUE(stamps->empty());
}

TEST_P(SearchSkills, UnchangedFilesAreNotReadAgain) {
  shared_skill("one", "name: one\ndescription: First.\n");
  shared_skill("two", "name: two\ndescription: Second.\n");
  core::CatalogOptions options;
  options.use_cache = false;
  {
    const core::Catalog catalog = core::build_catalog(ctx, cfg, options);
    const auto first = core::sync_search_index(ctx, catalog, *store, 0);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->checked, 2U);
    EXPECT_EQ(first->indexed, 2U);
    EXPECT_EQ(first->store_calls, 1U);
  }
  {
    const core::Catalog catalog = core::build_catalog(ctx, cfg, options);
    const auto second = core::sync_search_index(ctx, catalog, *store, 0);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->checked, 2U);
    EXPECT_EQ(second->unchanged, 2U);
    EXPECT_EQ(second->indexed, 0U);
    EXPECT_EQ(second->removed, 0U);
    EXPECT_EQ(second->store_calls, 0U);
  }
}

TEST_P(SearchSkills, RecentlyChangedFilesAreReadAgain) {
  shared_skill("one", "name: one\ndescription: First.\n");
  core::CatalogOptions options;
  options.use_cache = false;
  const core::Catalog catalog = core::build_catalog(ctx, cfg, options);
  ASSERT_TRUE(core::sync_search_index(ctx, catalog, *store));
  // Written a moment ago: within the racy window its stamp cannot be trusted.
  const auto again = core::sync_search_index(ctx, catalog, *store);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->indexed, 1U);
}

// A host that keeps a catalog syncs the index once per catalog: later
// searches of the same catalog check no file, and a new catalog (the watcher
// dropped the old one) syncs again and sees the edit.
TEST_P(SearchSkills, AKeptCatalogIsSyncedOnce) {
  shared_skill("one", "name: one\ndescription: A quiet heron.\n");
  core::CatalogOptions options;
  options.use_cache = false;
  const core::Catalog catalog = core::build_catalog(ctx, cfg, options);
  core::CatalogSearchMemo memo;
  const auto first = memo.index.sync(ctx, catalog, *store, 0);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->checked, 1U);
  EXPECT_EQ(first->indexed, 1U);
  EXPECT_EQ(first->racy, 0U);
  const auto searched = core::search_skills_in(ctx, catalog, *store, "heron", 5, &memo);
  ASSERT_TRUE(searched) << searched.error().message;
  EXPECT_EQ(searched->sync.checked, 0U);  // nothing stat'ed again
  ASSERT_EQ(searched->results.size(), 1U);

  shared_skill("one", "name: one\ndescription: A loud egret.\n");
  // The same catalog and memo: the edit is not looked for (the watcher's job).
  EXPECT_TRUE(core::search_skills_in(ctx, catalog, *store, "egret", 5, &memo)->results.empty());
  // A new catalog with its own memo finds it.
  const core::Catalog rebuilt = core::build_catalog(ctx, cfg, options);
  core::CatalogSearchMemo fresh;
  const auto found = core::search_skills_in(ctx, rebuilt, *store, "egret", 5, &fresh);
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->sync.indexed, 1U);
  ASSERT_EQ(found->results.size(), 1U);
}

// A sync that read a file inside the racy window does not count: the next
// search of the same catalog syncs again, until a sync reads nothing racy.
TEST_P(SearchSkills, AKeptCatalogWithARacyFileSyncsAgain) {
  shared_skill("one", "name: one\ndescription: First.\n");
  core::CatalogOptions options;
  options.use_cache = false;
  const core::Catalog catalog = core::build_catalog(ctx, cfg, options);
  core::IndexSyncMemo memo;
  const auto first = memo.sync(ctx, catalog, *store);  // the real 2 s window: just written
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->racy, 1U);
  const auto second = memo.sync(ctx, catalog, *store, 0);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->checked, 1U);
  EXPECT_EQ(second->indexed, 1U);  // the racy stamp never matches
  EXPECT_EQ(second->racy, 0U);
  const auto third = memo.sync(ctx, catalog, *store, 0);
  ASSERT_TRUE(third) << third.error().message;
  EXPECT_EQ(third->checked, 0U);
}

TEST_P(SearchSkills, SharedDocumentsOfOtherRootsSurviveButAreNotReturned) {
  // A skill indexed from an external dir stays in the index while its file
  // exists, but a context whose config no longer lists the dir never sees it.
  m_tree.write("external/far/SKILL.md", "---\nname: far\ndescription: A distant ibis.\n---\nIbis.\n");
  config("skills:\n  external_dirs: [" + (m_tree.path() / "external").string() + "]\n");
  EXPECT_EQ(names(search("ibis")), (Names{"far"}));
  config("skills: {}\n");
  EXPECT_EQ(names(search("ibis")), Names{});
  auto stamps = store->file_doc_stamps("");
  ASSERT_TRUE(stamps);
  EXPECT_EQ(stamps->size(), 1U);
  // Once the file is gone, the next sync drops it.
  std::filesystem::remove_all(m_tree.path() / "external");
  EXPECT_EQ(names(search("ibis")), Names{});
  stamps = store->file_doc_stamps("");
  ASSERT_TRUE(stamps);
  EXPECT_TRUE(stamps->empty());
}

TEST_P(SearchSkills, HostileQueriesDoNotError) {
  shared_skill("safe", "name: safe\ndescription: Quote \"handling\" and a star* here.\n");
  db_skill("alice", "row", "A row with a quote.", "Body.\n");
  const char* queries[] = {
      "\"",        "\"\"\"",        "*",           "safe*",         "NOT",          "AND OR NOT",
      "NEAR(a b)", "name:safe",     "{name}: x",   "'; DROP TABLE hermes_skills; --",
      "a - b",     "^safe",         "(",           ")",             "-safe",        "+",
      "\\",        "%_%",           "safe AND",    "column:",       "🦦 otter",     "\xff\xfe broken",
      "x\x01y",    "a:b:c",         "hermes_skills", "\"unterminated",
  };
  for (const char* query : queries) {
    for (const auto& who : {as(std::nullopt), as("alice")}) {
      const auto found = search(who, query);
      EXPECT_TRUE(found) << "query [" << query << "]: " << (found ? "" : found.error().message);
    }
  }
  // The quote is text, not syntax: the skill that contains it is found.
  EXPECT_EQ(names(search("\"handling\"")), (Names{"safe"}));
  EXPECT_EQ(names(search("star*")), (Names{"safe"}));
}

TEST_P(SearchSkills, StopWordsDoNotDrownTheQuery) {
  shared_skill("glue", "name: glue\ndescription: How to do it with the thing, and then to the other.\n",
               "It is what it is, and the way it is.\n");
  shared_skill("walrus", "name: walrus\ndescription: Feed the walrus.\n");
  // Only the skill about the walrus answers a question about the walrus.
  EXPECT_EQ(names(search("how do I feed the walrus?")), (Names{"walrus"}));
  // A query of nothing but stop words still searches for them.
  const auto glue = search("how to");
  ASSERT_TRUE(glue) << glue.error().message;
  EXPECT_EQ(names(glue), (Names{"glue"}));
}

TEST_P(SearchSkills, BadRequestsAreRefusedBeforeTouchingTheStore) {
  const auto empty = search("   ");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, ErrorCode::invalid_argument);
  const auto zero = search("x", 0);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, ErrorCode::invalid_argument);
  const auto huge = search(std::string(100000, 'q'));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code, ErrorCode::limit_exceeded);
}

TEST_P(SearchSkills, ManyHiddenHitsDoNotStarveTheResults) {
  // 40 disabled skills outrank the one visible skill; the window widens.
  std::string disabled = "skills:\n  disabled: [";
  for (int i = 0; i < 40; ++i) {
    const std::string name = "gone-" + std::to_string(i);
    shared_skill(name, "name: " + name + "\ndescription: bison bison bison.\ntags: [bison]\n");
    disabled += (i == 0 ? "" : ", ") + name;
  }
  disabled += "]\n";
  config(disabled);
  shared_skill("kept", "name: kept\ndescription: Mentions a bison.\n");
  EXPECT_EQ(names(search("bison", 1)), (Names{"kept"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, SearchSkills, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

}  // namespace
}  // namespace skillrt::test
