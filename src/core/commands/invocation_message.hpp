// The message a host sends the model when the user types `/skill instruction`
// (spec §2.15 rule 5) or stacks several skills `/a /b instruction` (rule 6).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/commands/skill_commands.hpp"
#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/view/view_usage.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

inline constexpr std::size_t k_max_stacked_skills = 5; // _MAX_STACKED_SKILLS

// One skill loaded for an invocation, ready to render.
struct LoadedSkill {
  std::string name;
  std::string content; // whole SKILL.md, preprocessed (template vars, inline shell as configured), not stripped
  std::optional<std::string> skill_dir;
  bool declares_config = false;
  std::vector<std::pair<std::string, std::string>> config; // key → value or "(not set)"
  std::optional<std::string> setup_note;
  std::vector<std::string> supporting_files; // relative to skill_dir
};

// Loads the command's own SKILL.md (the catalog's first-wins record, so the
// skill the command names is the one loaded) with skill_view's building
// blocks: readiness, preprocessing and linked files. The config values come
// from `skills.config.<key>` of cfg for each key declared in
// metadata.hermes.config (a list, or one mapping, of {key, description,
// default?, prompt?}); an unset key shows its declared default, else "(not set)".
Result<LoadedSkill> load_skill_for_command(const Context& ctx, const Config& cfg, const SkillCommand& command);

// The single-skill message of rule 5. $ARGUMENTS/$N in the content take the
// instruction; when $ARGUMENTS was used the instruction is not appended again.
std::string render_single_invocation(const LoadedSkill& skill, std::string_view config_path,
                                     std::string_view instruction, std::string_view runtime_note);

// The stacked message of rule 6. `typed` are the leading command tokens as
// typed (loaded and missing), `missing` the tokens that matched no skill.
std::string render_stacked_invocation(const std::vector<LoadedSkill>& skills, const std::vector<std::string>& typed,
                                      const std::vector<std::string>& missing, std::string_view config_path,
                                      std::string_view instruction, std::string_view runtime_note);

struct Invocation {
  std::string message;
  std::vector<std::string> skills;  // names loaded, in typed order
  std::vector<std::string> missing; // tokens that matched no skill (stacked form)
  // The usage records the invocation counts a use against (view_usage.hpp):
  // loaded skills of the local and user roots.
  std::vector<UsageSubject> used;
};

// Splits "/a /b rest": up to k_max_stacked_skills distinct leading tokens that
// start with '/' and hold no other '/', then the instruction (trimmed).
std::pair<std::vector<std::string>, std::string> split_invocation(std::string_view input);

// Resolves and renders `input`. Fails with invalid_argument when it does not
// start with a command token and not_found when no token names a skill.
Result<Invocation> build_invocation(const Context& ctx, const Config& cfg, std::string_view input,
                                    std::string_view runtime_note);

} // namespace skillrt::core
