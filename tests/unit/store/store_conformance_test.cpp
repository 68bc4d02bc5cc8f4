// The SkillStore conformance suite: every case runs against each backend
// (SQLite on a temp file; PostgreSQL on a throw-away database when the test
// cluster is available). The behaviour a caller may rely on is the same on both.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "store_test_env.hpp"

namespace skillrt {
namespace {

using core::DbSkill;
using core::SkillStore;

std::string skill_md(const std::string& name, const std::string& description, const std::string& body) {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n\n# " + name + "\n\n" + body + "\n";
}

core::NewDbSkill new_skill(const std::string& name, const std::string& body = "Plain steps.",
                           const std::string& description = "A test skill") {
  core::NewDbSkill skill;
  skill.name = name;
  skill.description = description;
  skill.content = skill_md(name, description, body);
  return skill;
}

class StoreConformance : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    std::string skip;
    env = test::make_store_env(GetParam(), skip);
    if (!env) {
      GTEST_SKIP() << skip;
    }
    auto opened = env->open();
    ASSERT_TRUE(opened) << opened.error().message;
    store = std::move(*opened);
    ASSERT_STREQ(store->backend(), env->backend());
  }

  std::vector<std::string> hit_keys(const std::vector<core::SearchHit>& hits) {
    std::vector<std::string> keys;
    for (const auto& hit : hits)
      keys.push_back(hit.key);
    return keys;
  }

  std::unique_ptr<test::StoreEnv> env;
  std::unique_ptr<SkillStore> store;
};

TEST_P(StoreConformance, CreateGetListUpdateDelete) {
  auto created = store->create_skill("alice", new_skill("deploy", "Roll out the service."));
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_GT(created->id, 0);
  EXPECT_EQ(created->user_id, "alice");
  EXPECT_EQ(created->name, "deploy");
  EXPECT_EQ(created->description, "A test skill");
  EXPECT_EQ(created->version, 1);
  EXPECT_TRUE(created->is_active);
  EXPECT_EQ(created->created_at.size(), std::string("2026-11-30T23:59:59.123Z").size()) << created->created_at;
  EXPECT_EQ(created->created_at.back(), 'Z');
  EXPECT_EQ(created->created_at, created->updated_at);

  auto got = store->get_skill("alice", "deploy");
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->id, created->id);
  EXPECT_EQ(got->content, created->content);
  EXPECT_EQ(got->created_at, created->created_at);

  ASSERT_TRUE(store->create_skill("alice", new_skill("backup")));
  auto listed = store->list_skills("alice");
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2U);
  EXPECT_EQ((*listed)[0].name, "backup"); // ordered by name
  EXPECT_EQ((*listed)[1].name, "deploy");

  core::DbSkillUpdate update;
  update.description = "Rolls out the service safely";
  update.category = "devops";
  auto updated = store->update_skill("alice", "deploy", update);
  ASSERT_TRUE(updated) << updated.error().message;
  EXPECT_EQ(updated->id, created->id);
  EXPECT_EQ(updated->version, 2);
  EXPECT_EQ(updated->description, "Rolls out the service safely");
  EXPECT_EQ(updated->category, "devops");
  EXPECT_EQ(updated->content, created->content); // unset fields keep their value
  EXPECT_GE(updated->updated_at, created->updated_at);
  EXPECT_EQ(updated->created_at, created->created_at);

  auto deleted = store->delete_skill("alice", "deploy");
  ASSERT_TRUE(deleted) << deleted.error().message;
  EXPECT_EQ(deleted->id, created->id);
  auto gone = store->get_skill("alice", "deploy");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, ErrorCode::not_found);
  EXPECT_EQ(store->list_skills("alice")->size(), 1U);
  auto again = store->delete_skill("alice", "deploy");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::not_found);
  auto missing_update = store->update_skill("alice", "deploy", update);
  ASSERT_FALSE(missing_update);
  EXPECT_EQ(missing_update.error().code, ErrorCode::not_found);
}

