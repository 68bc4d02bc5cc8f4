// The file layers through the library: resolution order, `source`, writes to
// the right layer, the permission matrix at the manage entry point, per-user
// caches, change events and the inline shell's working dir.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/discovery/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/manage/manage_request.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/prompt/skills_index.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/view/preprocess.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/view_json.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;
using core::Layer;
using core::ManageAction;

std::string skill_text(const std::string& name, const std::string& description, const std::string& body = "Body.\n") {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body;
}

class Layers : public ::testing::Test {
 protected:
  Layers() {
    m_cfg = core::Config{};
    fs::create_directories(home() / "skills");
  }

  fs::path home() const { return m_tree.path() / "home"; }

  core::Context ctx(std::optional<std::string> user = std::nullopt, std::string org = "") const {
    core::Context out;
    out.home = home();
    out.cwd = m_tree.path();
    out.user_id = std::move(user);
    out.org_id = std::move(org);
    out.env = [](std::string_view name) -> std::optional<std::string> {
      if (name == "SKILLRT_NO_CACHE") return std::string("0");
      return std::nullopt;
    };
    out.events = &m_bus;
    return out;
  }

  void shared_skill(const std::string& name, const std::string& description) {
    m_tree.write(fs::path("home/skills") / name / "SKILL.md", skill_text(name, description));
  }

  core::ManageResult manage(const core::Context& c, ManageAction action, const std::string& name,
                            std::optional<std::string> content = std::nullopt,
                            std::optional<Layer> layer = std::nullopt) {
    core::ManageRequest request;
    request.action = action;
    request.name = name;
    request.content = std::move(content);
    request.layer = layer;
    return core::manage_skill(c, m_cfg, request);
  }

  protocol::Json list(const core::Context& c) const {
    return protocol::list_json(core::build_catalog(c, m_cfg), std::nullopt);
  }

  protocol::Json view(const core::Context& c, const std::string& name) const {
    std::vector<std::string> warnings;
    return protocol::skill_view_json(c, m_cfg, name, std::nullopt, warnings);
  }

  static std::vector<std::string> names_and_sources(const protocol::Json& listing) {
    std::vector<std::string> out;
    for (const auto& entry : listing["skills"]) {
      out.push_back(entry["name"].get<std::string>() + "@" + entry["source"].get<std::string>());
    }
    return out;
  }

  TempTree m_tree;
  core::Config m_cfg;
  mutable core::EventBus m_bus;
};

TEST_F(Layers, WithoutAUserNothingChanges) {
  shared_skill("deploy", "Shared deploy");
  EXPECT_EQ(names_and_sources(list(ctx())), (std::vector<std::string>{"deploy@local"}));
  EXPECT_FALSE(fs::exists(home() / "users"));
  const auto created = manage(ctx(), ManageAction::create, "fresh", skill_text("fresh", "New"));
  ASSERT_TRUE(created.success) << created.error;
  EXPECT_TRUE(fs::exists(home() / "skills" / "fresh" / "SKILL.md"));
  EXPECT_FALSE(fs::exists(home() / "users"));
  // A per-user layer needs a user.
  const auto refused = manage(ctx(), ManageAction::create, "mine", skill_text("mine", "x"), Layer::user);
  EXPECT_FALSE(refused.success);
  EXPECT_EQ(refused.code, ErrorCode::refused);
}

TEST_F(Layers, UserSkillsComeFirstAndShadowSharedOnes) {
  shared_skill("deploy", "Shared deploy");
  shared_skill("lint", "Shared lint");
  const auto alice = ctx("alice", "acme");
  ASSERT_TRUE(manage(alice, ManageAction::create, "deploy", skill_text("deploy", "Alice deploy")).success);
  ASSERT_TRUE(manage(alice, ManageAction::create, "notes", skill_text("notes", "Alice notes")).success);
  EXPECT_TRUE(fs::exists(home() / "users" / "alice" / "skills" / "deploy" / "SKILL.md"));

  const auto listing = list(alice);
  EXPECT_EQ(names_and_sources(listing),
            (std::vector<std::string>{"deploy@user", "lint@shared", "notes@user"}));
  for (const auto& entry : listing["skills"]) {
    if (entry["name"] == "deploy") {
      EXPECT_EQ(entry["description"], "Alice deploy");
    }
  }
  const auto viewed = view(alice, "deploy");
  ASSERT_TRUE(viewed["success"].get<bool>()) << viewed.dump();
  EXPECT_NE(viewed["content"].get<std::string>().find("Alice deploy"), std::string::npos);
  EXPECT_EQ(viewed["path"], "deploy/SKILL.md");

  // Bob sees only shared skills; Alice's are not there by any name.
  const auto bob = ctx("bob", "acme");
  EXPECT_EQ(names_and_sources(list(bob)), (std::vector<std::string>{"deploy@shared", "lint@shared"}));
  EXPECT_NE(view(bob, "deploy")["content"].get<std::string>().find("Shared deploy"), std::string::npos);
  EXPECT_FALSE(view(bob, "notes")["success"].get<bool>());
  // Single-user mode does not see per-user skills either.
  EXPECT_EQ(names_and_sources(list(ctx())), (std::vector<std::string>{"deploy@local", "lint@local"}));
}

