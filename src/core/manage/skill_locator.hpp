// Finding the skill a manage action works on, through the one resolver that
// list, view and the index share (spec §5.1 item 1): a skill answers to the name
// the catalog shows (frontmatter or folder name) and to its `category/name` path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/manage/manage_request.hpp"

namespace skillrt::core {

struct ManagedSkill {
  std::filesystem::path dir;      // the skill folder as found under its root
  std::filesystem::path skill_md; // dir / SKILL.md
  std::filesystem::path root;     // the root it was found under (canonical)
  Tier tier = Tier::local;
};

template <typename T> using ManageExpected = tl::expected<T, ManageResult>;

// Hermes' profile name for ctx's home: the folder name under `profiles/`, else "default".
std::string active_profile_name(const Context& ctx);

// Resolves `name` over `catalog` (hidden and disabled skills included). Fails like
// view on a hostile name or an ambiguity (matches + hint), with Hermes' manage
// wording when nothing matches (`for_write_file` adds the "Create it first"
// sentence), and refuses a legacy flat NAME.md skill.
// `only` restricts the lookup to one layer's roots (the request's target layer).
ManageExpected<ManagedSkill> locate_managed_skill(const Context& ctx, const Catalog& catalog, std::string_view name,
                                                  bool for_write_file, std::optional<Layer> only = std::nullopt);

// The roots of `catalog` that belong to `layer`.
std::vector<Root> layer_roots(const Catalog& catalog, Layer layer);

// The catalog manage resolves against (legacy files collected, so they can be refused clearly).
Catalog manage_catalog(const Context& ctx, const Config& cfg);

} // namespace skillrt::core
