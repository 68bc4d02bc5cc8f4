// Discovery of the bundled skills (see bundled_set.hpp).
#include "core/sync/bundled_set.hpp"

#include <algorithm>
#include <system_error>

#include "core/discovery/walker.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/dir_hash.hpp"
#include "core/sync/skill_index.hpp"
#include "core/files/path_within.hpp"

namespace skillrt::core::sync {

const BundledSkill* BundledSet::find(std::string_view name) const {
  const auto it = std::find_if(skills.begin(), skills.end(), [&](const BundledSkill& s) { return s.name == name; });
  return it == skills.end() ? nullptr : &*it;
}

Result<std::filesystem::path> resolve_bundled_dir(const std::filesystem::path& bundled_dir,
                                                  const std::filesystem::path& skills_root) {
  namespace fs = std::filesystem;
  if (bundled_dir.empty()) {
    return fail(ErrorCode::invalid_argument, "no bundled skills folder given");
  }
  std::error_code ec;
  const fs::path bundled = fs::canonical(bundled_dir, ec);
  if (ec || !fs::is_directory(bundled, ec)) {
    return fail(ErrorCode::not_found, "bundled skills folder not found: " + bundled_dir.string());
  }
  const fs::path root = fs::canonical(skills_root, ec);
  if (!ec && (is_within(bundled, root) || is_within(root, bundled))) {
    return fail(ErrorCode::invalid_argument, "the bundled skills folder " + bundled.string() +
                                                 " and the skills folder " + root.string() +
                                                 " overlap; refusing to sync one into the other");
  }
  return bundled;
}

BundledSet discover_bundled_skills(const std::filesystem::path& bundled_root) {
  BundledSet out;
  const SkillIndex index = index_skills(bundled_root, default_walk_limits());
  for (const std::string& problem : index.problems) {
    out.problems.push_back("bundled skill skipped: " + problem);
    out.complete = false;
  }
  for (const IndexedSkill& found : index.skills) {
    out.names.insert(found.name);
    if (found.relative.empty() || found.relative == ".") {
      out.problems.push_back("bundled skill skipped: " + (found.dir / "SKILL.md").string() +
                             " is at the top of the bundled folder; each skill needs a folder of its own");
      continue;
    }
    if (!is_manifest_safe_name(found.name)) {
      out.problems.push_back(
          "bundled skill skipped: the name \"" + found.name + "\" of " + found.dir.string() +
          " cannot be recorded in the manifest (empty, ':', control character or surrounding blanks)");
      continue;
    }
    if (out.find(found.name) != nullptr) {
      out.problems.push_back("bundled skill skipped: " + found.dir.string() + " has the name \"" + found.name +
                             "\", which another bundled skill already has");
      continue;
    }
    auto hash = skill_dir_hash(found.dir);
    if (!hash) {
      out.problems.push_back("bundled skill " + found.name + " skipped: " + hash.error().message);
      continue;
    }
    out.skills.push_back({found.name, found.dir, found.relative, *hash});
  }
  return out;
}

} // namespace skillrt::core::sync
