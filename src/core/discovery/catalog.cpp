#include "core/discovery/catalog.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "core/cache/listing_cache.hpp"
#include "core/discovery/gates.hpp"
#include "core/discovery/skill_reader.hpp"
#include "core/discovery/walk_text.hpp"
#include "core/limits.hpp"
#include "core/yaml/utf8.hpp"

namespace skillrt::core {

namespace {

constexpr std::string_view k_ellipsis = "...";

std::string truncate_description(std::string description) {
  // No more bytes than the limit means no more characters: skip the count.
  if (description.size() <= limits::k_max_description_length ||
      utf8_length(description) <= limits::k_max_description_length) {
    return description;
  }
  std::string out = utf8_prefix(description, limits::k_max_description_length - k_ellipsis.size());
  out.append(k_ellipsis);
  return out;
}

// Fills the path-derived fields of `record` from its SKILL.md path under `root`.
void set_location(SkillRecord& record, std::string_view file, std::string_view root, Tier tier) {
  std::string_view dir = file.substr(0, file.rfind('/'));
  record.dir_name = std::string(dir.substr(dir.rfind('/') + 1));
  // Directories from the root down to the skill dir, e.g. "a/b/skill".
  std::string_view relative_dir = dir.size() > root.size() + 1 ? dir.substr(root.size() + 1) : std::string_view();
  std::size_t last_slash = relative_dir.rfind('/');
  if (last_slash != std::string_view::npos) {
    record.index_category = std::string(relative_dir.substr(0, last_slash));
    // §2.1 rule 4: only local and external roots give a listing category.
    if (tier != Tier::project) {
      record.category = std::string(relative_dir.substr(0, relative_dir.find('/')));
    }
  }
  record.dir = dir;
  record.skill_md = file;
}

// The listing outcome of one SKILL.md, from the cache when its stamp is unchanged.
void read_listing(const SkillRecord& record, std::string& buffer, ListingCache* cache, ListingOutcome& outcome) {
  const char* path = record.skill_md.c_str();
  const std::optional<FileStamp> stamp = cache != nullptr ? stamp_file(path) : std::nullopt;
  if (stamp) {
    if (ListingOutcome* hit = cache->find(record.skill_md.view(), *stamp)) {
      outcome = std::move(*hit);
      return;
    }
  }
  outcome = ListingOutcome{};
  outcome.listed = read_listing_fields(path, buffer, outcome.fields, outcome.failure);
  if (stamp) {
    cache->store(record.skill_md.view(), *stamp, outcome);
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
          (best == nullptr || records[run.next].skill_md.view() < records[best->next].skill_md.view())) {
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
  return !off || off->empty() || *off == "0";
}

}  // namespace

std::filesystem::path listing_cache_path(const Context& ctx) { return ctx.home / "cache" / "skillrt-listing.bin"; }

Catalog build_catalog(const Context& ctx, const Config& cfg, const CatalogOptions& options) {
  Catalog catalog;
  catalog.roots = compute_roots(ctx, cfg.skills);
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
    for (const auto& legacy : walk.legacy_files) {
      catalog.legacy_files.emplace_back(legacy);
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
      set_location(record, file, roots[i].path.native(), roots[i].tier);
    }
    walk = TextWalk{};
  }
  walks = {};

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
  const std::size_t steps = cache ? order.size() : catalog.records.size();
  for (std::size_t step = 0; step < steps; ++step) {
    const std::size_t index = cache ? order[step] : step;
    SkillRecord& record = catalog.records[index];
    read_listing(record, buffer, cache ? &*cache : nullptr, outcome);
    if (!outcome.listed) {
      skips.emplace_back(index, SkippedPath{record.skill_md.path(), outcome.failure.reason,
                                            std::move(outcome.failure.detail)});
      dropped[index] = true;
      continue;
    }
    ListingFields& fields = outcome.fields;
    if (!fields.yaml_problem.empty()) {
      skips.emplace_back(index, SkippedPath{record.skill_md.path(), SkipReason::bad_frontmatter,
                                            "listed through the line-by-line fallback: " + fields.yaml_problem});
    }
    record.frontmatter_name = std::move(fields.frontmatter_name);
    record.name = utf8_prefix(record.frontmatter_name.empty() ? std::string_view(record.dir_name)
                                                              : std::string_view(record.frontmatter_name),
                              limits::k_max_name_length);
    record.description = truncate_description(std::move(fields.description));
    record.platforms = std::move(fields.platforms);
    record.environments = std::move(fields.environments);
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
  std::size_t kept = 0;
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    if (dropped[index]) {
      continue;
    }
    if (kept != index) {
      catalog.records[kept] = std::move(catalog.records[index]);
    }
    ++kept;
  }
  catalog.records.erase(catalog.records.begin() + static_cast<std::ptrdiff_t>(kept), catalog.records.end());
  catalog.skills_per_root.assign(roots.size(), 0);
  for (const SkillRecord& record : catalog.records) {
    ++catalog.skills_per_root[record.root_index];
  }

  const HostEnvironment host = probe_host_environment(ctx);
  std::vector<std::string> disabled_list = disabled_names(cfg.skills, ctx.platform);
  const std::unordered_set<std::string> disabled(disabled_list.begin(), disabled_list.end());
  // Offerable records grouped by name with a stable sort: the first of each
  // group is the earliest in discovery order, i.e. the winner. (A sorted index
  // vector costs 8 bytes a record; a hash map of names costs several times that.)
  std::vector<std::size_t> offerable;
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    SkillRecord& record = catalog.records[index];
    if (!matches_platform(record.platforms, ctx.os)) {
      record.hidden = Hidden::platform;
    } else if (!matches_host_environment(record.environments, host)) {
      record.hidden = Hidden::environment;
    } else if (disabled.contains(record.name)) {
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
  for (std::size_t index = 0; index < catalog.records.size(); ++index) {
    if (catalog.records[index].hidden == Hidden::none) {
      catalog.listed.push_back(index);
    }
  }
  return catalog;
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
    const std::string_view a_category = a->category ? std::string_view(*a->category) : std::string_view();
    const std::string_view b_category = b->category ? std::string_view(*b->category) : std::string_view();
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
