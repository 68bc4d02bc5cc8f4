// The whole permission matrix of the three layers: every operation × layer ×
// actor, against the table in permissions.hpp (and the issue).
#include "core/tenancy/permissions.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace skillrt::test {
namespace {

using core::Layer;
using core::Operation;

struct Actor {
  const char* label;
  std::optional<std::string> user;
  std::string org;
  std::string owner;  // whose per-user file or database row is touched
  bool anonymous = false;  // an unauthenticated network caller (serve --allow-anonymous)
};

core::Context context_of(const Actor& actor) {
  core::Context ctx;
  ctx.home = "/nonexistent";
  ctx.user_id = actor.user;
  ctx.org_id = actor.org;
  ctx.anonymous = actor.anonymous;
  return ctx;
}

const std::vector<Actor>& actors() {
  static const std::vector<Actor> all = {
      {"owner-org user, own item", "alice", "0", "alice"},
      {"owner-org user, another user's item", "alice", "0", "bob"},
      {"other-org user, own item", "bob", "acme", "bob"},
      {"other-org user, another user's item", "bob", "acme", "alice"},
      {"user without org, own item", "carol", "", "carol"},
      {"no user (single-user mode)", std::nullopt, "", "alice"},
      {"no user with the owner org", std::nullopt, "0", ""},
      {"anonymous network caller", std::nullopt, "", "alice", true},
      {"anonymous network caller claiming the owner org", std::nullopt, "0", "", true},
  };
  return all;
}

constexpr Operation k_ops[] = {Operation::list, Operation::read, Operation::create, Operation::update,
                               Operation::remove};

bool is_write(Operation op) { return op == Operation::create || op == Operation::update || op == Operation::remove; }

// The matrix, written out independently of the implementation.
bool expected(const Actor& actor, Operation op, Layer layer) {
  switch (layer) {
    case Layer::shared:
      if (actor.anonymous) return !is_write(op);  // anonymous over the network: read-only
      if (!actor.user) return true;          // single-user mode: as before layers
      if (!is_write(op)) return true;        // every user reads shared skills
      return actor.org == "0";               // the owner org writes them
    case Layer::user:
    case Layer::database:
      return actor.user && *actor.user == actor.owner;  // that user only, reads and writes alike
  }
  return false;
}

TEST(Permissions, FullMatrix) {
  int cells = 0;
  for (const Actor& actor : actors()) {
    const core::Context ctx = context_of(actor);
    for (Layer layer : {Layer::shared, Layer::user, Layer::database}) {
      for (Operation op : k_ops) {
        auto got = core::check_permission(ctx, op, layer, actor.owner);
        const bool want = expected(actor, op, layer);
        EXPECT_EQ(got.has_value(), want) << actor.label << " / " << core::layer_name(layer) << " / op "
                                         << static_cast<int>(op);
        if (!got) {
          EXPECT_EQ(got.error().code, ErrorCode::refused);
          EXPECT_FALSE(got.error().message.empty());
        }
        ++cells;
      }
    }
  }
  EXPECT_EQ(cells, 9 * 3 * 5);
}

TEST(Permissions, SharedWriteRefusalIsBilingual) {
  core::Context ctx;
  ctx.user_id = "bob";
  ctx.org_id = "acme";
  for (Operation op : {Operation::create, Operation::update, Operation::remove}) {
    auto got = core::check_permission(ctx, op, Layer::shared);
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().message, std::string(core::k_shared_write_refused));
  }
  EXPECT_NE(core::k_shared_write_refused.find("共享技能仅允许所有者机构用户修改"), std::string_view::npos);
  EXPECT_NE(core::k_shared_write_refused.find("owner organisation"), std::string_view::npos);
}

TEST(Permissions, OwnerOrgGivesNoRightsOverAnotherUsersLayer) {
  core::Context ctx;
  ctx.user_id = "alice";
  ctx.org_id = "0";
  EXPECT_FALSE(core::check_permission(ctx, Operation::read, Layer::user, "bob"));
  EXPECT_FALSE(core::check_permission(ctx, Operation::remove, Layer::database, "bob"));
}

TEST(Permissions, EmptyOwnerIsNobodysLayer) {
  core::Context ctx;
  ctx.user_id = "alice";
  ctx.org_id = "0";
  EXPECT_FALSE(core::check_permission(ctx, Operation::read, Layer::user, ""));
  EXPECT_FALSE(core::check_permission(ctx, Operation::list, Layer::database));
}

TEST(Permissions, DatabaseWithoutUserSaysWhy) {
  core::Context ctx;
  auto got = core::check_permission(ctx, Operation::list, Layer::database, "alice");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().message, "database skills need a user (--user)");
}

TEST(Permissions, AnInvalidUserIdInTheContextFailsClosed) {
  core::Context ctx;
  ctx.user_id = "../bob";
  ctx.org_id = "0";
  EXPECT_FALSE(core::check_permission(ctx, Operation::read, Layer::user, "../bob"));
  EXPECT_FALSE(core::check_permission(ctx, Operation::create, Layer::database, "../bob"));
}

TEST(Permissions, LayerNames) {
  EXPECT_STREQ(core::layer_name(Layer::shared), "shared");
  EXPECT_STREQ(core::layer_name(Layer::user), "user");
  EXPECT_STREQ(core::layer_name(Layer::database), "database");
}

}  // namespace
}  // namespace skillrt::test