TEST_F(Layers, WritesTargetOneLayerAndResolveOnlyThere) {
  shared_skill("deploy", "Shared deploy");
  const auto bob = ctx("bob", "acme");
  // Edit with a user targets the user's layer: the shared skill is not found there.
  const auto edit = manage(bob, ManageAction::edit, "deploy", skill_text("deploy", "Hacked"));
  EXPECT_FALSE(edit.success);
  EXPECT_EQ(edit.code, ErrorCode::not_found);
  // And the shared layer refuses bob's org, with the bilingual text.
  for (ManageAction action : {ManageAction::create, ManageAction::edit, ManageAction::remove_skill}) {
    const auto refused = manage(bob, action, "deploy", skill_text("deploy", "Hacked"), Layer::shared);
    EXPECT_FALSE(refused.success);
    EXPECT_EQ(refused.code, ErrorCode::refused);
    EXPECT_EQ(refused.error, std::string(core::k_shared_write_refused));
  }
  EXPECT_NE(view(ctx(), "deploy")["content"].get<std::string>().find("Shared deploy"), std::string::npos);

  // The owner org edits the shared skill, even while it has its own same-named one.
  const auto root = ctx("root", "0");
  ASSERT_TRUE(manage(root, ManageAction::create, "deploy", skill_text("deploy", "Root's own")).success);
  const auto shared_edit = manage(root, ManageAction::edit, "deploy", skill_text("deploy", "Owner edit"), Layer::shared);
  ASSERT_TRUE(shared_edit.success) << shared_edit.error;
  EXPECT_NE(view(bob, "deploy")["content"].get<std::string>().find("Owner edit"), std::string::npos);
  EXPECT_NE(view(root, "deploy")["content"].get<std::string>().find("Root's own"), std::string::npos);
  // Deleting in the user layer leaves the shared one.
  ASSERT_TRUE(manage(root, ManageAction::remove_skill, "deploy").success);
  EXPECT_FALSE(fs::exists(home() / "users" / "root" / "skills" / "deploy"));
  EXPECT_TRUE(fs::exists(home() / "skills" / "deploy" / "SKILL.md"));
}

TEST_F(Layers, AnotherUserCannotTouchMySkills) {
  const auto alice = ctx("alice", "0");
  ASSERT_TRUE(manage(alice, ManageAction::create, "secret", skill_text("secret", "Alice only")).success);
  const auto bob = ctx("bob", "0");
  EXPECT_FALSE(manage(bob, ManageAction::edit, "secret", skill_text("secret", "x")).success);
  EXPECT_FALSE(manage(bob, ManageAction::remove_skill, "secret").success);
  EXPECT_FALSE(manage(bob, ManageAction::remove_skill, "secret", std::nullopt, Layer::shared).success);
  EXPECT_TRUE(fs::exists(home() / "users" / "alice" / "skills" / "secret" / "SKILL.md"));
  // Not even by its path through the shared roots.
  EXPECT_FALSE(view(bob, "../users/alice/skills/secret")["success"].get<bool>());
}

