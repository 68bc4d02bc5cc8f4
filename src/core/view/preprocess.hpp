// SKILL.md preprocessing (spec §2.9): template variables and, when enabled,
// inline shell expansion.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/roots.hpp"

namespace skillrt::core {

// Replaces ${HERMES_SKILL_DIR} (when skill_dir is set) and ${HERMES_SESSION_ID}
// (when session_id is non-empty). ${HERMES_SESSION_KEY} / ${HERMES_BINDING_KEY}
// have no value here and, like every other ${...}, stay verbatim.
std::string substitute_template_vars(std::string_view content, const std::optional<std::filesystem::path>& skill_dir,
                                     std::string_view session_id);

// Replaces each !`cmd` (single line, no backtick inside) with the output of
// run_inline_shell(cmd, cwd, timeout_s); other text is untouched.
std::string expand_inline_shell(std::string_view content, const std::filesystem::path& cwd, int timeout_s);

// Applies both steps as cfg enables them (template_vars default on, inline_shell
// default off). Inline shell runs in skill_dir, else in shell_cwd; with a user
// in ctx it runs in that user's HOME/users/<uid>/tmp instead (not at all when
// that folder cannot be made safely). `tier` is the skill's tier: with a user
// in ctx, only shared-layer skills (written by the owner org) may run shell;
// a user's own skill (Tier::user) keeps its snippets unexpanded, because every
// user runs as the same OS account and a snippet could read other users' homes.
std::string preprocess_skill_content(std::string_view content, const std::optional<std::filesystem::path>& skill_dir,
                                     const std::filesystem::path& shell_cwd, const Context& ctx,
                                     const SkillsConfig& cfg, Tier tier);

} // namespace skillrt::core
