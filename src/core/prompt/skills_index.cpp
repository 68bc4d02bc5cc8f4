#include "core/prompt/skills_index.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <unordered_set>

#include "core/cache/file_stamp.hpp"
#include "core/cache/lru_cache.hpp"
#include "core/discovery/roots.hpp"
#include "core/discovery/skill_reader.hpp"
#include "core/prompt/frontmatter_prefix.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/prompt/record_text.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {
namespace {

constexpr std::string_view k_project_prefix = "[project] ";
constexpr std::string_view k_ellipsis = "...";

// The index conditions of one record: from the snapshot when its SKILL.md is
// unchanged, else read from the file (and kept for the next snapshot).
SkillConditions conditions_of(const SkillRecord& record, PromptSnapshot* snapshot) {
  const std::string path = field_string(record.skill_md);
  const bool cacheable = snapshot != nullptr && record.tier != Tier::project;
  const std::optional<FileStamp> stamp = cacheable ? stamp_file(path.c_str()) : std::nullopt;
  if (stamp) {
    if (const SkillConditions* hit = snapshot->find(path, *stamp)) {
      SkillConditions conditions = *hit;
      snapshot->keep(path, *stamp, conditions, false);
      return conditions;
    }
  }
  SkillConditions conditions;
  if (std::optional<Frontmatter> fm = read_frontmatter_prefix(path)) {
    conditions = read_conditions(fm->fields);
  }
  if (stamp) {
    snapshot->keep(path, *stamp, conditions, true);
  }
  return conditions;
}

// The DESCRIPTION.md description at `file`, when it has one.
std::optional<std::string> description_file(const std::string& file) {
  std::optional<Frontmatter> fm = read_frontmatter_prefix(file);
  if (!fm) {
    return std::nullopt;
  }
  const YamlNode* description = fm->fields.get("description");
  if (description == nullptr || !description->truthy()) {
    return std::nullopt;
  }
  return index_description(description->to_string());
}

// Category descriptions for the categories shown: the local root first, then
// external roots, then project roots, each only filling gaps (rule 5). A
// root is only asked about categories it has skills in (the directory exists
// there), which keeps this to about one `open` per category. "general" reads
// the root's own DESCRIPTION.md, then general/DESCRIPTION.md.
std::map<std::string, std::string> category_descriptions(const Catalog& catalog,
                                                         const std::set<std::string>& categories) {
  const std::vector<Root>& roots = catalog.roots.roots;
  std::vector<std::set<std::string_view>> present(roots.size());
  for (const SkillRecord& record : catalog.records) {
    if (record.root_index < present.size()) {
      present[record.root_index].insert(field_text(record.index_category));
    }
  }
  std::map<std::string, std::string> out;
  // The user's own root (issue 3/5) comes before every shared one.
  for (Tier tier : {Tier::user, Tier::local, Tier::external, Tier::project}) {
    for (std::size_t index = 0; index < roots.size(); ++index) {
      if (roots[index].tier != tier) {
        continue;
      }
      // Plain strings, not std::filesystem::path: this runs once per category and root.
      const std::string root = roots[index].path.string();
      for (const std::string& category : categories) {
        if (out.contains(category)) {
          continue;
        }
        std::optional<std::string> description;
        if (category == k_root_category) {
          description = description_file(root + "/DESCRIPTION.md");
        }
        if (!description && present[index].contains(category)) {
          description = description_file(root + "/" + category + "/DESCRIPTION.md");
        }
        if (description) {
          out.emplace(category, std::move(*description));
        }
      }
    }
  }
  // A plugin's skills are grouped under its namespace: its manifest's
  // description describes them.
  for (const Root& root : roots) {
    const std::string_view ns = catalog.roots.plugin_namespace(root);
    if (ns.empty() || !categories.contains(std::string(ns)) || out.contains(std::string(ns))) {
      continue;
    }
    const std::string& description = catalog.roots.plugins.plugins[root.plugin].manifest.description;
    if (!description.empty()) {
      out.emplace(std::string(ns), index_description(description));
    }
  }
  return out;
}

std::string sorted_joined(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  std::string out;
  for (const std::string& item : items) {
    out += item;
    out += '\x1f';
  }
  return out;
}

std::string optional_list_key(const std::optional<std::vector<std::string>>& list) {
  return list ? "[" + sorted_joined(*list) + "]" : std::string("none");
}

LruCache<std::string, RenderedIndex>& process_prompt_cache() {
  // The one process-wide state of the prompt module: spec §2.16 rule 2 wants
  // the index shared by every caller of a long-running host, and rule 9 wants
  // skill_manage to clear it. It holds results only, never request state.
  static LruCache<std::string, RenderedIndex> cache(k_prompt_cache_entries);
  return cache;
}

RenderedIndex build_unguarded(const Context& ctx, const Config& cfg, const PromptOptions& options) {
  const Catalog catalog = build_catalog(ctx, cfg, options.catalog);
  const std::vector<std::string> disabled_list = disabled_names(cfg.skills, ctx.platform);
  const std::unordered_set<std::string_view> disabled(disabled_list.begin(), disabled_list.end());

  std::optional<PromptSnapshot> snapshot;
  const bool need_conditions = !options.tools.absent();
  // $SKILLRT_NO_CACHE switches off every on-disk cache, the snapshot included.
  const std::optional<std::string> no_cache = ctx.env("SKILLRT_NO_CACHE");
  const bool caches_off = no_cache && !no_cache->empty() && *no_cache != "0";
  // A user's snapshot lives in their home: none when that home is unsafe.
  if (need_conditions && options.use_snapshot && !caches_off && (!ctx.user_id || ensure_user_home(ctx))) {
    snapshot.emplace(PromptSnapshot::load(prompt_snapshot_path(ctx), options.snapshot_racy_window_ns));
  }

  // Source order (rule 5): project skills first, then the local root, then
  // external roots. The catalog's records already come in tier order and its
  // `listed` keeps the first of each name, the same winner `list` shows.
  std::vector<IndexEntry> entries;
  entries.reserve(catalog.listed.size());
  std::set<std::string> categories;
  for (std::size_t index : catalog.listed) {
    const SkillRecord& record = catalog.records[index];
    // Rule 4 also hides a skill whose directory name is disabled.
    // A plugin's skill is disabled by its qualified name, which the catalog checked.
    if (!is_plugin_tier(record.tier) && disabled.contains(field_text(record.dir_name))) {
      continue;
    }
    if (need_conditions &&
        hidden_by_conditions(conditions_of(record, snapshot ? &*snapshot : nullptr), options.tools)) {
      continue;
    }
    // A folder whose policy keeps it out of the index (archive/ by default):
    // its skills stay listed and viewable, they just cost no prompt tokens.
    const FolderPolicy* policy = nullptr;
    if (const std::string_view folder = field_text(record.index_category).substr(
            0, field_text(record.index_category).find('/'));
        !folder.empty()) {
      policy = cfg.folders.for_folder(folder);
      if (policy != nullptr && !policy->index) {
        continue;
      }
    }
    IndexEntry& entry = entries.emplace_back();
    entry.name = field_string(record.name);
    entry.description = index_description(catalog.description(record));
    // Provenance in the index: the model should weigh a third-party or an
    // agent-written skill as such ("[community] ", "[agent-created] ").
    if (policy != nullptr && policy->trust && *policy->trust != "builtin" && *policy->trust != "trusted") {
      entry.description.insert(0, "[" + *policy->trust + "] ");
    }
    if (record.tier == Tier::project) {
      entry.description.insert(0, k_project_prefix);
    }
    entry.category = index_category_of(record);
    categories.insert(entry.category);
  }
  if (snapshot) {
    snapshot->save_if_changed(prompt_snapshot_path(ctx));
  }

  IndexRenderOptions render;
  render.compact_categories = options.compact_categories;
  render.max_chars = options.max_chars;
  const auto& tools = options.tools.tools;
  render.mention_web_search =
      options.tools.absent() || (tools && std::find(tools->begin(), tools->end(), "web_search") != tools->end());
  return render_skills_index(entries, category_descriptions(catalog, categories), render);
}

} // namespace

