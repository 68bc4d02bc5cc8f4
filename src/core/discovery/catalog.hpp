// The catalog: every skill found under the roots, the listing view of it, and
// the reasons for everything hidden, shadowed or skipped (what `doctor` shows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/description_store.hpp"
#include "core/discovery/path_string.hpp"
#include "core/discovery/roots.hpp"
#include "core/discovery/string_arena.hpp"
#include "core/discovery/walker.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

// Why a found skill is not offered.
enum class Hidden : unsigned char {
  none,
  platform,     // `platforms:` does not match ctx.os
  environment,  // `environments:` does not match this process
  disabled,     // skills.disabled / platform_disabled
  shadowed,     // an earlier tier (or earlier path) has the same name
};
const char* hidden_name(Hidden hidden);

// Every text field views the owning Catalog's `strings` arena (see
// string_arena.hpp): a record is valid as long as its catalog, and copying a
// record copies views, not text. The directory fields are views into the
// bytes of skill_md, and frontmatter_name and name share them when equal.
// The description is not among them: read it with Catalog::description().
struct SkillRecord {
  std::string_view name;                     // frontmatter name or directory name, truncated to 64 ("ns:" before it in a plugin)
  DescriptionRef description_ref;            // listing description in Catalog::descriptions
  // first path component when SKILL.md is at depth >= 3; a plugin's skill: the namespace
  std::optional<std::string_view> category;
  std::string_view index_category;           // all dirs between root and skill dir joined by '/' ("" at top)
  PathString skill_md;                       // absolute path of SKILL.md (under the root as found, not resolved)
  PathString dir;                            // its directory
  std::string_view dir_name;
  std::string_view frontmatter_name;         // raw `name` (stringified) or ""
  std::size_t root_index = 0;                // into Catalog::roots
  ViewList platforms;
  ViewList environments;
  Tier tier = Tier::local;                   // tier and hidden side by side: a record is 8 bytes smaller
  Hidden hidden = Hidden::none;
  std::size_t shadowed_by = static_cast<std::size_t>(-1);  // index into Catalog::records
};

// What activates a skill from a user's turn, as written in its frontmatter
// (core/activation compiles it). Kept beside the records, not in them: few
// skills have any, and a field in every record costs 50k catalogs' worth.
struct ActivationLists {
  std::size_t record = 0;  // index into Catalog::records
  ViewList triggers;       // `triggers`
  ViewList paths;          // `paths` globs
};

struct Catalog {
  Catalog() = default;
  // Movable, not copyable: records view `strings`, whose blocks move with it.
  Catalog(Catalog&&) noexcept = default;
  Catalog& operator=(Catalog&&) noexcept = default;
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;
  ~Catalog() = default;

  StringArena strings;                 // the text of records and legacy_files (declared first: dies last)
  DescriptionStore descriptions;       // the records' descriptions, mostly out of memory at scale
  RootSet roots;
  std::vector<SkillRecord> records;    // every parsed SKILL.md, tier order then path order
  std::vector<std::size_t> listed;     // indices of offered skills, in discovery order (first wins)
  std::vector<SkippedPath> skipped;    // walker skips + unreadable / non-UTF-8 / bad frontmatter
  std::vector<std::size_t> dirs_per_root;
  std::vector<std::size_t> skills_per_root;
  std::vector<PathString> legacy_files;  // flat NAME.md files, only with CatalogOptions::collect_legacy
  std::vector<ActivationLists> activation;  // records with `triggers` or `paths`, by record index

  // The activation lists of record `record`, or null when it has none.
  const ActivationLists* activation_of(std::size_t record) const;

  // The listing description of `record` (a record of this catalog: body
  // fallback, truncated to 1024 characters), as a copy. Descriptions are
  // kept out of memory in large catalogs (description_store.hpp), so there is
  // no stored view of them.
  std::string description(const SkillRecord& record) const { return descriptions.get(record.description_ref); }
  // Calls `visit(std::string_view)` with the description of `record` without
  // a copy, for a loop over many records (the list writer). The view is valid
  // only during the call, and `visit` must not read another description.
  template <typename Visit> void visit_description(const SkillRecord& record, Visit&& visit) const {
    descriptions.visit(record.description_ref, std::forward<Visit>(visit));
  }

  // Listing entries sorted as skills_list sorts them: (category or "", name).
  std::vector<const SkillRecord*> sorted_listing(const std::optional<std::string>& category) const;

  // Lookup tables for the name resolver, built by index_catalog_names() in
  // long-lived catalogs (the MCP servers' snapshots), where one build serves
  // thousands of lookups; null in one-shot CLI catalogs, where a single
  // linear scan is cheaper than building them.
  struct NameIndex {
    // dir_name and frontmatter_name of every record → record index, sorted
    // by name then index (a record appears once per distinct name).
    std::vector<std::pair<std::string_view, std::size_t>> by_name;
    // lexically normal SKILL.md path → record index, sorted by path.
    std::vector<std::pair<std::string, std::size_t>> by_skill_md;
  };
  std::unique_ptr<const NameIndex> name_index;
};

// Builds catalog.name_index (see Catalog::NameIndex). Never throws but for
// allocation failure.
void index_catalog_names(Catalog& catalog);

struct CatalogOptions {
  bool collect_legacy = false;  // also gather legacy flat NAME.md (view's fallback)
  // Reuse what earlier runs read from unchanged SKILL.md files (listing_cache.hpp);
  // off when $SKILLRT_NO_CACHE is set to anything but "" or "0".
  bool use_cache = true;
  // Files changed this recently are not cached (see ListingCache); tests lower it.
  std::int64_t cache_racy_window_ns = 2'000'000'000;
  // Also report decoy SKILL.md files inside pruned support dirs (doctor).
  bool find_decoys = false;
  // Description bytes kept in memory; the rest go to an unlinked file in
  // HOME/cache or $TMPDIR (see DescriptionStore). Tests lower it.
  std::size_t description_memory_budget = DescriptionStore::Options{}.memory_budget;
};

// Where the listing cache of ctx's home lives.
std::filesystem::path listing_cache_path(const Context& ctx);

// Builds the catalog for ctx with cfg. Never throws; I/O problems become skipped paths.
Catalog build_catalog(const Context& ctx, const Config& cfg, const CatalogOptions& options = {});

// Platform gate (spec §2.4 rule 1): empty → true; macos→darwin, windows→win32; prefix match on os.
bool matches_platform(const std::vector<std::string>& platforms, const std::string& os);
// Environment gate (spec §2.4 rule 2): empty → true; unknown tag → true; OR of known tags.
bool matches_environment(const std::vector<std::string>& environments, const Context& ctx);

}  // namespace skillrt::core
