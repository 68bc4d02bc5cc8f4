#include "core/discovery/catalog.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/discovery/listing_cache.hpp"
#include "core/discovery/gates.hpp"
#include "core/discovery/skill_reader.hpp"
#include "core/discovery/walk_text.hpp"
#include "core/limits.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/tenancy/user_id.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace {

// Hands whole free pages in the middle of the heap back to the system: the
// walk's path strings die before the records' text is read, and without this
// their pages would stay resident next to it.
void release_free_heap() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

constexpr std::string_view k_ellipsis = "...";

// The listing description: `text` itself unless it is over the limit.
std::string_view truncate_description(std::string_view text, std::string& scratch) {
  // No more bytes than the limit means no more characters: skip the count.
  if (text.size() <= limits::k_max_description_length || utf8_length(text) <= limits::k_max_description_length) {
    return text;
  }
  scratch = utf8_prefix(text, limits::k_max_description_length - k_ellipsis.size());
  scratch.append(k_ellipsis);
  return scratch;
}

// The first `max_chars` code points of valid UTF-8 `text`, as a view of it.
std::string_view utf8_prefix_view(std::string_view text, std::size_t max_chars) {
  // No more bytes than characters allowed: nothing to cut.
  if (text.size() <= max_chars) {
    return text;
  }
  return text.substr(0, utf8_prefix(text, max_chars).size());
}

// Fills the path-derived fields of `record` from `root` (shared, in the
// arena) and `tail`, the rest of the SKILL.md path ("/a/b/skill/SKILL.md",
// in the arena): every directory field is a view of those bytes.
void set_location(SkillRecord& record, std::string_view root, std::string_view tail, Tier tier) {
  record.skill_md = PathString(root, tail);
  const std::string_view dir_tail = tail.substr(0, tail.rfind('/'));
  record.dir = PathString(root, dir_tail);
  const std::string_view last = dir_tail.empty() ? root : dir_tail;
  record.dir_name = last.substr(last.rfind('/') + 1);
  // Directories from the root down to the skill dir, e.g. "a/b/skill".
  const std::string_view relative_dir = dir_tail.size() > 1 ? dir_tail.substr(1) : std::string_view();
  const std::size_t last_slash = relative_dir.rfind('/');
  if (last_slash != std::string_view::npos) {
    record.index_category = relative_dir.substr(0, last_slash);
    // §2.1 rule 4: only local and external roots give a listing category.
    if (tier != Tier::project) {
      record.category = relative_dir.substr(0, relative_dir.find('/'));
    }
  }
}

// The listing outcome of one SKILL.md (whose full path is `path`), from the
// cache when its stamp is unchanged. Swapping with the cache's slot keeps
// both sides' string buffers for the next entry.
void read_listing(const std::string& path, std::string& buffer, ListingCache* cache, ListingOutcome& outcome) {
  const std::optional<FileStamp> stamp = cache != nullptr ? stamp_file(path.c_str()) : std::nullopt;
  if (stamp) {
    if (ListingOutcome* hit = cache->find(path, *stamp)) {
      std::swap(outcome, *hit);
      return;
    }
  }
  outcome.fields.frontmatter_name.clear();
  outcome.fields.description.clear();
  outcome.fields.platforms.clear();
  outcome.fields.environments.clear();
  outcome.fields.triggers.clear();
  outcome.fields.paths.clear();
  outcome.fields.yaml_problem.clear();
  outcome.failure = ListingFailure{SkipReason::unreadable, {}};
  outcome.listed = read_listing_fields(path, buffer, outcome.fields, outcome.failure);
  if (stamp) {
    cache->store(path, *stamp, outcome);
  }
}

// Record indices in ascending SKILL.md path order, the order the listing
// cache is kept in. Each root's records are already sorted, so merging the
// runs costs a compare or two per record instead of a sort.
std::vector<std::size_t> path_order(const std::vector<SkillRecord>& records) {
  struct Run {
    std::size_t next;
    std::size_t end;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i == 0 || records[i].root_index != records[i - 1].root_index) {
      runs.push_back(Run{i, i});
    }
    runs.back().end = i + 1;
  }
  std::vector<std::size_t> order;
  order.reserve(records.size());
  while (order.size() < records.size()) {
    Run* best = nullptr;
    for (Run& run : runs) {
      if (run.next < run.end &&
          (best == nullptr || records[run.next].skill_md.compare(records[best->next].skill_md) < 0)) {
        best = &run;
      }
    }
    if (best == nullptr) {
      break;  // unreachable: the runs cover every record
    }
    order.push_back(best->next++);
  }
  return order;
}

