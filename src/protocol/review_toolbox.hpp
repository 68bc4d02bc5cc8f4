// The background review's tools with the JSON a model reads: skills_list,
// skill_view and skill_manage as every agent sees them (skill_tools.hpp), the
// memory tool when the review has a user, and the read-only file tools. Every
// write goes through the review session's policy (refusals, read-before-write,
// proposals); a tool the review does not have, or arguments that are not a
// JSON object, get an error answer the model can read.
#pragma once

#include <vector>

#include "core/review/review_engine.hpp"
#include "core/review/review_session.hpp"

namespace skillrt::protocol {

class ReviewTools final : public core::ReviewToolbox {
 public:
  // `memory`: offer the memory tool (the review has a user and memory review is on).
  ReviewTools(core::ReviewSession& session, bool memory);

  std::vector<core::ChatTool> tools() const override;
  std::string call(const core::ChatToolCall& call, core::ReviewAction& action) override;

 private:
  core::ReviewSession& m_session;
  bool m_memory;
};

}  // namespace skillrt::protocol
