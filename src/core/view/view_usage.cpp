#include "core/view/view_usage.hpp"

#include "core/discovery/roots.hpp"

namespace skillrt::core {

std::optional<UsageSubject> usage_subject(const SkillDocument& doc) {
  if (doc.readiness.setup_needed || !doc.skill_dir) {
    return std::nullopt;
  }
  if (doc.tier != Tier::local && doc.tier != Tier::user) {
    return std::nullopt;
  }
  return UsageSubject{tier_layer(doc.tier), doc.skill_dir->filename().string()};
}

}  // namespace skillrt::core
