// What one background review may do, and what it did (spec §2.10 step 1,
// §2.17 rule 8): the skills it has read (its own views and those of the
// conversation), the refusals for skills it must not touch, read-before-write,
// and the route of every write — a proposal when write approval applies
// (skills.write_approval), else a live write marked as the review's.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "core/proposals/approval_gate.hpp"
#include "core/review/review_snapshot.hpp"

namespace skillrt::core {

// What one of the review's writes came to: refused, staged or applied.
using ReviewWriteOutcome = GatedWrite;

class ReviewSession {
 public:
  // `origin`: review for the background review; curator for the curator's
  // merge pass, whose every write is a proposal.
  ReviewSession(Context ctx, Config cfg, const std::vector<ViewedSkill>& conversation_views, std::string conversation,
                WriteOrigin origin = WriteOrigin::review);

  const Context& context() const { return m_ctx; }
  const Config& config() const { return m_cfg; }

  // A successful skill_view during the review (or in the conversation).
  void note_view(const std::string& name, const std::optional<std::string>& file_path);
  // A successful read_file of a file inside a skill.
  void note_file_read(const std::filesystem::path& path);

  // One skill_manage call of the review: refusals, read-before-write, then
  // staged or applied.
  ReviewWriteOutcome write(ManageRequest request);

  // The skill roots the review's read-only file tools may read: the layer it
  // writes (the user's own root with a user, else HOME/skills).
  std::vector<std::filesystem::path> readable_roots() const;

 private:
  // Why the review may not touch the skill at `dir` ("" = it may).
  std::string protected_reason(const std::filesystem::path& dir, const std::filesystem::path& root, int tier,
                               const std::string& name) const;
  std::optional<std::string> read_before_write_error(const ManageRequest& request, const std::filesystem::path& dir) const;

  Context m_ctx;
  Config m_cfg;
  std::string m_conversation;
  WriteOrigin m_origin;
  std::set<std::string> m_read_skills;  // canonical skill folders whose SKILL.md (or any view) was read
  std::set<std::string> m_read_files;   // canonical files read
};

}  // namespace skillrt::core
