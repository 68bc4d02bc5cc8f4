#include "core/manage/write_session.hpp"

#include <utility>

#include "core/manage/actions.hpp"
#include "core/manage/file_path_rules.hpp"
#include "core/manage/stray_temp_cleanup.hpp"

namespace skillrt::core {

ManageExpected<SkillWriteSession> open_skill_for_write(const Context& ctx, const Config& cfg, std::string_view name,
                                                       const std::string& rel, bool for_write_file, Layer layer) {
  auto skill = [&] {
    const Catalog catalog = manage_catalog(ctx, cfg);
    return locate_managed_skill(ctx, catalog, name, for_write_file, layer);
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

ManageExpected<std::vector<std::string>> write_and_settle(const Context& ctx, const Config& cfg,
                                                          const SkillWriteSession& session, bool confirmed,
                                                          FileTransaction& transaction, std::string_view content) {
  if (auto written = transaction.write(session.target, content); !written) {
    transaction.rollback();
    return tl::unexpected(manage_failure(written.error().code, written.error().message));
  }
  std::vector<std::string> warnings;
  if (auto refused = settle_write(
          ctx, cfg, session.skill.dir, confirmed, [&] { return transaction.rollback(); }, warnings)) {
    return tl::unexpected(std::move(*refused));
  }
  transaction.commit();
  return warnings;
}

}  // namespace skillrt::core