TEST_F(Layers, EveryWritePublishesOneEventForTheRightAudience) {
  std::vector<core::SkillEvent> alice_seen;
  std::vector<core::SkillEvent> bob_seen;
  auto alice_sub = m_bus.subscribe(std::string("alice"), [&](const core::SkillEvent& e) { alice_seen.push_back(e); });
  auto bob_sub = m_bus.subscribe(std::string("bob"), [&](const core::SkillEvent& e) { bob_seen.push_back(e); });
  const auto alice = ctx("alice", "0");
  ASSERT_TRUE(manage(alice, ManageAction::create, "mine", skill_text("mine", "v1")).success);
  ASSERT_TRUE(manage(alice, ManageAction::edit, "mine", skill_text("mine", "v2")).success);
  ASSERT_TRUE(manage(alice, ManageAction::remove_skill, "mine").success);
  ASSERT_TRUE(manage(alice, ManageAction::create, "common", skill_text("common", "c"), Layer::shared).success);
  EXPECT_FALSE(manage(ctx("bob", "acme"), ManageAction::remove_skill, "common", std::nullopt, Layer::shared).success);

  ASSERT_EQ(alice_seen.size(), 4u);
  EXPECT_EQ(alice_seen[0].kind, core::ChangeKind::created);
  EXPECT_EQ(alice_seen[1].kind, core::ChangeKind::updated);
  EXPECT_EQ(alice_seen[2].kind, core::ChangeKind::deleted);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(alice_seen[static_cast<std::size_t>(i)].layer, Layer::user);
    EXPECT_EQ(alice_seen[static_cast<std::size_t>(i)].owner, "alice");
    EXPECT_EQ(alice_seen[static_cast<std::size_t>(i)].name, "mine");
  }
  EXPECT_EQ(alice_seen[3].layer, Layer::shared);
  EXPECT_EQ(alice_seen[3].owner, "");
  EXPECT_EQ(alice_seen[3].location, (home() / "skills" / "common" / "SKILL.md").string());
  // Bob hears only about the shared skill.
  ASSERT_EQ(bob_seen.size(), 1u);
  EXPECT_EQ(bob_seen[0].name, "common");
}

TEST_F(Layers, CachesAreKeptPerUser) {
  EXPECT_EQ(core::prompt_snapshot_path(ctx()), home() / ".skills_prompt_snapshot.json");
  EXPECT_EQ(core::prompt_snapshot_path(ctx("alice")), home() / "users" / "alice" / ".skills_prompt_snapshot.json");
  EXPECT_EQ(core::listing_cache_path(ctx("alice")), home() / "users" / "alice" / "cache" / "skillrt-listing.bin");
  EXPECT_EQ(core::listing_cache_path(ctx()), home() / "cache" / "skillrt-listing.bin");

  // The in-process index: alice's index is never served to bob.
  core::clear_prompt_cache();
  ASSERT_TRUE(manage(ctx("alice"), ManageAction::create, "alice-only", skill_text("alice-only", "A")).success);
  const auto for_alice = core::build_skills_system_prompt_cached(ctx("alice"), m_cfg, core::PromptOptions{});
  const auto for_bob = core::build_skills_system_prompt_cached(ctx("bob"), m_cfg, core::PromptOptions{});
  EXPECT_NE(for_alice.text.find("alice-only"), std::string::npos);
  EXPECT_EQ(for_bob.text.find("alice-only"), std::string::npos);
  // Bob has no skills at all: same roots but an empty user folder of his own; still his own entry.
  EXPECT_EQ(core::prompt_cache_size(), 2u);
}

TEST_F(Layers, InlineShellRunsInTheUsersTmp) {
  core::SkillsConfig skills;
  skills.inline_shell = true;
  const auto alice = ctx("alice");
  const std::string out = core::preprocess_skill_content("cwd: !`pwd`", home() / "skills" / "x", home(), alice, skills,
                                                          core::Tier::local);
  EXPECT_EQ(out, "cwd: " + fs::canonical(home() / "users" / "alice" / "tmp").string());
  const std::string single =
      core::preprocess_skill_content("cwd: !`pwd`", m_tree.path(), home(), ctx(), skills, core::Tier::local);
  EXPECT_EQ(single, "cwd: " + m_tree.path().string());
}

// Every user runs as the same OS account, so a user's own skill must not run
// shell: its snippet could read another user's home.
TEST_F(Layers, InlineShellNeverRunsForAUsersOwnSkill) {
  core::SkillsConfig skills;
  skills.inline_shell = true;
  const fs::path own = home() / "users" / "alice" / "skills" / "x";
  const std::string text = "peek: !`cat ../../bob/memory.json` !`pwd`";
  EXPECT_EQ(core::preprocess_skill_content(text, own, home(), ctx("alice"), skills, core::Tier::user), text);
  // Template variables are still filled in for it.
  EXPECT_EQ(core::preprocess_skill_content("${HERMES_SKILL_DIR}", own, home(), ctx("alice"), skills, core::Tier::user),
            own.string());
  // Shared tiers still run for the same user.
  for (const core::Tier shared : {core::Tier::project, core::Tier::local, core::Tier::external}) {
    EXPECT_EQ(core::preprocess_skill_content("!`echo ran`", own, home(), ctx("alice"), skills, shared), "ran");
  }
}

}  // namespace
}  // namespace skillrt::test
