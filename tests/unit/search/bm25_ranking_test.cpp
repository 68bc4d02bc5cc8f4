// Both stores rank with bm25 and the statistics of the caller's scope,
// computed in memory from postings read out of FTS5 or out of PostgreSQL's
// tsvectors (bm25_top_k.hpp). These cases check each against the formula
// worked out by hand over random corpora, that kept postings follow writes
// (this connection's, and on PostgreSQL another replica's), and the merge
// itself (ties, limits, one list per owner).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/tenancy/layer.hpp"
#include "store/bm25_top_k.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_store.hpp"
#include "store/sqlite/sqlite_store.hpp"
#include "support/pg_test_db.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::store {
namespace {

// Words the porter and snowball stemmers and the case folding leave as they
// are, so a word of the test is a token of either index.
const std::vector<std::string> k_words = {"zorp", "kwat", "frob", "glim",  "trax", "blik",
                                          "vund", "plok", "quib", "snark", "wolk", "dumb"};

struct HandDoc {
  core::SearchDoc doc;
  // Column weight summed per word (name 10; description, tags, triggers 4; body 1).
  std::map<std::string, double> weight;
  double length = 0; // tokens in the text columns
};

// `count` words drawn with a skew, so some words are in most documents (bm25
// floors their IDF) and some in few.
std::string draw_words(std::mt19937& rng, std::size_t count, HandDoc& hand, double column_weight) {
  std::string text;
  std::discrete_distribution<std::size_t> pick({30, 20, 12, 8, 6, 5, 4, 3, 2, 1, 1, 1});
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& word = k_words[pick(rng)];
    text += (text.empty() ? "" : " ") + word;
    hand.weight[word] += column_weight;
    hand.length += 1;
  }
  return text;
}

HandDoc random_doc(std::mt19937& rng, int index, const std::string& owner) {
  HandDoc hand;
  core::SearchDoc& doc = hand.doc;
  doc.key = "/skills/" + std::to_string(index) + "/SKILL.md";
  doc.owner = owner;
  doc.source = owner.empty() ? core::Layer::shared : core::Layer::user;
  std::uniform_int_distribution<std::size_t> few(0, 3);
  std::uniform_int_distribution<std::size_t> many(0, 40);
  doc.name = draw_words(rng, 1 + few(rng) % 2, hand, 10);
  doc.description = draw_words(rng, few(rng) + 1, hand, 4);
  doc.tags = draw_words(rng, few(rng), hand, 4);
  doc.triggers = draw_words(rng, few(rng) % 2, hand, 4);
  doc.body = draw_words(rng, many(rng), hand, 1);
  return hand;
}

// bm25 by hand over the documents `viewer` may see: key → score, for the
// documents holding at least one query word.
std::map<std::string, double> hand_scores(const std::vector<HandDoc>& docs, const std::optional<std::string>& viewer,
                                          const std::vector<std::string>& query) {
  std::vector<const HandDoc*> scope;
  double total_length = 0;
  for (const HandDoc& hand : docs) {
    if (hand.doc.owner.empty() || (viewer && hand.doc.owner == *viewer)) {
      scope.push_back(&hand);
      total_length += hand.length;
    }
  }
  const auto n = static_cast<double>(scope.size());
  const double average = total_length / n;
  std::map<std::string, double> scores;
  for (const std::string& word : query) {
    double df = 0;
    for (const HandDoc* hand : scope) {
      df += hand->weight.count(word) > 0 ? 1.0 : 0.0;
    }
    double idf = std::log((n - df + 0.5) / (df + 0.5));
    if (!(idf > 0)) {
      idf = 1e-6;
    }
    for (const HandDoc* hand : scope) {
      const auto it = hand->weight.find(word);
      if (it == hand->weight.end()) {
        continue;
      }
      const double f = it->second;
      scores[hand->doc.key] += idf * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * hand->length / average));
    }
  }
  return scores;
}

