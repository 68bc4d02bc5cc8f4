// The review session's policy on real temp homes: which skills the review may
// not touch (spec §2.10 step 1), read-before-write, where its writes go
// (proposals by default, live with write_approval none), and its read-only
// file tools that never leave the skill roots.
#include <gtest/gtest.h>

#include "../manage/manage_fixture.hpp"
#include "core/proposals/proposal_store.hpp"
#include "core/review/review_files.hpp"
#include "core/review/review_session.hpp"
#include "core/usage/usage_book.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

class ReviewPolicy : public test::ManageFixture {
 protected:
  // An agent-made skill the review may manage.
  void make_agent_skill(const std::string& rel, const std::string& name) {
    make_skill(rel, name);
    ASSERT_TRUE(update_usage(m_ctx, Layer::shared, fs::path(rel).filename().string(),
                             [](UsageRecord& r) { r.created_by = SkillAuthor::agent; }));
  }
  ManageRequest patch_request(const std::string& name) {
    ManageRequest request;
    request.action = ManageAction::patch;
    request.name = name;
    request.old_string = "Do the thing.";
    request.new_string = "Do the thing carefully.";
    return request;
  }
  ReviewSession session(const std::vector<ViewedSkill>& viewed = {}) { return ReviewSession(m_ctx, m_cfg, viewed, "c1"); }
};

TEST_F(ReviewPolicy, RefusesSkillsThatAreNotTheAgents) {
  make_skill("by-hand", "by-hand");  // no usage record: a person wrote it
  make_agent_skill("pinned", "pinned");
  ASSERT_TRUE(update_usage(m_ctx, Layer::shared, "pinned", [](UsageRecord& r) { r.pinned = true; }));
  make_agent_skill("bundled", "bundled");
  write(skills() / ".bundled_manifest", "bundled:abc\n");
  make_agent_skill("from-hub", "from-hub");
  write(skills() / ".hub" / "lock.json",
        R"({"version":1,"installed":{"from-hub":{"install_path":"from-hub","source_spec":"x"}}})");
  const fs::path external = m_root / "ext";
  write(external / "outside" / "SKILL.md", skill_text("outside"));
  m_cfg.skills.external_dirs.push_back(external.string());

  ReviewSession review = session({{"by-hand", std::nullopt}, {"pinned", std::nullopt}, {"bundled", std::nullopt},
                                  {"from-hub", std::nullopt}, {"outside", std::nullopt}});
  auto refusal = [&](const std::string& name) { return review.write(patch_request(name)).result.error; };
  EXPECT_NE(refusal("by-hand").find("Refusing background curator patch of skill 'by-hand': a person wrote it"),
            std::string::npos)
      << refusal("by-hand");
  EXPECT_NE(refusal("by-hand").find("skillrt adopt by-hand"), std::string::npos);
  EXPECT_NE(refusal("pinned").find("it is pinned"), std::string::npos);
  EXPECT_NE(refusal("bundled").find("bundled skill"), std::string::npos);
  EXPECT_NE(refusal("outside").find("external skills directory"), std::string::npos);
  EXPECT_NE(refusal("from-hub").find("installed from the hub"), std::string::npos) << refusal("from-hub");
  EXPECT_TRUE(list_proposals(m_ctx)->empty());
}

TEST_F(ReviewPolicy, ReadBeforeWrite) {
  make_agent_skill("deploy", "deploy");
  write(skills() / "deploy" / "references" / "notes.md", "old notes\n");
  ReviewSession review = session();
  ReviewWriteOutcome outcome = review.write(patch_request("deploy"));
  EXPECT_FALSE(outcome.result.success);
  EXPECT_NE(outcome.result.error.find("Read before write"), std::string::npos);
  EXPECT_NE(outcome.result.error.find("skill_view(name='deploy')"), std::string::npos);

  review.note_view("deploy", std::nullopt);
  outcome = review.write(patch_request("deploy"));
  EXPECT_TRUE(outcome.result.success) << outcome.result.error;
  ASSERT_TRUE(outcome.proposal);  // the default write_approval: review writes are proposals
  EXPECT_EQ(outcome.proposal->state, ProposalState::pending);
  EXPECT_NE(read(skills() / "deploy" / "SKILL.md").find("Do the thing."), std::string::npos);

  // A support file needs its own read; a new one only the skill's.
  ManageRequest file_patch = patch_request("deploy");
  file_patch.file_path = "references/notes.md";
  file_patch.old_string = "old notes";
  file_patch.new_string = "new notes";
  EXPECT_NE(review.write(file_patch).result.error.find("file_path='references/notes.md'"), std::string::npos);
  review.note_view("deploy", std::string("references/notes.md"));
  EXPECT_TRUE(review.write(file_patch).result.success);
  ManageRequest new_file;
  new_file.action = ManageAction::write_file;
  new_file.name = "deploy";
  new_file.file_path = "references/pitfalls.md";
  new_file.file_content = "# Pitfalls\n";
  EXPECT_TRUE(review.write(new_file).result.success);
}

