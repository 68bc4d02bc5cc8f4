// Trigger activation over the three layers (issue 5/6 item 2): the skills a
// user's turn calls for, from their triggers, their names and the files the
// turn touches, each with the reasons it fired. A message about nothing the
// skills name returns nothing, so matching never floods an agent's context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/activation/activation_index.hpp"
#include "core/activation/trigger_rules.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct MatchRequest {
  std::string message;             // the user's turn
  std::vector<std::string> paths;  // files the turn touches (for `paths` globs)
  std::size_t limit = limits::k_match_default_limit;
};

// invalid_argument for a limit outside 1..k_match_max_limit, or for neither
// a message nor a path; limit_exceeded for a message longer than
// k_max_match_message_bytes or more than k_max_match_paths paths.
Result<void> check_match_request(const MatchRequest& request);

struct SkillActivation {
  std::string name;
  std::string description;
  Layer source = Layer::shared;
  double score = 0;
  std::optional<std::string> path;  // SKILL.md of a file skill
  std::optional<std::int64_t> id;   // row id of a database skill
  std::vector<ActivationReason> reasons;
};

struct SkillMatch {
  std::vector<SkillActivation> results;   // best first, at most the limit
  std::vector<TriggerProblem> problems;   // triggers of the skills ctx sees that cannot be used
};

// What a host that keeps a catalog keeps beside it: the file skills' compiled
// triggers, built on the first match and reused while the catalog lives.
class CatalogActivationMemo {
 public:
  const ActivationIndex& index(const Catalog& catalog);
  const std::vector<TriggerProblem>& problems(const Catalog& catalog);

 private:
  void build(const Catalog& catalog);
  std::once_flag m_built;
  ActivationIndex m_index;
  std::vector<TriggerProblem> m_problems;
};

// Matches over the skills ctx lists in `catalog` and ctx's user's database
// skills (a database skill shadows a file skill of the same name, as view
// resolves them). `store` is asked only when ctx has a user.
Result<SkillMatch> match_skills_in(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                   const MatchRequest& request, CatalogActivationMemo* memo = nullptr);

}  // namespace skillrt::core