bool cache_enabled(const Context& ctx, const CatalogOptions& options) {
  if (!options.use_cache) {
    return false;
  }
  const std::optional<std::string> off = ctx.env("SKILLRT_NO_CACHE");
  if (off && !off->empty() && *off != "0") {
    return false;
  }
  // A user's cache lives in their home: none when that home is unsafe (a
  // planted symlink), so the cache never writes through it.
  return !ctx.user_id || ensure_user_home(ctx).has_value();
}

// Where descriptions past the memory budget go: beside the listing cache
// (the user's own disk) when the cache may be written there, else the
// temporary directory. A missing directory is not created: the store then
// tries the next one, or keeps the text in memory.
DescriptionStore::Options description_store_options(const Context& ctx, const CatalogOptions& options) {
  DescriptionStore::Options out;
  out.memory_budget = options.description_memory_budget;
  if (cache_enabled(ctx, options)) {
    out.spill_dirs.push_back(listing_cache_path(ctx).parent_path());
  }
  const std::optional<std::string> tmpdir = ctx.env("TMPDIR");
  out.spill_dirs.emplace_back(tmpdir && !tmpdir->empty() ? *tmpdir : "/tmp");
  return out;
}

}  // namespace

std::filesystem::path listing_cache_path(const Context& ctx) {
  // Per user: the cache drops entries a run does not meet, so users sharing
  // one file would evict each other's skills on every call, and one user's
  // paths and descriptions would sit in a file shared with everyone.
  if (ctx.user_id && check_user_id(*ctx.user_id)) {
    return ctx.home / "users" / *ctx.user_id / "cache" / "skillrt-listing.bin";
  }
  return ctx.home / "cache" / "skillrt-listing.bin";
}