// `store`'s answers to `text` against the hand-worked formula over `docs`.
void expect_hand_ranking(core::SkillStore& store, const std::vector<HandDoc>& docs,
                         const std::optional<std::string>& viewer, const std::vector<std::string>& query,
                         const std::string& text, std::size_t limit) {
  auto hits = store.search(viewer ? std::optional<std::string_view>(*viewer) : std::nullopt, text, limit);
  ASSERT_TRUE(hits) << hits.error().message;
  const std::map<std::string, double> expected = hand_scores(docs, viewer, query);
  std::vector<double> best;
  for (const auto& [key, score] : expected) {
    best.push_back(score);
  }
  std::sort(best.rbegin(), best.rend());
  ASSERT_EQ(hits->size(), std::min(limit, best.size())) << text;
  for (std::size_t i = 0; i < hits->size(); ++i) {
    const core::SearchHit& hit = (*hits)[i];
    const auto it = expected.find(hit.key);
    ASSERT_NE(it, expected.end()) << text << ": " << hit.key << " is not in the caller's scope or holds no word";
    EXPECT_NEAR(hit.score, it->second, 1e-9) << text << ": " << hit.key;
    // The i-th hit scores as the i-th best (ties may come in any order of keys).
    EXPECT_NEAR(hit.score, best[i], 1e-9) << text << ": rank " << i;
  }
}

void expect_ranks_as_the_formula(core::SkillStore& store) {
  std::mt19937 rng(2026);
  std::vector<HandDoc> docs;
  for (int i = 0; i < 300; ++i) {
    const char* owners[] = {"", "", "", "alice", "bob"};
    docs.push_back(random_doc(rng, i, owners[i % 5]));
  }
  std::vector<core::SearchDoc> batch;
  for (const HandDoc& hand : docs) {
    batch.push_back(hand.doc);
  }
  ASSERT_TRUE(store.sync_file_docs(batch, {}));

  const std::vector<std::optional<std::string>> viewers = {std::nullopt, "alice", "bob"};
  std::uniform_int_distribution<std::size_t> word_count(1, 4);
  std::uniform_int_distribution<std::size_t> any_word(0, k_words.size() - 1);
  std::uniform_int_distribution<std::size_t> window(1, 60);
  for (int round = 0; round < 60; ++round) {
    std::vector<std::string> query;
    std::string text;
    for (std::size_t i = word_count(rng); i > 0; --i) {
      query.push_back(k_words[any_word(rng)]);
      text += query.back() + " ";
    }
    expect_hand_ranking(store, docs, viewers[static_cast<std::size_t>(round) % viewers.size()], query, text,
                        window(rng));
  }
}

TEST(Bm25Ranking, StoreRanksAsTheFormulaOverTheCallersScope) {
  test::TempTree tree;
  auto opened = open_sqlite_store(tree.path() / "s.db");
  ASSERT_TRUE(opened) << opened.error().message;
  expect_ranks_as_the_formula(**opened);
}

// PostgreSQL's tsvectors give the same frequencies and lengths as FTS5 for
// these words, so the same hand-worked scores hold there.
TEST(Bm25Ranking, PostgresRanksAsTheFormulaOverTheCallersScope) {
  auto db = test::PgTestDb::create();
  if (!db) {
    GTEST_SKIP() << test::PgTestDb::skip_reason();
  }
  auto opened = open_postgres_store(db->url());
  ASSERT_TRUE(opened) << opened.error().message;
  expect_ranks_as_the_formula(**opened);
}

