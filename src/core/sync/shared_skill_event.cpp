// Change events of bundled copies (see shared_skill_event.hpp).
#include "core/sync/shared_skill_event.hpp"

namespace skillrt::core::sync {

void publish_shared_skill_change(const Context& ctx, ChangeKind kind, const std::string& name,
                                 const std::filesystem::path& dir) {
  SkillEvent event;
  event.kind = kind;
  event.layer = Layer::shared;
  event.name = name;
  event.location = (dir / "SKILL.md").string();
  publish_change(ctx, std::move(event));
}

} // namespace skillrt::core::sync