Catalog build_catalog(const Context& ctx, const Config& cfg, const CatalogOptions& options) {
  Catalog catalog;
  catalog.descriptions = DescriptionStore(description_store_options(ctx, options));
  catalog.roots = compute_roots(ctx, cfg.skills, cfg.plugins);
  const std::vector<Root>& roots = catalog.roots.roots;

  // Walk everything first so the records vector is allocated exactly once,
  // then move the paths into records and drop the walk lists before any file
  // is read: at 50k skills the lists and the descriptions would otherwise
  // peak together.
  std::vector<TextWalk> walks;
  walks.reserve(roots.size());
  std::size_t total = 0;
  for (const Root& root : roots) {
    WalkLimits limits = default_walk_limits();
    limits.find_decoys = options.find_decoys;
    // A link from one configured root into another is followed; one leading
    // anywhere else is not (walker.hpp, WalkLimits::allowed_dirs).
    for (const Root& other : roots) {
      limits.allowed_dirs.push_back(other.path.native());
    }
    if (catalog.roots.users_dir && tier_layer(root.tier) != Layer::user) {
      limits.per_user_dirs.push_back(catalog.roots.users_dir->native());
    }
    walks.push_back(walk_root_text(root.path.native(), limits, options.collect_legacy));
    total += walks.back().skill_files.size();
  }
  catalog.records.reserve(total);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    TextWalk& walk = walks[i];
    catalog.dirs_per_root.push_back(walk.dirs_visited);
    for (auto& skipped : walk.skipped) {
      catalog.skipped.push_back(std::move(skipped));
    }
    const std::string& root_text = roots[i].path.native();
    // The root's bytes are stored once and shared by every path under it.
    const std::string_view root = catalog.strings.add(root_text);
    // A plugin's skills are listed under its namespace (spec §2.6 rule 2).
    const std::string_view plugin_ns = catalog.roots.plugin_namespace(roots[i]);
    const std::optional<std::string_view> plugin_category =
        plugin_ns.empty() ? std::nullopt : std::optional<std::string_view>(catalog.strings.add(plugin_ns));
    for (const auto& legacy : walk.legacy_files) {
      catalog.legacy_files.emplace_back(catalog.strings.add(legacy));
    }
    for (const std::string& file : walk.skill_files) {
      // Names and paths travel as JSON strings: a path that is not UTF-8
      // could be neither shown nor asked for by name.
      if (std::optional<std::size_t> bad = find_invalid_utf8(file)) {
        catalog.skipped.push_back(SkippedPath{std::filesystem::path(file), SkipReason::not_utf8,
                                              "path is not valid UTF-8 at byte " + std::to_string(*bad)});
        continue;
      }
      SkillRecord& record = catalog.records.emplace_back();
      record.root_index = i;
      record.tier = roots[i].tier;
      // The walker joins the root and the rest with '/': anything else keeps the whole path as the tail.
      const bool under_root = file.size() > root_text.size() &&
                              std::string_view(file).substr(0, root_text.size()) == root_text &&
                              file[root_text.size()] == '/';
      if (under_root) {
        set_location(record, root, catalog.strings.add(std::string_view(file).substr(root_text.size())), record.tier);
      } else {
        set_location(record, std::string_view(), catalog.strings.add(file), record.tier);
      }
      if (plugin_category) {
        // Grouped under the namespace everywhere: the listing, the prompt index, search.
        record.category = plugin_category;
        record.index_category = *plugin_category;
      }
    }
    walk = TextWalk{};
  }
  walks = {};
  release_free_heap();

  std::string buffer;
  buffer.reserve(limits::k_listing_read_window);
  std::optional<ListingCache> cache;
  std::vector<std::size_t> order;
  if (cache_enabled(ctx, options)) {
    cache.emplace(ListingCache::load(listing_cache_path(ctx), options.cache_racy_window_ns));
    order = path_order(catalog.records);
  }
  // Skips are reported in record order whatever order the files are read in.
  std::vector<std::pair<std::size_t, SkippedPath>> skips;
  std::vector<bool> dropped(catalog.records.size(), false);
  ListingOutcome outcome;
  std::string path;
  std::string truncated;
  std::string qualified;
  const std::size_t steps = cache ? order.size() : catalog.records.size();
  for (std::size_t step = 0; step < steps; ++step) {
    const std::size_t index = cache ? order[step] : step;
    SkillRecord& record = catalog.records[index];
    path.clear();
    record.skill_md.append_to(path);
    read_listing(path, buffer, cache ? &*cache : nullptr, outcome);
    if (!outcome.listed) {
      skips.emplace_back(index, SkippedPath{std::filesystem::path(path), outcome.failure.reason,
                                            std::move(outcome.failure.detail)});
      dropped[index] = true;
      continue;
    }
    const ListingFields& fields = outcome.fields;
    if (!fields.yaml_problem.empty()) {
      skips.emplace_back(index, SkippedPath{std::filesystem::path(path), SkipReason::bad_frontmatter,
                                            "listed through the line-by-line fallback: " + fields.yaml_problem});
    }
    // Most skills are named like their folder: then the name costs no bytes.
    record.frontmatter_name = fields.frontmatter_name == record.dir_name ? record.dir_name
                                                                         : catalog.strings.add(fields.frontmatter_name);
    record.name = utf8_prefix_view(record.frontmatter_name.empty() ? record.dir_name : record.frontmatter_name,
                                   limits::k_max_name_length);
    if (is_plugin_tier(record.tier)) {
      // `ns:skill`: the only name a plugin's skill answers to.
      qualified.assign(catalog.roots.plugin_namespace(roots[record.root_index]));
      qualified.push_back(':');
      qualified.append(record.name);
      record.name = catalog.strings.add(qualified);
    }
    record.description_ref = catalog.descriptions.append(truncate_description(fields.description, truncated));
    record.platforms = catalog.strings.add_list(fields.platforms);
    record.environments = catalog.strings.add_list(fields.environments);
    if (!fields.triggers.empty() || !fields.paths.empty()) {
      catalog.activation.push_back(ActivationLists{index, catalog.strings.add_list(fields.triggers),
                                                   catalog.strings.add_list(fields.paths)});
    }
  }
  if (cache) {
    cache->save_if_changed();
    cache.reset();
  }
  order = {};
  std::stable_sort(skips.begin(), skips.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, skipped] : skips) {
    catalog.skipped.push_back(std::move(skipped));
  }
  skips = {};
  release_free_heap();  // the cache's blocks, the read order and the skips are gone
  std::size_t kept = 0;
  // Where each record moves (only needed to renumber the activation lists:
  // a dropped record was not read, so it has none).
  std::vector<std::size_t> moved_to(catalog.activation.empty() ? 0 : catalog.records.size());
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    if (dropped[index]) {
      continue;
    }
    if (!moved_to.empty()) {
      moved_to[index] = kept;
    }
    if (kept != index) {
      catalog.records[kept] = std::move(catalog.records[index]);
    }
    ++kept;
  }
  for (ActivationLists& lists : catalog.activation) {
    lists.record = moved_to[lists.record];
  }
  std::sort(catalog.activation.begin(), catalog.activation.end(),
            [](const ActivationLists& a, const ActivationLists& b) { return a.record < b.record; });
  catalog.records.erase(catalog.records.begin() + static_cast<std::ptrdiff_t>(kept), catalog.records.end());
  catalog.skills_per_root.assign(roots.size(), 0);
  for (const SkillRecord& record : catalog.records) {
    ++catalog.skills_per_root[record.root_index];
  }

  const HostEnvironment host = probe_host_environment(ctx);
  std::vector<std::string> disabled_list = disabled_names(cfg.skills, ctx.platform);
  // Sorted for lookups by string_view without a copy of each name.
  std::sort(disabled_list.begin(), disabled_list.end());
  // Offerable records grouped by name with a stable sort: the first of each
  // group is the earliest in discovery order, i.e. the winner. (A sorted index
  // vector costs 8 bytes a record; a hash map of names costs several times that.)
  std::vector<std::size_t> offerable;
  offerable.reserve(catalog.records.size());
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    SkillRecord& record = catalog.records[index];
    if (!matches_platform_tags(record.platforms, ctx.os)) {
      record.hidden = Hidden::platform;
    } else if (!matches_host_environment_tags(record.environments, host)) {
      record.hidden = Hidden::environment;
    } else if (std::binary_search(disabled_list.begin(), disabled_list.end(), record.name, std::less<>())) {
      record.hidden = Hidden::disabled;
    } else {
      offerable.push_back(index);
    }
  }
  // Ties broken by index give the stable order without stable_sort's buffer.
  std::sort(offerable.begin(), offerable.end(), [&catalog](std::size_t a, std::size_t b) {
    const int by_name = catalog.records[a].name.compare(catalog.records[b].name);
    return by_name != 0 ? by_name < 0 : a < b;
  });
  for (std::size_t i = 1; i < offerable.size(); ++i) {
    SkillRecord& record = catalog.records[offerable[i]];
    const SkillRecord& previous = catalog.records[offerable[i - 1]];
    if (record.name == previous.name) {
      record.hidden = Hidden::shadowed;
      record.shadowed_by = previous.hidden == Hidden::shadowed ? previous.shadowed_by : offerable[i - 1];
    }
  }
  offerable = {};
  // Sized exactly: growing by doubling would leave the old buffers' pages behind.
  catalog.listed.reserve(static_cast<std::size_t>(
      std::count_if(catalog.records.begin(), catalog.records.end(),
                    [](const SkillRecord& record) { return record.hidden == Hidden::none; })));
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    if (catalog.records[index].hidden == Hidden::none) {
      catalog.listed.push_back(index);
    }
  }
  return catalog;
}

