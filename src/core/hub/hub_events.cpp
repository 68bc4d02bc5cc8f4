// Change events and cache invalidation after hub changes (see hub_events.hpp).
#include "core/hub/hub_events.hpp"

#include "core/prompt/invalidate.hpp"

namespace skillrt::core::hub {

void announce_change(const Context& ctx, const HubPaths& paths, ChangeKind kind, const std::string& name,
                     const std::filesystem::path& skill_dir) {
  invalidate_skill_caches(ctx);
  SkillEvent event;
  event.kind = kind;
  event.layer = paths.layer;
  event.owner = paths.owner;
  event.name = name;
  event.location = (skill_dir / "SKILL.md").string();
  publish_change(ctx, std::move(event));
}

} // namespace skillrt::core::hub
