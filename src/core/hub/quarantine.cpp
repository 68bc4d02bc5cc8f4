// Quarantine folders and bundle discovery (see quarantine.hpp).
#include "core/validate/skill_name.hpp"
#include "core/hub/quarantine.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <system_error>
#include <utility>

#include "core/hub/lock_file.hpp"
#include "core/limits.hpp"
#include "core/files/read_file.hpp"
#include "core/files/tree_walk.hpp"
#include "core/util/text.hpp"
#include "core/yaml/frontmatter.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

// SKILL.md of a skill is small; anything past this is not read for its name.

bool is_regular_no_follow(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

Result<std::string> frontmatter_name(const fs::path& skill_md) {
  auto text = read_regular_file(skill_md, limits::k_max_skill_md_for_name);
  if (!text) {
    return fail(text.error().code, "Cannot read " + skill_md.string() + ": " + text.error().message);
  }
  const Frontmatter fm = parse_frontmatter(*text);
  const YamlNode* name = fm.fields.get("name");
  if (name == nullptr || !name->is_scalar() || trim_ascii_space(name->text()).empty()) {
    return fail(ErrorCode::invalid_argument, skill_md.string() + " has no frontmatter 'name'; the hub names an "
                                                                 "installed skill by it");
  }
  return std::string(trim_ascii_space(name->text()));
}

} // namespace

Result<QuarantineDir> QuarantineDir::create(const HubPaths& paths) {
  std::string tmpl = (paths.quarantine / "q-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return fail(ErrorCode::io_error, "Cannot create a quarantine folder in " + paths.quarantine.string() + ": " +
                                         std::generic_category().message(errno));
  }
  QuarantineDir dir{fs::path(tmpl)};
  std::error_code ec;
  fs::create_directory(dir.fetch_dir(), ec);
  if (!ec) {
    fs::create_directory(dir.ready_dir(), ec);
  }
  if (ec) {
    return fail(ErrorCode::io_error, "Cannot prepare " + dir.path().string() + ": " + ec.message());
  }
  return dir;
}

QuarantineDir::QuarantineDir(QuarantineDir&& other) noexcept : m_path(std::move(other.m_path)) {
  other.m_path.clear();
}

QuarantineDir::~QuarantineDir() {
  if (!m_path.empty()) {
    std::error_code ec;
    fs::remove_all(m_path, ec); // best effort: the next operation removes what is left
  }
}

void remove_stale_quarantine(const HubPaths& paths) {
  // Temp files of atomic writes (lock.json, pending records) a killed command left.
  for (const fs::path& dir : {paths.hub, paths.pending}) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string leaf = it->path().filename().string();
      std::error_code ignored;
      if (leaf.size() > 1 && leaf.front() == '.' && leaf.find(".tmp.") != std::string::npos &&
          it->is_regular_file(ignored)) {
        fs::remove(it->path(), ignored);
      }
    }
  }
  for (const fs::path& dir : {paths.quarantine, paths.trash}) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

Result<std::vector<DiscoveredSkill>> discover_bundle_skills(const fs::path& root) {
  std::vector<DiscoveredSkill> found;
  if (is_regular_no_follow(root / "SKILL.md")) {
    found.push_back({"", root, ""});
  } else {
    // The one walker, held to the tree limits (the fetcher held the bundle to
    // the same). A folder holding SKILL.md is a skill and is not entered;
    // neither are dot-folders nor links. Runtime caches are walked like any
    // folder: a bundle is what its author shipped.
    files::WalkOptions options;
    options.links = files::LinkPolicy::record;
    options.specials = files::SpecialPolicy::record;
    options.skip_runtime_caches = false;
    std::string last_skill;
    options.enter = [&last_skill](const files::WalkEntry& entry) {
      return entry.name.front() != '.' && entry.path != last_skill && entry.depth < limits::k_max_bundle_depth;
    };
    auto walked = files::walk_tree(root, options, [&](const files::WalkEntry& entry) -> Result<void> {
      if (entry.kind != files::EntryKind::folder || entry.name.front() == '.') {
        return {};
      }
      struct stat st {};
      const std::string skill_md = std::string(entry.name) + "/SKILL.md";
      if (::fstatat(entry.parent_fd, skill_md.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
        last_skill = std::string(entry.path);
        found.push_back({"", root / last_skill, last_skill});
      }
      return {};
    });
    if (!walked) {
      return fail(walked.error().code, "Cannot search the bundle for skills: " + walked.error().message);
    }
  }
  if (found.empty()) {
    return fail(ErrorCode::not_found, "no SKILL.md found in the fetched bundle (neither at its top nor below it)");
  }
  // Bundle order, whatever order the directory listing gave.
  std::sort(found.begin(), found.end(),
            [](const DiscoveredSkill& a, const DiscoveredSkill& b) { return a.relative < b.relative; });
  std::map<std::string, std::string> seen;
  for (DiscoveredSkill& skill : found) {
    auto name = frontmatter_name(skill.dir / "SKILL.md");
    if (!name) {
      return tl::unexpected(name.error());
    }
    const std::string where = skill.relative.empty() ? "SKILL.md" : skill.relative + "/SKILL.md";
    if (auto ok = check_skill_name(*name, SkillNameRule::install); !ok) {
      return fail(ErrorCode::invalid_argument, where + ": " + ok.error().message);
    }
    if (auto [it, inserted] = seen.emplace(*name, where); !inserted) {
      return fail(ErrorCode::invalid_argument,
                  "two skills in the bundle are named '" + *name + "': " + it->second + " and " + where);
    }
    skill.name = std::move(*name);
  }
  return found;
}

Result<FetchedBundle> fetch_into_quarantine(const HubPaths& paths, Fetcher& fetcher, const std::string& spec,
                                            Progress* progress) {
  auto quarantine = QuarantineDir::create(paths);
  if (!quarantine) {
    return tl::unexpected(quarantine.error());
  }
  FetchOptions options;
  options.progress = progress;
  auto fetched = fetcher.fetch(spec, quarantine->fetch_dir(), options);
  if (!fetched) {
    return tl::unexpected(fetched.error());
  }
  auto discovered = discover_bundle_skills(fetched->root);
  if (!discovered) {
    return tl::unexpected(discovered.error());
  }
  FetchedBundle bundle{std::move(*quarantine), std::move(*fetched), {}};
  // Move each skill to ready/<name> (one rename within the quarantine). A
  // skill at the top moves the whole fetched root.
  for (const DiscoveredSkill& skill : *discovered) {
    const fs::path target = bundle.quarantine.ready_dir() / skill.name;
    std::error_code ec;
    fs::rename(skill.dir, target, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "Cannot stage " + skill.dir.string() + " in quarantine: " + ec.message());
    }
    bundle.skills.push_back({skill.name, target, skill.relative});
  }
  return bundle;
}

} // namespace skillrt::core::hub