TEST_P(StoreConformance, VersionGrowsOnEveryUpdate) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("grow")));
  for (int i = 2; i <= 6; ++i) {
    core::DbSkillUpdate update;
    update.content = skill_md("grow", "A test skill", "Revision " + std::to_string(i));
    auto updated = store->update_skill("alice", "grow", update);
    ASSERT_TRUE(updated) << updated.error().message;
    EXPECT_EQ(updated->version, i);
  }
  EXPECT_EQ(store->get_skill("alice", "grow")->version, 6);
  EXPECT_NE(store->get_skill("alice", "grow")->content.find("Revision 6"), std::string::npos);
  // An update with nothing set still counts as a write.
  auto touched = store->update_skill("alice", "grow", core::DbSkillUpdate{});
  ASSERT_TRUE(touched);
  EXPECT_EQ(touched->version, 7);
}

TEST_P(StoreConformance, OneActiveNamePerUser) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("unique")));
  auto twice = store->create_skill("alice", new_skill("unique"));
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().code, ErrorCode::refused);
  EXPECT_NE(twice.error().message.find("already exists"), std::string::npos) << twice.error().message;
  EXPECT_EQ(env->all_rows("alice", "unique"), 1);
}

TEST_P(StoreConformance, SameNameForTwoUsers) {
  auto a = store->create_skill("alice", new_skill("shared-name", "Alice's version."));
  auto b = store->create_skill("bob", new_skill("shared-name", "Bob's version."));
  ASSERT_TRUE(a);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_NE(a->id, b->id);
  EXPECT_NE(store->get_skill("alice", "shared-name")->content.find("Alice's"), std::string::npos);
  EXPECT_NE(store->get_skill("bob", "shared-name")->content.find("Bob's"), std::string::npos);
}

TEST_P(StoreConformance, DeleteDeactivatesAndNameCanBeReused) {
  auto first = store->create_skill("alice", new_skill("phoenix", "First life."));
  ASSERT_TRUE(first);
  ASSERT_TRUE(store->delete_skill("alice", "phoenix"));
  // The row stays, inactive.
  EXPECT_EQ(env->all_rows("alice", "phoenix"), 1);
  EXPECT_EQ(env->inactive_rows("alice", "phoenix"), 1);

  auto second = store->create_skill("alice", new_skill("phoenix", "Second life."));
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_NE(second->id, first->id);
  EXPECT_EQ(second->version, 1);
  EXPECT_NE(store->get_skill("alice", "phoenix")->content.find("Second life."), std::string::npos);
  EXPECT_EQ(env->all_rows("alice", "phoenix"), 2);
  EXPECT_EQ(env->inactive_rows("alice", "phoenix"), 1);
}

TEST_P(StoreConformance, UsersAreIsolated) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("secret", "Alice keeps the xylophonic recipe here.")));
  ASSERT_TRUE(store->create_skill("bob", new_skill("bobs", "Nothing to see.")));

  auto b_get = store->get_skill("bob", "secret");
  ASSERT_FALSE(b_get);
  EXPECT_EQ(b_get.error().code, ErrorCode::not_found);
  auto b_list = store->list_skills("bob");
  ASSERT_TRUE(b_list);
  ASSERT_EQ(b_list->size(), 1U);
  EXPECT_EQ((*b_list)[0].name, "bobs");
  core::DbSkillUpdate update;
  update.content = "stolen";
  EXPECT_EQ(store->update_skill("bob", "secret", update).error().code, ErrorCode::not_found);
  EXPECT_EQ(store->delete_skill("bob", "secret").error().code, ErrorCode::not_found);
  auto b_search = store->search(std::string_view("bob"), "xylophonic", 10);
  ASSERT_TRUE(b_search) << b_search.error().message;
  EXPECT_TRUE(b_search->empty());
  auto anonymous = store->search(std::nullopt, "xylophonic", 10);
  ASSERT_TRUE(anonymous);
  EXPECT_TRUE(anonymous->empty());

  // Alice's row is untouched by Bob's attempts.
  auto a = store->get_skill("alice", "secret");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->version, 1);
  auto a_search = store->search(std::string_view("alice"), "xylophonic", 10);
  ASSERT_TRUE(a_search);
  ASSERT_EQ(a_search->size(), 1U);
  EXPECT_EQ((*a_search)[0].owner, "alice");
  EXPECT_EQ((*a_search)[0].source, core::Layer::database);
  EXPECT_EQ((*a_search)[0].name, "secret");
  EXPECT_EQ((*a_search)[0].key, "db:" + std::to_string(a->id));
}

