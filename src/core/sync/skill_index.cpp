// Skills below a folder, by name (see skill_index.hpp).
#include "core/sync/skill_index.hpp"

#include "core/discovery/skill_reader.hpp"

namespace skillrt::core::sync {

namespace fs = std::filesystem;

SkillIndex index_skills(const fs::path& root, const WalkLimits& limits) {
  SkillIndex index;
  const WalkResult walk = walk_skill_root(root, limits, false);
  std::string buffer;
  for (const fs::path& file : walk.skill_files) {
    ListingFields fields;
    ListingFailure failure;
    if (!read_listing_fields(file.string(), buffer, fields, failure)) {
      index.problems.push_back(file.string() + ": " + failure.detail);
      continue;
    }
    IndexedSkill skill;
    skill.dir = file.parent_path();
    skill.relative = skill.dir.lexically_relative(root);
    skill.name = fields.frontmatter_name.empty() ? skill.dir.filename().string() : fields.frontmatter_name;
    index.skills.push_back(std::move(skill));
  }
  return index;
}

} // namespace skillrt::core::sync
