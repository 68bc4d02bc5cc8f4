// Which usage record a successful skill_view counts against (spec §2.7 rule
// 22): the skill's folder name in its layer. Nothing is counted for a skill
// that still needs setup, nor for external and project skills, which no
// usage book of ours owns and the curator never ages.
#pragma once

#include <optional>
#include <string>

#include "core/tenancy/layer.hpp"
#include "core/view/skill_view.hpp"

namespace skillrt::core {

struct UsageSubject {
  Layer layer = Layer::shared;
  std::string name;
};

std::optional<UsageSubject> usage_subject(const SkillDocument& doc);

}  // namespace skillrt::core