TEST_P(StoreConformance, NameHitOutranksBodyHit) {
  // Five filler skills, one with the word only deep in its body, one named by it.
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(store->create_skill(
        "alice", new_skill("filler-" + std::to_string(i),
                           "Routine text about queues and caches number " + std::to_string(i) + ".")));
  }
  ASSERT_TRUE(store->create_skill(
      "alice", new_skill("notes", "Long notes. We once mentioned kubernetes in passing, among many other words "
                                  "about queues, caches, logs, metrics, alerts and dashboards.")));
  ASSERT_TRUE(store->create_skill("alice", new_skill("kubernetes", "Apply manifests and watch the rollout.")));
  auto hits = store->search(std::string_view("alice"), "kubernetes", 5);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 2U);
  EXPECT_EQ((*hits)[0].name, "kubernetes");
  EXPECT_EQ((*hits)[1].name, "notes");
  EXPECT_GT((*hits)[0].score, (*hits)[1].score); // higher is better
  EXPECT_GT((*hits)[1].score, 0.0);

  // Natural language finds it too: the words that match nothing do not hide it.
  auto sentence = store->search(std::string_view("alice"), "how do I deploy to kubernetes?", 5);
  ASSERT_TRUE(sentence);
  ASSERT_FALSE(sentence->empty());
  EXPECT_EQ((*sentence)[0].name, "kubernetes");

  // limit holds
  auto one = store->search(std::string_view("alice"), "queues", 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1U);
}

TEST_P(StoreConformance, SearchFollowsUpdateAndDelete) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("morph", "Talks about the quokka.")));
  EXPECT_EQ(store->search(std::string_view("alice"), "quokka", 5)->size(), 1U);
  core::DbSkillUpdate update;
  update.content = skill_md("morph", "A test skill", "Now about the wombat.");
  ASSERT_TRUE(store->update_skill("alice", "morph", update));
  EXPECT_TRUE(store->search(std::string_view("alice"), "quokka", 5)->empty());
  EXPECT_EQ(store->search(std::string_view("alice"), "wombat", 5)->size(), 1U);
  // The description is indexed too.
  core::DbSkillUpdate describe;
  describe.description = "numbat handling";
  ASSERT_TRUE(store->update_skill("alice", "morph", describe));
  auto by_description = store->search(std::string_view("alice"), "numbat", 5);
  ASSERT_EQ(by_description->size(), 1U);
  EXPECT_EQ((*by_description)[0].description, "numbat handling");
  ASSERT_TRUE(store->delete_skill("alice", "morph"));
  EXPECT_TRUE(store->search(std::string_view("alice"), "wombat", 5)->empty());
  EXPECT_TRUE(store->search(std::string_view("alice"), "numbat", 5)->empty());
}

TEST_P(StoreConformance, HostileQueriesAreNeverSyntax) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("plain", "AND OR NOT near words, and a naïve café in 日本語.")));
  for (const char* query : {"AND",    "OR",     "NOT",        "NEAR(",      "NEAR(a b)",
                            "-x",     "x -y",   "a:b",        "name:plain", "^plain",
                            "plain*", "(plain", "plain)",     "\"plain",    "'; DROP TABLE hermes_skills; --",
                            "a\\b",   "日本語", "naïve café", "{plain}",    "plain + near"}) {
    auto hits = store->search(std::string_view("alice"), query, 5);
    EXPECT_TRUE(hits) << "query [" << query << "]: " << hits.error().message;
  }
  // Invalid UTF-8: searched, or refused as bad input — never an engine error.
  auto broken = store->search(std::string_view("alice"), "\xff\xfe broken utf8", 5);
  EXPECT_TRUE(broken || broken.error().code == ErrorCode::invalid_argument) << broken.error().message;
  for (const char* query : {"", "\"", "*", "   ", "()", "-", "\"\"\"", ":^*"}) {
    auto hits = store->search(std::string_view("alice"), query, 5);
    ASSERT_FALSE(hits) << "query [" << query << "] should have no words";
    EXPECT_EQ(hits.error().code, ErrorCode::invalid_argument);
  }
  auto and_word = store->search(std::string_view("alice"), "AND", 5);
  ASSERT_TRUE(and_word);
  // Matched as the word "and" (neither backend has stop words: docs/compat.md).
  EXPECT_EQ(and_word->size(), 1U);
  auto unicode = store->search(std::string_view("alice"), "café", 5);
  ASSERT_TRUE(unicode);
  EXPECT_EQ(unicode->size(), 1U);
  std::string long_query;
  for (int i = 0; i < 500; ++i)
    long_query += "word" + std::to_string(i) + " ";
  EXPECT_TRUE(store->search(std::string_view("alice"), long_query, 5));
  EXPECT_TRUE(store->get_skill("alice", "plain")); // still there
}