// Postings kept by one replica follow writes made through another: a second
// libpq connection (as another replica's) inserts, replaces and deletes rows;
// every search through the first store must still match the formula over
// what is in the table now.
TEST(Bm25Ranking, PostgresKeptPostingsFollowAnotherReplicasWrites) {
  auto db = test::PgTestDb::create();
  if (!db) {
    GTEST_SKIP() << test::PgTestDb::skip_reason();
  }
  auto reader = open_postgres_store(db->url());
  ASSERT_TRUE(reader) << reader.error().message;
  auto other = pg::Connection::open(db->url());
  ASSERT_TRUE(other) << other.error().message;

  std::mt19937 rng(11);
  std::map<std::string, HandDoc> live;
  int next_key = 0;
  const auto put = [&](HandDoc hand) {
    const core::SearchDoc& doc = hand.doc;
    auto done = other->exec(
        "INSERT INTO skill_search (key, owner, source, name, description, tags, triggers, body, stamp)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 's') ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name,"
        " description = EXCLUDED.description, tags = EXCLUDED.tags, triggers = EXCLUDED.triggers, body = EXCLUDED.body",
        {doc.key, doc.owner, std::string(core::layer_name(doc.source)), doc.name, doc.description, doc.tags,
         doc.triggers, doc.body});
    ASSERT_TRUE(done) << done.error().message;
    live[doc.key] = std::move(hand);
  };
  for (int i = 0; i < 80; ++i) {
    put(random_doc(rng, next_key++, i % 3 == 0 ? "alice" : ""));
  }
  const std::vector<std::vector<std::string>> queries = {
      {"zorp"}, {"kwat", "frob"}, {"glim", "trax", "blik"}, {"snark", "wolk", "dumb", "zorp"}, {"quib"}};
  for (int round = 0; round < 20; ++round) {
    std::vector<HandDoc> docs;
    for (const auto& [key, hand] : live) {
      docs.push_back(hand);
    }
    for (const std::optional<std::string>& viewer : {std::optional<std::string>(), std::optional<std::string>("alice")}) {
      for (const std::vector<std::string>& query : queries) {
        std::string text;
        for (const std::string& word : query) {
          text += word + " ";
        }
        expect_hand_ranking(**reader, docs, viewer, query, text, 30);
      }
    }
    // The other replica writes: new documents, replaced ones, removals.
    for (std::size_t i = rng() % 4; i > 0; --i) {
      put(random_doc(rng, next_key++, rng() % 3 == 0 ? "alice" : ""));
    }
    if (!live.empty() && rng() % 2 == 0) {
      auto at = std::next(live.begin(), static_cast<std::ptrdiff_t>(rng() % live.size()));
      HandDoc replacement = random_doc(rng, 0, at->second.doc.owner);
      replacement.doc.key = at->first;
      put(std::move(replacement));
    }
    if (!live.empty() && rng() % 2 == 0) {
      auto at = std::next(live.begin(), static_cast<std::ptrdiff_t>(rng() % live.size()));
      auto gone = other->exec("DELETE FROM skill_search WHERE key = $1", {at->first});
      ASSERT_TRUE(gone) << gone.error().message;
      live.erase(at);
    }
  }
}

// The weighted frequency read with ts_rank_cd (pg_search_cache.hpp says how)
// equals the one counted position by position, on documents of real length.
TEST(Bm25Ranking, PostgresWeightedFrequencyEqualsThePositionCount) {
  auto db = test::PgTestDb::create();
  if (!db) {
    GTEST_SKIP() << test::PgTestDb::skip_reason();
  }
  auto opened = open_postgres_store(db->url());
  ASSERT_TRUE(opened) << opened.error().message;
  std::mt19937 rng(5);
  std::vector<core::SearchDoc> batch;
  for (int i = 0; i < 40; ++i) {
    HandDoc hand = random_doc(rng, i, "");
    for (int more = 0; more < 30; ++more) {
      hand.doc.body += " " + draw_words(rng, 40, hand, 1);
    }
    batch.push_back(hand.doc);
  }
  ASSERT_TRUE((*opened)->sync_file_docs(batch, {}));
  const std::optional<std::string> differing = db->scalar(
      "SELECT count(*) FROM skill_search s, unnest(s.document) u"
      " WHERE round(10 * ts_rank_cd('{0.1,0.1,0.4,1.0}', s.document, quote_literal(u.lexeme)::tsquery, 0))"
      " <> (SELECT sum(CASE w WHEN 'A' THEN 10 WHEN 'B' THEN 4 ELSE 1 END) FROM unnest(u.weights) w)");
  EXPECT_EQ(differing, "0");
  EXPECT_EQ(db->scalar("SELECT count(*) > 300 FROM skill_search s, unnest(s.document) u"), "t");
}

