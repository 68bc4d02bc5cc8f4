#include "core/manage/write_session.hpp"

#include <utility>

#include "core/manage/file_path_rules.hpp"
#include "core/manage/stray_temp_cleanup.hpp"

namespace skillrt::core {

ManageExpected<SkillWriteSession> open_skill_for_write(const Context& ctx, const Config& cfg, std::string_view name,
                                                       const std::string& rel, bool for_write_file) {
  auto skill = [&] {
    const Catalog catalog = manage_catalog(ctx, cfg);
    return locate_managed_skill(ctx, catalog, name, for_write_file);
  }();
  if (!skill) {
    return tl::unexpected(std::move(skill.error()));
  }
  auto lock = SkillLock::acquire(ctx, skill->dir);
  if (!lock) {
    return tl::unexpected(manage_failure(lock.error().code, lock.error().message));
  }
  // Under the lock no live skillrt writer owns a temp file in this skill.
  remove_stray_temps(skill->dir);
  auto target = resolve_inside_skill(skill->dir, rel);
  if (!target) {
    return tl::unexpected(manage_failure(target.error().code, target.error().message));
  }
  return SkillWriteSession{std::move(*skill), std::move(*lock), std::move(*target)};
}

}  // namespace skillrt::core