TEST_P(StoreConformance, RandomQueriesNeverBreakTheEngine) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("target", "near and or not quoted words")));
  // Queries built from the characters every engine's syntax is made of, plus
  // words and multi-byte text: each one is searched or refused as input.
  const std::vector<std::string> pieces = {
      "\"", "'",   "*",  "^", ":", "(", ")", "-",  "+",    "AND", "OR", "NOT",    "NEAR", "near", "words", "!",  "&",
      "|",  "<->", "\\", "{", "}", ",", " ", "  ", "日本", "é",   "\t", "quoted", "%",    "_",    ";",     "$1", "?"};
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245U + 12345U;
    return (state >> 16) & 0x7fffU;
  };
  for (int i = 0; i < 1500; ++i) {
    std::string query;
    const std::uint32_t length = 1 + next() % 8;
    for (std::uint32_t j = 0; j < length; ++j)
      query += pieces[next() % pieces.size()];
    auto hits = store->search(std::string_view("alice"), query, 3);
    ASSERT_TRUE(hits || hits.error().code == ErrorCode::invalid_argument)
        << "query [" << query << "]: " << hits.error().message;
  }
}

TEST_P(StoreConformance, NamesWithPathTricksRefused) {
  for (const char* name :
       {"../escape", "a/b", "..", ".", ".hidden", "-dash", "UPPER", "sp ace", "a\\b", "", "name\nnewline", "/abs"}) {
    auto created = store->create_skill("alice", new_skill(name));
    ASSERT_FALSE(created) << "name [" << name << "]";
    EXPECT_EQ(created.error().code, ErrorCode::invalid_argument) << name;
  }
  std::string nul_name("a\0b", 3);
  EXPECT_FALSE(store->create_skill("alice", new_skill(nul_name)));
  EXPECT_FALSE(store->create_skill("alice", new_skill(std::string(65, 'a'))));
  // Bad user ids are refused too.
  for (const char* user : {"", "../bob", "a/b", ".."}) {
    auto created = store->create_skill(user, new_skill("ok"));
    ASSERT_FALSE(created) << "user [" << user << "]";
    EXPECT_EQ(created.error().code, ErrorCode::invalid_argument);
  }
  EXPECT_TRUE(store->list_skills("alice")->empty());
}

