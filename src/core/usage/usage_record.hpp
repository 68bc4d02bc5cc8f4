// What the runtime remembers about how a skill is used and who made it
// (spec §2.7 rule 22, §2.10 step 1 and 4, §2.17; Hermes' `.usage.json`): the
// curator ages only agent-created skills by it, and the background review
// refuses to touch a skill whose record says a person wrote it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

// Who created the skill. `unknown`: no record yet, or a skill that existed
// before records were kept; the review treats it as not agent-created.
enum class SkillAuthor : unsigned char { unknown, agent, person, hub, bundled };

// The curator's stages (never a deletion): active → stale (30 days unused) →
// archived (90 days, hidden from the index).
enum class SkillLifecycle : unsigned char { active, stale, archived };

const char* skill_author_name(SkillAuthor author);             // "unknown" | "agent" | "user" | "hub" | "bundled"
std::optional<SkillAuthor> skill_author_from_name(std::string_view name);
const char* skill_lifecycle_name(SkillLifecycle state);        // "active" | "stale" | "archived"
std::optional<SkillLifecycle> skill_lifecycle_from_name(std::string_view name);

struct UsageRecord {
  std::uint64_t views = 0;    // skill_view answers
  std::uint64_t uses = 0;     // invocations (slash commands, skills_match hits taken)
  std::uint64_t patches = 0;  // patch / edit / write_file / remove_file
  std::string created_at;     // ISO-8601 UTC, "" when unknown
  std::string last_used;      // ISO-8601 UTC of the last view or use, "" when never
  SkillAuthor created_by = SkillAuthor::unknown;
  bool pinned = false;        // the curator and the review leave it alone
  SkillLifecycle state = SkillLifecycle::active;
  std::string state_since;    // ISO-8601 UTC of the last state change
};

}  // namespace skillrt::core