TEST_F(ReviewPolicy, AViewInTheConversationCountsAsARead) {
  make_agent_skill("deploy", "deploy");
  ReviewSession review = session({{"deploy", std::nullopt}});
  EXPECT_TRUE(review.write(patch_request("deploy")).result.success);
}

TEST_F(ReviewPolicy, WithoutApprovalTheWriteGoesLiveAndACreateIsMarkedAgentMade) {
  m_cfg.learning.write_approval.mode = WriteApprovalMode::none;
  make_agent_skill("deploy", "deploy");
  ReviewSession review = session({{"deploy", std::nullopt}});
  ReviewWriteOutcome outcome = review.write(patch_request("deploy"));
  ASSERT_TRUE(outcome.result.success) << outcome.result.error;
  EXPECT_TRUE(outcome.applied);
  EXPECT_FALSE(outcome.proposal);
  EXPECT_NE(read(skills() / "deploy" / "SKILL.md").find("carefully"), std::string::npos);
  EXPECT_EQ((*find_usage(m_ctx, Layer::shared, "deploy"))->patches, 1U);

  ManageRequest create;
  create.action = ManageAction::create;
  create.name = "release-notes";
  create.content = skill_text("release-notes");
  ASSERT_TRUE(review.write(create).result.success);
  EXPECT_EQ((*find_usage(m_ctx, Layer::shared, "release-notes"))->created_by, SkillAuthor::agent);
  // The review's new skills land in generated/.
  EXPECT_TRUE(fs::exists(skills() / "generated" / "release-notes" / "SKILL.md"));
  // The folder is the review's choice, never the model's: a hostile one is refused by the category rules.
  ManageRequest hostile = create;
  hostile.name = "other";
  hostile.content = skill_text("other");
  hostile.folder = "../escape";
  EXPECT_FALSE(manage_skill(m_ctx, m_cfg, hostile).success);
}

TEST_F(ReviewPolicy, AUsersReviewNeverSeesOrWritesAnotherUsersSkills) {
  Context alice = m_ctx;
  alice.user_id = "alice";
  Context bob = m_ctx;
  bob.user_id = "bob";
  write(m_ctx.home / "users" / "bob" / "skills" / "secret" / "SKILL.md", skill_text("secret"));
  ReviewSession review(alice, m_cfg, {{"secret", std::nullopt}}, "c");
  ManageRequest request = patch_request("secret");
  const ReviewWriteOutcome outcome = review.write(request);
  EXPECT_FALSE(outcome.result.success);
  EXPECT_EQ(outcome.result.code, ErrorCode::not_found);
  EXPECT_FALSE(review_read_file(review.readable_roots(), "../../bob/skills/secret/SKILL.md", 0, 0));
  auto found = review_search_files(review.readable_roots(), "secret", "", 0);
  ASSERT_TRUE(found);
  EXPECT_TRUE(found->matches.empty());
  EXPECT_TRUE(list_proposals(alice)->empty());
}

TEST_F(ReviewPolicy, FileToolsStayInsideTheSkillRoots) {
  make_skill("deploy", "deploy");
  write(skills() / "deploy" / "references" / "a.md", "alpha\nBeta line\ngamma\n");
  write(m_root / "secret.txt", "TOKEN=abc\n");
  const std::vector<fs::path> roots{skills()};

  auto read_ok = review_read_file(roots, "deploy/references/a.md", 2, 1);
  ASSERT_TRUE(read_ok) << read_ok.error().message;
  EXPECT_EQ(read_ok->content, "     2|Beta line\n");
  EXPECT_EQ(read_ok->total_lines, 3U);
  EXPECT_TRUE(read_ok->truncated);

  for (const std::string& hostile : {std::string("../secret.txt"), (m_root / "secret.txt").string(),
                                     std::string("deploy/../../secret.txt"), std::string("/etc/passwd"),
                                     std::string("")}) {
    auto refused = review_read_file(roots, hostile, 0, 0);
    EXPECT_FALSE(refused) << hostile;
  }
  // A link inside a skill that leads out is refused once resolved.
  fs::create_symlink(m_root / "secret.txt", skills() / "deploy" / "leak.md");
  EXPECT_FALSE(review_read_file(roots, "deploy/leak.md", 0, 0));

  auto found = review_search_files(roots, "beta", "", 0);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->matches.size(), 1U);
  EXPECT_EQ(found->matches[0].path, "deploy/references/a.md");
  EXPECT_EQ(found->matches[0].line, 2U);
  EXPECT_EQ(found->matches[0].text, "Beta line");
  EXPECT_TRUE(review_search_files(roots, "TOKEN", "", 0)->matches.empty());  // the link is not followed
  EXPECT_FALSE(review_search_files(roots, "x", "../", 0));
}

}  // namespace
}  // namespace skillrt::core
