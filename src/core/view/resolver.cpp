#include "core/view/resolver.hpp"

#include <algorithm>
#include <set>
#include <system_error>

#include "core/discovery/walker.hpp"
#include "core/limits.hpp"
#include "core/files/path_within.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && !ec;
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && !ec;
}

// Identity of a candidate: its fully resolved path (symlinked twins collapse).
std::string identity(const fs::path& path) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal().string() : resolved.string();
}

// The walker follows a symlinked folder only while it stays inside the
// configured roots; a name resolved directly must not reach further.
bool inside_a_root(const RootSet& roots, const fs::path& path) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(path, ec);
  if (ec) {
    return false;
  }
  return std::any_of(roots.roots.begin(), roots.roots.end(),
                     [&](const Root& root) { return is_within(real, root.path); });
}

// Python's Path.with_suffix(".md"): replaces an existing suffix, else appends.
fs::path with_md_suffix(const fs::path& path) {
  fs::path out = path;
  const std::string ext = out.extension().string();
  if (!ext.empty() && ext != ".") {
    out.replace_extension(".md");
  } else {
    out += ".md";
  }
  return out;
}

// True when `rel` (POSIX, relative to a root) is `<name>.md` or ends in `/<name>.md`,
// i.e. what `root.rglob(name + ".md")` finds.
bool legacy_matches(const std::string& rel, const std::string& name) {
  const std::string want = name + ".md";
  if (rel == want) {
    return true;
  }
  return rel.size() > want.size() && rel.compare(rel.size() - want.size(), want.size(), want) == 0 &&
         rel[rel.size() - want.size() - 1] == '/';
}

class CandidateSet {
public:
  void add(ResolvedSkill candidate) {
    if (m_seen.insert(identity(candidate.skill_md)).second) {
      m_items.push_back(std::move(candidate));
    }
  }
  std::vector<ResolvedSkill> take() { return std::move(m_items); }

private:
  std::set<std::string> m_seen;
  std::vector<ResolvedSkill> m_items;
};

const SkillRecord* record_at(const Catalog& catalog, const fs::path& skill_md) {
  const fs::path wanted = skill_md.lexically_normal();
  if (catalog.name_index) {
    const auto& table = catalog.name_index->by_skill_md;
    const std::string key = wanted.string();
    const auto found = std::lower_bound(table.begin(), table.end(), key,
                                        [](const auto& entry, const std::string& k) { return entry.first < k; });
    return found != table.end() && found->first == key ? &catalog.records[found->second] : nullptr;
  }
  for (const SkillRecord& record : catalog.records) {
    if (record.skill_md.path().lexically_normal() == wanted) {
      return &record;
    }
  }
  return nullptr;
}

} // namespace

std::vector<ResolvedSkill> collect_candidates(const Catalog& catalog, const std::string& name,
                                              const std::optional<std::string>& alias) {
  CandidateSet candidates;
  std::vector<std::size_t> named_records;  // rule 5 through the index, in record order
  if (catalog.name_index) {
    const auto& table = catalog.name_index->by_name;
    const std::string_view key(name);
    auto at = std::lower_bound(table.begin(), table.end(), key,
                               [](const auto& entry, std::string_view k) { return entry.first < k; });
    for (; at != table.end() && at->first == key; ++at) {
      named_records.push_back(at->second);
    }
  }
  for (std::size_t index = 0; index < catalog.roots.roots.size(); ++index) {
    const Root& root = catalog.roots.roots[index];
    if (is_plugin_tier(root.tier)) {
      continue;  // a plugin's skills answer only to `ns:skill` (resolve_plugin_skill)
    }
    // Rule 4: the name as a path below the root, or its flat `.md` sibling.
    std::vector<std::string> direct_names{name};
    if (alias && *alias != name) {
      direct_names.push_back(*alias);
    }
    for (const std::string& direct_name : direct_names) {
      fs::path direct = root.path / direct_name;
      if (!direct.has_filename()) {
        direct = direct.parent_path(); // "foo/" names the directory foo
      }
      const fs::path flat = with_md_suffix(direct);
      // A name like users/<uid>/skills/x must not reach another user's skill
      // through a shared root that contains HOME/users (the walk prunes it too).
      if (tier_layer(root.tier) != Layer::user && (in_per_user_dirs(catalog.roots, direct) || in_per_user_dirs(catalog.roots, flat))) {
        continue;
      }
      if (!is_skill_support_path(direct, root.path) && is_dir(direct) && is_file(direct / "SKILL.md") &&
          inside_a_root(catalog.roots, direct)) {
        candidates.add({direct / "SKILL.md", direct, record_at(catalog, direct / "SKILL.md"), root.tier, root.path});
      } else if (is_file(flat) && flat.filename() != "SKILL.md" && !is_skill_support_path(flat, root.path) &&
                 inside_a_root(catalog.roots, flat)) {
        candidates.add({flat, std::nullopt, nullptr, root.tier, root.path});
      }
    }
    // Rule 5: every indexed SKILL.md whose directory or frontmatter name matches.
    if (catalog.name_index) {
      // Same candidates in the same (record) order as the scan below.
      for (const std::size_t i : named_records) {
        const SkillRecord& record = catalog.records[i];
        if (record.root_index == index) {
          candidates.add({record.skill_md, record.dir, &record, root.tier, root.path});
        }
      }
    } else {
      for (const SkillRecord& record : catalog.records) {
        if (record.root_index == index && (record.dir_name == name || record.frontmatter_name == name)) {
          candidates.add({record.skill_md, record.dir, &record, root.tier, root.path});
        }
      }
    }
    // Rule 6: legacy flat `<name>.md` files anywhere under the root.
    for (const PathString& legacy : catalog.legacy_files) {
      const fs::path file = legacy.path();
      const fs::path rel_path = file.lexically_relative(root.path);
      if (rel_path.empty() || *rel_path.begin() == "..") {
        continue; // belongs to another root
      }
      if (file.filename() != "SKILL.md" && legacy_matches(rel_path.generic_string(), name) &&
          !is_skill_support_path(file, root.path)) {
        candidates.add({file, std::nullopt, nullptr, root.tier, root.path});
      }
    }
  }
  return candidates.take();
}

