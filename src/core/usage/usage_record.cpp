#include "core/usage/usage_record.hpp"

namespace skillrt::core {

const char* skill_author_name(SkillAuthor author) {
  switch (author) {
    case SkillAuthor::unknown:
      return "unknown";
    case SkillAuthor::agent:
      return "agent";
    case SkillAuthor::person:
      return "user";
    case SkillAuthor::hub:
      return "hub";
    case SkillAuthor::bundled:
      return "bundled";
  }
  return "unknown";
}

std::optional<SkillAuthor> skill_author_from_name(std::string_view name) {
  for (SkillAuthor author :
       {SkillAuthor::unknown, SkillAuthor::agent, SkillAuthor::person, SkillAuthor::hub, SkillAuthor::bundled}) {
    if (name == skill_author_name(author)) {
      return author;
    }
  }
  return std::nullopt;
}

const char* skill_lifecycle_name(SkillLifecycle state) {
  switch (state) {
    case SkillLifecycle::active:
      return "active";
    case SkillLifecycle::stale:
      return "stale";
    case SkillLifecycle::archived:
      return "archived";
  }
  return "active";
}

std::optional<SkillLifecycle> skill_lifecycle_from_name(std::string_view name) {
  for (SkillLifecycle state : {SkillLifecycle::active, SkillLifecycle::stale, SkillLifecycle::archived}) {
    if (name == skill_lifecycle_name(state)) {
      return state;
    }
  }
  return std::nullopt;
}

}  // namespace skillrt::core
