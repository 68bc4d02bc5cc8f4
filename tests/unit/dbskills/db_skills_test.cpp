// The database-skills service over a real store, on SQLite and on PostgreSQL: the permission matrix
// for the database layer (the user themself, another user, an owner-org user,
// an other-org user, no user), the rules shared with skill_manage, the
// description taken from the frontmatter, and change events.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/dbskills/db_skills.hpp"
#include "core/events/event_bus.hpp"
#include "core/limits.hpp"
#include "unit/store/store_test_env.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

std::string skill_md(const std::string& name, const std::string& description, const std::string& body = "Steps.") {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n\n" + body + "\n";
}

Context actor(std::optional<std::string> user, std::string org, EventBus* bus = nullptr) {
  Context ctx;
  ctx.user_id = std::move(user);
  ctx.org_id = std::move(org);
  ctx.events = bus;
  return ctx;
}

class DbSkillsService : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    std::string skip;
    env = test::make_store_env(GetParam(), skip);
    if (!env) {
      GTEST_SKIP() << skip;
    }
    auto opened = env->open();
    ASSERT_TRUE(opened) << opened.error().message;
    db = std::move(*opened);
    DbSkillCreate request;
    request.name = "alices";
    request.content = skill_md("alices", "Alice's private skill");
    ASSERT_TRUE(db_create_skill(alice, *db, request));
  }

  std::unique_ptr<test::StoreEnv> env;
  std::unique_ptr<SkillStore> db;
  Context alice = actor("alice", "1");
};

TEST_P(DbSkillsService, TheUserThemselfMayDoEverything) {
  auto listed = db_list_skills(alice, *db);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1U);
  auto got = db_get_skill(alice, *db, "alices");
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->description, "Alice's private skill"); // from the frontmatter
  DbSkillChange change;
  change.category = "private";
  auto updated = db_update_skill(alice, *db, "alices", change);
  ASSERT_TRUE(updated) << updated.error().message;
  EXPECT_EQ(updated->version, 2);
  EXPECT_EQ(updated->category, "private");
  ASSERT_TRUE(db_delete_skill(alice, *db, "alices"));
  EXPECT_TRUE(db_list_skills(alice, *db)->empty());
}

TEST_P(DbSkillsService, NoOtherActorReachesTheUsersRows) {
  for (const Context& other : {actor("bob", "1"), actor("carol", "0"), actor("dave", "2")}) {
    SCOPED_TRACE(*other.user_id + " of org " + other.org_id);
    auto listed = db_list_skills(other, *db);
    ASSERT_TRUE(listed);
    EXPECT_TRUE(listed->empty());
    EXPECT_EQ(db_get_skill(other, *db, "alices").error().code, ErrorCode::not_found);
    DbSkillChange change;
    change.content = skill_md("alices", "hijacked");
    EXPECT_EQ(db_update_skill(other, *db, "alices", change).error().code, ErrorCode::not_found);
    EXPECT_EQ(db_delete_skill(other, *db, "alices").error().code, ErrorCode::not_found);
    // Their own create of the same name is theirs, not Alice's.
    DbSkillCreate mine;
    mine.name = "alices";
    mine.content = skill_md("alices", "their own");
    auto created = db_create_skill(other, *db, mine);
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(created->user_id, *other.user_id);
  }
  auto still = db_get_skill(alice, *db, "alices");
  ASSERT_TRUE(still);
  EXPECT_EQ(still->version, 1);
  EXPECT_EQ(still->description, "Alice's private skill");
}

TEST_P(DbSkillsService, NoUserIsRefusedForEveryOperation) {
  const Context nobody = actor(std::nullopt, "");
  const Context owner_org_nobody = actor(std::nullopt, "0");
  for (const Context& ctx : {nobody, owner_org_nobody}) {
    std::vector<Error> errors;
    errors.push_back(db_list_skills(ctx, *db).error());
    errors.push_back(db_get_skill(ctx, *db, "alices").error());
    DbSkillCreate request;
    request.name = "x";
    request.content = skill_md("x", "d");
    errors.push_back(db_create_skill(ctx, *db, request).error());
    DbSkillChange change;
    change.description = "d";
    errors.push_back(db_update_skill(ctx, *db, "alices", change).error());
    errors.push_back(db_delete_skill(ctx, *db, "alices").error());
    for (const Error& error : errors) {
      EXPECT_EQ(error.code, ErrorCode::refused);
      EXPECT_EQ(error.message, "database skills need a user (--user)");
    }
  }
  EXPECT_EQ(db_list_skills(alice, *db)->size(), 1U);
}

TEST_P(DbSkillsService, InvalidUserInContextIsRefused) {
  const Context bad = actor("../alice", "1");
  auto listed = db_list_skills(bad, *db);
  ASSERT_FALSE(listed);
  EXPECT_EQ(listed.error().code, ErrorCode::refused);
}

