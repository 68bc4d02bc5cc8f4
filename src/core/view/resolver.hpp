// The one skill-name resolver (spec §2.7 rules 3-10), shared by view and, later,
// manage and prompt: direct path, recursive dir/frontmatter name, legacy flat file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/discovery/catalog.hpp"
#include "core/view/failure.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_ambiguity_hint =
    "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), "
    "or rename one of the colliding skills so each name is unique.";
inline constexpr std::string_view k_not_found_hint = "Use skills_list to see all available skills";

struct ResolvedSkill {
  std::filesystem::path skill_md;                 // SKILL.md, or the legacy NAME.md, as found under its root
  std::optional<std::filesystem::path> skill_dir; // nullopt for a legacy flat skill
  const SkillRecord* record = nullptr;            // the catalog record when there is one
  Tier tier = Tier::local;
  std::filesystem::path root; // the root it was found under
};

// Every candidate for `name` (and for `alias`, the `ns/bare` form of `ns:bare`)
// across all roots, deduplicated by resolved path, in root order.
std::vector<ResolvedSkill> collect_candidates(const Catalog& catalog, const std::string& name,
                                              const std::optional<std::string>& alias);

// Resolves a checked name to exactly one skill: the user's own skills win over
// the shared layer (issue 3/5), then project-tier candidates win over the
// others; more than one left → ambiguous (matches + hint); none → not_found
// with the first limits::k_not_found_suggestions names in listing order; no roots
// at all → not_found "Skills directory does not exist yet...".
// `only` restricts the search to one layer's roots (manage's target layer).
ViewResult<ResolvedSkill> resolve_skill(const Catalog& catalog, const std::string& name,
                                        const std::optional<std::string>& alias,
                                        std::optional<Layer> only = std::nullopt);

} // namespace skillrt::core
