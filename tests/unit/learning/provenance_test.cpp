// Provenance: what list, view, doctor and the index say about where a skill
// came from, read from the runtime's own records on a real temp home.
#include <gtest/gtest.h>

#include "../manage/manage_fixture.hpp"
#include "core/hub/lock_file.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/provenance/provenance.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/usage/usage_book.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using ProvenanceTest = test::ManageFixture;

const SkillRecord* record_named(const Catalog& catalog, const std::string& name) {
  for (const SkillRecord& record : catalog.records) {
    if (record.dir.path().filename() == name) {
      return &record;
    }
  }
  return nullptr;
}

TEST_F(ProvenanceTest, ReadsEachKindFromTheRecordsTheRuntimeKeeps) {
  make_skill("greet", "greet");                         // bundled (manifest)
  make_skill("3rd/acme/lint", "lint");                  // installed by the hub
  make_skill("generated/tidy", "tidy");                 // the review's, approved
  make_skill("notes", "notes");                         // the person's own
  make_skill("3rd/acme/copied", "copied");              // under 3rd/ but not in the lock file

  ASSERT_TRUE(sync::write_bundled_manifest(sync::bundled_manifest_path(m_ctx), {{"greet", "abc"}}));
  hub::LockFile lock;
  hub::LockEntry entry;
  entry.identifier = "github.com/acme/skills";
  entry.trust_level = TrustLevel::community;
  entry.install_path = "3rd/acme/lint";
  lock.installed["lint"] = entry;
  fs::create_directories(skills() / ".hub");
  auto written = hub::write_lock_file(skills() / ".hub" / "lock.json", lock);
  ASSERT_TRUE(written) << written.error().message;
  ASSERT_TRUE(update_usage(m_ctx, Layer::shared, "tidy", [](UsageRecord& r) { r.created_by = SkillAuthor::agent; }));

  const Catalog catalog = manage_catalog(m_ctx, m_cfg);
  const ProvenanceIndex index = ProvenanceIndex::load(m_ctx, m_cfg, catalog.roots);
  auto of = [&](const std::string& name) {
    const SkillRecord* record = record_named(catalog, name);
    EXPECT_NE(record, nullptr) << name;
    return record == nullptr ? Provenance{} : index.of(catalog, *record);
  };

  EXPECT_EQ(of("greet").kind, ProvenanceKind::bundled);
  EXPECT_FALSE(of("greet").policy);

  const Provenance lint = of("lint");
  EXPECT_EQ(lint.kind, ProvenanceKind::hub);
  EXPECT_EQ(lint.source, "github.com/acme/skills");
  EXPECT_EQ(lint.trust, "community");
  ASSERT_TRUE(lint.policy);
  EXPECT_EQ(lint.policy->folder, "3rd");
  EXPECT_EQ(lint.policy->trust, "community");

  const Provenance tidy = of("tidy");
  EXPECT_EQ(tidy.kind, ProvenanceKind::agent);
  ASSERT_TRUE(tidy.policy);
  EXPECT_EQ(tidy.policy->trust, "agent-created");

  EXPECT_EQ(of("notes").kind, ProvenanceKind::user);
  // A folder under 3rd/ the lock file does not name is the person's copy:
  // the folder's policy applies, the hub's source does not.
  const Provenance copied = of("copied");
  EXPECT_EQ(copied.kind, ProvenanceKind::user);
  EXPECT_TRUE(copied.source.empty());
  ASSERT_TRUE(copied.policy);

  // The view path knows only the folder; the deepest root decides.
  EXPECT_EQ(index.of(Tier::local, skills() / "3rd" / "acme" / "lint").kind, ProvenanceKind::hub);
  EXPECT_EQ(index.of(Tier::local, skills() / "generated" / "tidy").kind, ProvenanceKind::agent);
}

TEST_F(ProvenanceTest, ABrokenRecordLeavesTheKindUndetectedNotTheListingFailed) {
  make_skill("3rd/acme/lint", "lint");
  write(skills() / ".hub" / "lock.json", "{not json");
  write(skills() / ".usage.json", "[1,");
  const Catalog catalog = manage_catalog(m_ctx, m_cfg);
  const ProvenanceIndex index = ProvenanceIndex::load(m_ctx, m_cfg, catalog.roots);
  const SkillRecord* record = record_named(catalog, "lint");
  ASSERT_NE(record, nullptr);
  const Provenance lint = index.of(catalog, *record);
  EXPECT_EQ(lint.kind, ProvenanceKind::user);
  ASSERT_TRUE(lint.policy);  // the folder policy does not depend on those files
}

TEST_F(ProvenanceTest, EachUserSeesTheirOwnAgentSkills) {
  Context alice = m_ctx;
  alice.user_id = "alice";
  write(m_ctx.home / "users" / "alice" / "skills" / "draft" / "SKILL.md", skill_text("draft"));
  ASSERT_TRUE(update_usage(alice, Layer::user, "draft", [](UsageRecord& r) { r.created_by = SkillAuthor::agent; }));
  const Catalog catalog = manage_catalog(alice, m_cfg);
  const ProvenanceIndex index = ProvenanceIndex::load(alice, m_cfg, catalog.roots);
  const SkillRecord* record = record_named(catalog, "draft");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->tier, Tier::user);
  EXPECT_EQ(index.of(catalog, *record).kind, ProvenanceKind::agent);
}

}  // namespace
}  // namespace skillrt::core