void index_catalog_names(Catalog& catalog) {
  auto index = std::make_unique<Catalog::NameIndex>();
  index->by_name.reserve(catalog.records.size() * 2);
  index->by_skill_md.reserve(catalog.records.size());
  for (std::size_t i = 0; i < catalog.records.size(); ++i) {
    const SkillRecord& record = catalog.records[i];
    if (is_plugin_tier(record.tier)) {
      index->by_name.emplace_back(record.name, i);  // reached only as `ns:skill`
    } else {
      index->by_name.emplace_back(record.dir_name, i);
      if (!record.frontmatter_name.empty() && record.frontmatter_name != record.dir_name) {
        index->by_name.emplace_back(record.frontmatter_name, i);
      }
    }
    index->by_skill_md.emplace_back(record.skill_md.path().lexically_normal().string(), i);
  }
  std::sort(index->by_name.begin(), index->by_name.end());
  std::sort(index->by_skill_md.begin(), index->by_skill_md.end());
  catalog.name_index = std::move(index);
}

const ActivationLists* Catalog::activation_of(std::size_t record) const {
  const auto found = std::lower_bound(activation.begin(), activation.end(), record,
                                      [](const ActivationLists& lists, std::size_t at) { return lists.record < at; });
  return found != activation.end() && found->record == record ? &*found : nullptr;
}

std::vector<const SkillRecord*> Catalog::sorted_listing(const std::optional<std::string>& category) const {
  std::vector<const SkillRecord*> out;
  out.reserve(listed.size());
  for (std::size_t index : listed) {
    const SkillRecord& record = records[index];
    if (category && record.category != *category) {
      continue;
    }
    out.push_back(&record);
  }
  // `out` is in record order, so ties broken by address keep it (a stable
  // sort without stable_sort's buffer).
  std::sort(out.begin(), out.end(), [](const SkillRecord* a, const SkillRecord* b) {
    const std::string_view a_category = a->category.value_or(std::string_view());
    const std::string_view b_category = b->category.value_or(std::string_view());
    if (const int by_category = a_category.compare(b_category); by_category != 0) {
      return by_category < 0;
    }
    if (const int by_name = a->name.compare(b->name); by_name != 0) {
      return by_name < 0;
    }
    return std::less<const SkillRecord*>()(a, b);
  });
  return out;
}

}  // namespace skillrt::core