TEST_P(DbSkillsService, ContentRules) {
  DbSkillCreate request;
  request.name = "Bad/Name";
  request.content = skill_md("x", "d");
  EXPECT_EQ(db_create_skill(alice, *db, request).error().code, ErrorCode::invalid_argument);
  request.name = "../up";
  EXPECT_EQ(db_create_skill(alice, *db, request).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(db_get_skill(alice, *db, "../up").error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(db_delete_skill(alice, *db, "a/b").error().code, ErrorCode::invalid_argument);

  request.name = "blank";
  request.content = "  \n\t";
  EXPECT_EQ(db_create_skill(alice, *db, request).error().code, ErrorCode::invalid_argument);

  request.name = "huge";
  request.content = skill_md("huge", "d", std::string(limits::k_max_skill_content_chars, 'x'));
  auto huge = db_create_skill(alice, *db, request);
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(huge.error().message.find("100,000"), std::string::npos) << huge.error().message;

  request.name = "longdesc";
  request.content = skill_md("longdesc", "d");
  request.description = std::string(limits::k_max_description_length + 1, 'd');
  EXPECT_EQ(db_create_skill(alice, *db, request).error().code, ErrorCode::limit_exceeded);

  request.name = "badcat";
  request.description.reset();
  request.category = "../etc";
  EXPECT_EQ(db_create_skill(alice, *db, request).error().code, ErrorCode::invalid_argument);

  EXPECT_EQ(db_update_skill(alice, *db, "alices", DbSkillChange{}).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(db_list_skills(alice, *db)->size(), 1U);
}

TEST_P(DbSkillsService, DescriptionComesFromTheFrontmatterUnlessGiven) {
  DbSkillCreate request;
  request.name = "plain";
  request.content = "No frontmatter at all, just steps.\n";
  auto plain = db_create_skill(alice, *db, request);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->description, "");

  request.name = "given";
  request.content = skill_md("given", "from the file");
  request.description = "said by the caller";
  EXPECT_EQ(db_create_skill(alice, *db, request)->description, "said by the caller");

  DbSkillChange change;
  change.content = skill_md("given", "new file description");
  auto updated = db_update_skill(alice, *db, "given", change);
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->description, "new file description");
  change.description = "caller wins";
  EXPECT_EQ(db_update_skill(alice, *db, "given", change)->description, "caller wins");
}

TEST_P(DbSkillsService, WritesPublishEventsToTheOwnerOnly) {
  EventBus bus;
  std::vector<SkillEvent> seen_by_alice;
  std::vector<SkillEvent> seen_by_bob;
  std::vector<SkillEvent> seen_by_anonymous;
  auto a = bus.subscribe(std::string("alice"), [&](const SkillEvent& e) { seen_by_alice.push_back(e); });
  auto b = bus.subscribe(std::string("bob"), [&](const SkillEvent& e) { seen_by_bob.push_back(e); });
  auto n = bus.subscribe(std::nullopt, [&](const SkillEvent& e) { seen_by_anonymous.push_back(e); });
  const Context ctx = actor("alice", "1", &bus);

  DbSkillCreate request;
  request.name = "evented";
  request.content = skill_md("evented", "d");
  auto created = db_create_skill(ctx, *db, request);
  ASSERT_TRUE(created);
  DbSkillChange change;
  change.description = "e";
  ASSERT_TRUE(db_update_skill(ctx, *db, "evented", change));
  ASSERT_TRUE(db_delete_skill(ctx, *db, "evented"));
  // Failed writes publish nothing.
  EXPECT_FALSE(db_delete_skill(ctx, *db, "evented"));
  EXPECT_FALSE(db_create_skill(ctx, *db, DbSkillCreate{"alices", skill_md("alices", "dup"), "", std::nullopt}));

  ASSERT_EQ(seen_by_alice.size(), 3U);
  EXPECT_EQ(seen_by_alice[0].kind, ChangeKind::created);
  EXPECT_EQ(seen_by_alice[1].kind, ChangeKind::updated);
  EXPECT_EQ(seen_by_alice[2].kind, ChangeKind::deleted);
  for (const SkillEvent& event : seen_by_alice) {
    EXPECT_EQ(event.layer, Layer::database);
    EXPECT_EQ(event.owner, "alice");
    EXPECT_EQ(event.name, "evented");
    EXPECT_EQ(event.location, "db:" + std::to_string(created->id));
  }
  EXPECT_TRUE(seen_by_bob.empty());
  EXPECT_TRUE(seen_by_anonymous.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, DbSkillsService, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

} // namespace
} // namespace skillrt::core