std::string index_description(std::string_view description) {
  std::string_view text = trim_ascii_space(description);
  // Surrounding quotes, as a YAML value quoted twice would leave them.
  while (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front()) {
    text = trim_ascii_space(text.substr(1, text.size() - 2));
  }
  // One index line per skill: a run of whitespace holding a line break becomes one space.
  if (text.find_first_of("\n\r") == std::string_view::npos) {
    if (text.size() <= k_index_description_limit || utf8_length(text) <= k_index_description_limit) {
      return std::string(text);
    }
    std::string out = utf8_prefix(text, k_index_description_limit - k_ellipsis.size());
    out.append(k_ellipsis);
    return out;
  }
  std::string folded;
  folded.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (is_ascii_space(text[i])) {
      std::size_t end = i;
      bool line_break = false;
      while (end < text.size() && is_ascii_space(text[end])) {
        line_break = line_break || text[end] == '\n' || text[end] == '\r';
        ++end;
      }
      if (line_break) {
        folded += ' ';
      } else {
        folded.append(text.substr(i, end - i));
      }
      i = end;
      continue;
    }
    folded += text[i++];
  }
  if (folded.size() <= k_index_description_limit || utf8_length(folded) <= k_index_description_limit) {
    return folded;
  }
  std::string out = utf8_prefix(folded, k_index_description_limit - k_ellipsis.size());
  out.append(k_ellipsis);
  return out;
}