TEST_P(StoreConformance, FileDocsSyncAndScope) {
  auto shared = core::make_search_doc("/home/skills/a/SKILL.md", "", core::Layer::shared, "aardvark-care", "Shared care guide",
                                      skill_md("aardvark-care", "Shared care guide", "Feed the aardvark."));
  shared.stamp = "s1";
  auto mine = core::make_search_doc("/home/users/alice/skills/b/SKILL.md", "alice", core::Layer::user, "aardvark-notes",
                                    "Alice's notes", skill_md("aardvark-notes", "Alice's notes", "My aardvark."));
  mine.stamp = "s2";
  ASSERT_TRUE(store->sync_file_docs({shared, mine}, {}));
  auto stamps = store->file_doc_stamps("");
  ASSERT_TRUE(stamps);
  ASSERT_EQ(stamps->size(), 1U);
  EXPECT_EQ((*stamps)[0].key, shared.key);
  EXPECT_EQ((*stamps)[0].stamp, "s1");
  EXPECT_EQ(store->file_doc_stamps("alice")->size(), 1U);

  EXPECT_EQ(store->search(std::string_view("alice"), "aardvark", 10)->size(), 2U);
  // Bookkeeping is never searchable text: the word "shared" and the encoded
  // owner find only documents that say them.
  auto word_shared = store->search(std::string_view("alice"), "shared", 10);
  ASSERT_TRUE(word_shared);
  ASSERT_EQ(word_shared->size(), 1U); // "Shared care guide"
  EXPECT_EQ((*word_shared)[0].key, shared.key);
  EXPECT_TRUE(store->search(std::string_view("alice"), "u097108105099101", 10)->empty());
  EXPECT_EQ(store->search(std::string_view("bob"), "aardvark", 10)->size(), 1U);
  auto anonymous = store->search(std::nullopt, "aardvark", 10);
  ASSERT_EQ(anonymous->size(), 1U);
  EXPECT_EQ((*anonymous)[0].source, core::Layer::shared);
  EXPECT_EQ((*anonymous)[0].owner, "");

  // Upsert replaces; removal removes; database rows are not file docs.
  shared.body = "Now about the pangolin.";
  shared.stamp = "s3";
  ASSERT_TRUE(store->create_skill("alice", new_skill("dbdoc", "aardvark in the database")));
  ASSERT_TRUE(store->sync_file_docs({shared}, {mine.key}));
  EXPECT_EQ((*store->file_doc_stamps(""))[0].stamp, "s3");
  EXPECT_TRUE(store->file_doc_stamps("alice")->empty());
  auto after = store->search(std::string_view("alice"), "aardvark", 10);
  ASSERT_TRUE(after);
  std::set<std::string> sources;
  for (const auto& hit : *after)
    sources.insert(core::layer_name(hit.source));
  EXPECT_EQ(sources, (std::set<std::string>{"shared", "database"})); // name still says aardvark
  EXPECT_EQ(store->search(std::nullopt, "pangolin", 10)->size(), 1U);
  // A file sync may not touch database documents.
  auto db_row = store->get_skill("alice", "dbdoc");
  ASSERT_TRUE(store->sync_file_docs({}, {"db:" + std::to_string(db_row->id)}));
  EXPECT_EQ(store->search(std::string_view("alice"), "dbdoc", 10)->size(), 1U);
}

TEST_P(StoreConformance, SearchDocTakesTagsAndTriggers) {
  const std::string text =
      "---\nname: tagged\ndescription: d\ntags: [ocelot, lynx]\ntriggers:\n  - caracal\nmetadata:\n  hermes:\n"
      "    tags: [serval]\n---\nBody about margays.\n";
  const auto doc = core::make_search_doc("k", "", core::Layer::shared, "tagged", "d", text);
  EXPECT_EQ(doc.tags, "ocelot lynx serval");
  EXPECT_EQ(doc.triggers, "caracal");
  EXPECT_EQ(doc.body, "Body about margays.\n");
  core::NewDbSkill skill;
  skill.name = "tagged";
  skill.description = "d";
  skill.content = text;
  ASSERT_TRUE(store->create_skill("alice", skill));
  for (const char* word : {"ocelot", "serval", "caracal", "margays", "margay"}) {
    EXPECT_EQ(store->search(std::string_view("alice"), word, 5)->size(), 1U) << word;
  }
}

TEST_P(StoreConformance, TwoWritersAtOnceLoseNothing) {
  constexpr int k_rows = 40;
  auto second = env->open();
  ASSERT_TRUE(second) << second.error().message;
  std::atomic<int> failures{0};
  std::string first_error;
  auto writer = [&](SkillStore& target, const std::string& user) {
    for (int i = 0; i < k_rows; ++i) {
      auto created = target.create_skill(user, new_skill("skill-" + std::to_string(i)));
      if (!created) {
        if (failures.fetch_add(1) == 0)
          first_error = created.error().message;
      }
    }
  };
  std::thread t1(writer, std::ref(*store), "writer-a");
  std::thread t2(writer, std::ref(**second), "writer-b");
  // A third thread shares the first store object (one connection, many threads).
  std::thread t3(writer, std::ref(*store), "writer-c");
  t1.join();
  t2.join();
  t3.join();
  EXPECT_EQ(failures.load(), 0) << first_error;
  for (const char* user : {"writer-a", "writer-b", "writer-c"}) {
    auto rows = store->list_skills(user);
    ASSERT_TRUE(rows);
    EXPECT_EQ(rows->size(), static_cast<std::size_t>(k_rows)) << user;
  }
}

