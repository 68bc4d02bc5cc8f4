// build_skills_system_prompt (spec §2.16): the skills index block an agent puts
// in its system prompt, built from the same catalog `list` shows.
//
// Category rule shared with `list` (spec §5.1 item 2 made consistent): a
// skill's index category is the full directory path between its root and its
// own directory ("a/b" for root/a/b/skill/SKILL.md); skills directly under a
// root go under "general". `list`'s category is the first segment of the same
// path (null for root-level skills), and --compact matches on that segment.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/prompt/conditions.hpp"
#include "core/prompt/index_render.hpp"
#include "core/prompt/snapshot.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_root_category = "general";
inline constexpr std::size_t k_index_description_limit = 60; // SKILL_PROMPT_DESC_LIMIT
inline constexpr std::size_t k_prompt_cache_entries = 32;    // _SKILLS_PROMPT_CACHE_MAX

struct PromptOptions {
  ToolInfo tools;
  std::vector<std::string> compact_categories;
  std::size_t max_chars = 0; // 0 = no limit
  // Read and write HOME/.skills_prompt_snapshot.json (only consulted when tool info is given).
  bool use_snapshot = true;
  std::int64_t snapshot_racy_window_ns = PromptSnapshot::k_racy_window_ns;
  CatalogOptions catalog;
};

// The index description of rule 7 from a listing description: surrounding
// whitespace and quotes stripped, whitespace runs holding a line break folded
// to one space, then cut to 57 characters + "..." when longer than 60.
std::string index_description(std::string_view description);

// The index category of a catalog record ("general" at a root's top).
std::string index_category_of(const SkillRecord& record);

// Builds the index for ctx: the catalog's offered skills (first of each name,
// project tier first), minus skills whose directory name is disabled or whose
// conditions hide them, rendered with options. Never throws.
RenderedIndex build_skills_system_prompt(const Context& ctx, const Config& cfg, const PromptOptions& options);

// As build_skills_system_prompt, through this process's LRU of
// k_prompt_cache_entries results keyed as rule 2 says (roots, tools, toolsets,
// platform, OS, disabled names, compact categories, size limit). A hit does
// not look at the disk: long-running hosts call invalidate_skill_caches after
// writes (skill_manage does).
RenderedIndex build_skills_system_prompt_cached(const Context& ctx, const Config& cfg, const PromptOptions& options);

// Empties this process's index LRU.
void clear_prompt_cache();
// Entries in this process's index LRU (for tests).
std::size_t prompt_cache_size();

} // namespace skillrt::core