std::string index_category_of(const SkillRecord& record) {
  const std::string_view category = field_text(record.index_category);
  return category.empty() ? std::string(k_root_category) : std::string(category);
}

RenderedIndex build_skills_system_prompt(const Context& ctx, const Config& cfg, const PromptOptions& options) {
  try {
    return build_unguarded(ctx, cfg, options);
  } catch (const std::exception&) {
    // Out of memory or a filesystem exception escaping a helper: no index
    // is better than a crashed host (Hermes also degrades to "").
    return RenderedIndex{};
  }
}

RenderedIndex build_skills_system_prompt_cached(const Context& ctx, const Config& cfg, const PromptOptions& options) {
  std::string key;
  try {
    const RootSet roots = compute_roots(ctx, cfg.skills, cfg.plugins);
    // Per user even where the roots would agree (a user without skills yet):
    // one user's index is never served to another.
    key += "user=" + ctx.user_id.value_or(std::string()) + '\x1e';
    for (const Root& root : roots.roots) {
      key += tier_name(root.tier);
      key += ':';
      key += root.path.string();
      key += '\x1e';
    }
    key += "tools=" + optional_list_key(options.tools.tools);
    key += "toolsets=" + optional_list_key(options.tools.toolsets);
    key += "platform=" + ctx.platform + '\x1e' + "os=" + ctx.os + '\x1e';
    key += "disabled=" + sorted_joined(disabled_names(cfg.skills, ctx.platform));
    key += "compact=" + sorted_joined(options.compact_categories);
    key += "max=" + std::to_string(options.max_chars);
  } catch (const std::exception&) {
    return build_skills_system_prompt(ctx, cfg, options);
  }
  if (std::optional<RenderedIndex> hit = process_prompt_cache().get(key)) {
    return std::move(*hit);
  }
  RenderedIndex built = build_skills_system_prompt(ctx, cfg, options);
  process_prompt_cache().put(key, built);
  return built;
}

void clear_prompt_cache() {
  process_prompt_cache().clear();
}

std::size_t prompt_cache_size() {
  return process_prompt_cache().size();
}

} // namespace skillrt::core