TEST_P(StoreConformance, KilledWriterLosesNothingCommitted) {
  // The child writes rows one by one and reports each id after its commit
  // returned; it is SIGKILLed mid-run. Every reported row must be there.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    auto own = env->open();
    if (!own)
      ::_exit(3);
    for (int i = 0; i < 100000; ++i) {
      core::NewDbSkill skill = new_skill("crash-" + std::to_string(i), std::string(2000, 'x'));
      auto created = (*own)->create_skill("crasher", skill);
      if (!created)
        ::_exit(4);
      const std::string line = std::to_string(i) + "\n";
      if (::write(fds[1], line.data(), line.size()) < 0)
        ::_exit(5);
      if (i % 5 == 0) {
        core::DbSkillUpdate update;
        update.description = "touched " + std::to_string(i);
        if (!(*own)->update_skill("crasher", "crash-" + std::to_string(i), update))
          ::_exit(6);
      }
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string reported;
  char buffer[4096];
  int lines = 0;
  while (lines < 60) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n <= 0)
      break;
    reported.append(buffer, static_cast<std::size_t>(n));
    lines = static_cast<int>(std::count(reported.begin(), reported.end(), '\n'));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  // Whatever arrived after we stopped reading was also committed.
  while (true) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n <= 0)
      break;
    reported.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child ended on its own: status " << status;
  std::vector<int> committed;
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = reported.find('\n', start);
    if (nl == std::string::npos)
      break;
    committed.push_back(std::stoi(reported.substr(start, nl - start)));
    start = nl + 1;
  }
  ASSERT_GE(committed.size(), 60U);

  auto reopened = env->open();
  ASSERT_TRUE(reopened) << reopened.error().message;
  auto rows = (*reopened)->list_skills("crasher");
  ASSERT_TRUE(rows) << rows.error().message;
  std::set<std::string> names;
  for (const auto& row : *rows)
    names.insert(row.name);
  for (int i : committed) {
    EXPECT_TRUE(names.count("crash-" + std::to_string(i))) << "committed row crash-" << i << " lost";
  }
  EXPECT_LE(names.size(), committed.size() + 1); // at most the one in flight
  if (auto report = env->integrity()) {
    EXPECT_EQ(*report, "ok");
  }
  // The store still works after the crash.
  EXPECT_TRUE((*reopened)->create_skill("crasher", new_skill("after-crash")));
  auto found = (*reopened)->search(std::string_view("crasher"), "after-crash", 3);
  ASSERT_TRUE(found);
  ASSERT_FALSE(found->empty());
  EXPECT_EQ((*found)[0].name, "after-crash");
}

TEST_P(StoreConformance, OpenStoreDispatchesToTheBackend) {
  core::Context ctx;
  ctx.home = std::filesystem::temp_directory_path();
  auto opened = store::open_store(env->location(), ctx);
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_STREQ((*opened)->backend(), env->backend());
}

// Another user's documents must not move a user's ranking: no score and no
// order may depend on words in skills the caller cannot see (else a search
// tells whether someone else's private skill holds a word).
TEST_P(StoreConformance, OtherUsersDocumentsDoNotMoveTheRanking) {
  ASSERT_TRUE(store->create_skill("alice", new_skill("quartz-notes", "Quartz marker once. Zebra zebra zebra.")));
  ASSERT_TRUE(store->create_skill("alice", new_skill("zebra-guide", "Zebra care. Quartz quartz quartz quartz.")));
  ASSERT_TRUE(store->create_skill("alice", new_skill("plain-one", "Nothing to see here.")));
  auto before = store->search(std::string_view("alice"), "quartz zebra", 10);
  ASSERT_TRUE(before) << before.error().message;
  ASSERT_EQ(before->size(), 2U);

  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(store->create_skill("bob", new_skill("bob-" + std::to_string(i), "Quartz everywhere, quartz again.")));
  }
  auto after = store->search(std::string_view("alice"), "quartz zebra", 10);
  ASSERT_TRUE(after) << after.error().message;
  ASSERT_EQ(after->size(), before->size());
  for (std::size_t i = 0; i < before->size(); ++i) {
    EXPECT_EQ((*after)[i].key, (*before)[i].key) << "rank " << i;
    EXPECT_NEAR((*after)[i].score, (*before)[i].score, 1e-9) << "rank " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreConformance, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

} // namespace
} // namespace skillrt