ViewResult<ResolvedSkill> resolve_skill(const Catalog& catalog, const std::string& name,
                                        const std::optional<std::string>& alias, std::optional<Layer> only) {
  const auto in_scope = [only](Tier tier) { return !only || tier_layer(tier) == *only; };
  if (std::none_of(catalog.roots.roots.begin(), catalog.roots.roots.end(),
                   [&](const Root& root) { return in_scope(root.tier); })) {
    return tl::unexpected(view_failure(ErrorCode::not_found,
                                       "Skills directory does not exist yet. It will be created on first install."));
  }
  std::vector<ResolvedSkill> candidates = collect_candidates(catalog, name, alias);
  std::erase_if(candidates, [&](const ResolvedSkill& c) { return !in_scope(c.tier); });
  if (candidates.size() > 1) {
    // The user's own skill shadows shared ones of the same name (issue 3/5).
    std::vector<ResolvedSkill> own;
    std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(own),
                 [](const ResolvedSkill& c) { return c.tier == Tier::user; });
    if (!own.empty()) {
      candidates = std::move(own);
    }
  }
  if (candidates.size() > 1) {
    // Rule 7: a project skill deliberately overrides same-named local/external ones.
    std::vector<ResolvedSkill> project;
    std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(project),
                 [](const ResolvedSkill& c) { return c.tier == Tier::project; });
    if (!project.empty()) {
      candidates = std::move(project);
    }
  }
  if (candidates.size() > 1) {
    ViewFailure failure = view_failure(
        ErrorCode::ambiguous, "Ambiguous skill name '" + name + "': " + std::to_string(candidates.size()) +
                                  " skills match across your local skills dir and external_dirs. Refusing to guess "
                                  "\xE2\x80\x94 load one explicitly by its categorized path.");
    std::vector<std::string> matches;
    for (const ResolvedSkill& candidate : candidates) {
      matches.push_back(candidate.skill_md.string());
    }
    failure.matches = std::move(matches);
    failure.hint = std::string(k_ambiguity_hint);
    return tl::unexpected(std::move(failure));
  }
  if (candidates.empty()) {
    ViewFailure failure = view_failure(ErrorCode::not_found, "Skill '" + name + "' not found.");
    std::vector<std::string> available;
    for (const SkillRecord* record : catalog.sorted_listing(std::nullopt)) {
      if (available.size() >= limits::k_not_found_suggestions) {
        break;
      }
      if (!in_scope(record->tier)) {
        continue;
      }
      available.push_back(std::string(record->name));
    }
    failure.available_skills = std::move(available);
    failure.hint = std::string(k_not_found_hint);
    return tl::unexpected(std::move(failure));
  }
  return std::move(candidates.front());
}

} // namespace skillrt::core