// The store keeps postings between searches and keeps them in step with its
// own writes; a second store object on the same file, whose cache every
// commit of the first empties, reads everything afresh: both must answer
// alike after any mix of inserts, replacements and removals.
TEST(Bm25Ranking, KeptPostingsFollowThisConnectionsWrites) {
  test::TempTree tree;
  auto writer = open_sqlite_store(tree.path() / "s.db");
  ASSERT_TRUE(writer) << writer.error().message;
  auto fresh = open_sqlite_store(tree.path() / "s.db");
  ASSERT_TRUE(fresh) << fresh.error().message;

  std::mt19937 rng(7);
  int next_key = 0;
  std::vector<std::string> keys;
  const auto random_batch = [&](std::size_t count) {
    std::vector<core::SearchDoc> batch;
    for (std::size_t i = 0; i < count; ++i) {
      const bool replace = !keys.empty() && rng() % 3 == 0;
      const int index = replace ? -1 : next_key++;
      HandDoc hand = random_doc(rng, index, rng() % 3 == 0 ? "alice" : "");
      if (replace) {
        hand.doc.key = keys[rng() % keys.size()];
        hand.doc.owner = ""; // a key keeps its owner
        hand.doc.source = core::Layer::shared;
        if (hand.doc.key.find("/alice/") != std::string::npos) {
          hand.doc.owner = "alice";
          hand.doc.source = core::Layer::user;
        }
      } else {
        hand.doc.key = "/skills/" + std::string(hand.doc.owner.empty() ? "shared/" : "alice/") + std::to_string(index) +
                       "/SKILL.md";
        keys.push_back(hand.doc.key);
      }
      batch.push_back(hand.doc);
    }
    return batch;
  };
  ASSERT_TRUE((*writer)->sync_file_docs(random_batch(60), {}));

  const std::vector<std::string> queries = {"zorp", "kwat frob", "glim trax blik", "snark wolk dumb zorp", "quib"};
  for (int round = 0; round < 25; ++round) {
    for (const std::optional<std::string_view> viewer :
         {std::optional<std::string_view>(), std::optional<std::string_view>("alice")}) {
      for (const std::string& query : queries) {
        auto kept = (*writer)->search(viewer, query, 30);
        auto afresh = (*fresh)->search(viewer, query, 30);
        ASSERT_TRUE(kept && afresh);
        ASSERT_EQ(kept->size(), afresh->size()) << "round " << round << ": " << query;
        for (std::size_t i = 0; i < kept->size(); ++i) {
          EXPECT_EQ((*kept)[i].key, (*afresh)[i].key) << "round " << round << ": " << query << " rank " << i;
          EXPECT_DOUBLE_EQ((*kept)[i].score, (*afresh)[i].score) << "round " << round << ": " << query;
        }
      }
    }
    // This connection writes: new and replaced documents, some removed, and
    // now and then one of alice's database skills.
    std::vector<std::string> removed;
    for (std::size_t i = rng() % 4; i > 0 && !keys.empty(); --i) {
      const std::size_t at = rng() % keys.size();
      removed.push_back(keys[at]);
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(at));
    }
    ASSERT_TRUE((*writer)->sync_file_docs(random_batch(rng() % 5), removed));
    const std::string db_name = "kwat-" + std::to_string(round % 3);
    if (round % 4 == 1) {
      core::NewDbSkill skill;
      skill.name = db_name;
      skill.description = "zorp kwat";
      skill.content = "---\nname: " + db_name + "\ndescription: zorp kwat\n---\nglim glim trax\n";
      (void)(*writer)->create_skill("alice", skill);
    } else if (round % 4 == 2) {
      core::DbSkillUpdate update;
      update.content = "---\nname: " + db_name + "\ndescription: frob\n---\nsnark quib quib\n";
      (void)(*writer)->update_skill("alice", db_name, update);
    } else if (round % 4 == 3) {
      (void)(*writer)->delete_skill("alice", "kwat-" + std::to_string((round + 1) % 3));
    }
  }
}

TEST(Bm25TopK, MergesOwnersTiesGoToTheLowerRowAndLimitHolds) {
  // Two owners' lists of one word, disjoint rows, each ascending; every row
  // the same length and frequency, so all tie.
  const PostingList shared = {{1, 1, 10}, {4, 1, 10}, {9, 1, 10}};
  const PostingList own = {{2, 1, 10}, {7, 1, 10}};
  const CorpusSize corpus{100, 10};
  const std::vector<WordPostings> one_word = {WordPostings{{&shared, &own}}};

  const std::vector<RankedRow> top = bm25_top_k(corpus, one_word, 3);
  ASSERT_EQ(top.size(), 3U);
  EXPECT_EQ(top[0].rowid, 1);
  EXPECT_EQ(top[1].rowid, 2);
  EXPECT_EQ(top[2].rowid, 4);
  EXPECT_EQ(top[0].score, top[2].score);
  EXPECT_GT(top[0].score, 0.0);
  EXPECT_EQ(bm25_top_k(corpus, one_word, 50).size(), 5U);
  EXPECT_TRUE(bm25_top_k(corpus, one_word, 0).empty());

  // A second, rarer word held by row 9 lifts it to the top.
  const PostingList rare = {{9, 10, 10}};
  const std::vector<WordPostings> two_words = {WordPostings{{&shared, &own}}, WordPostings{{&rare}}};
  const std::vector<RankedRow> lifted = bm25_top_k(corpus, two_words, 2);
  ASSERT_EQ(lifted.size(), 2U);
  EXPECT_EQ(lifted[0].rowid, 9);
  EXPECT_EQ(lifted[1].rowid, 1);
  EXPECT_GT(lifted[0].score, lifted[1].score);
}

} // namespace
} // namespace skillrt::store
