// Where the bundled skills are, and the first-use seeding of a fresh home.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::app {

// The bundled skills folder `skillrt sync` uses without --bundled:
// $SKILLRT_BUNDLED_DIR when set and non-empty (even if missing, so a typo is
// reported rather than silently replaced), else <exe dir>/bundled-skills (the
// build's copy), else <exe dir>/../share/skillrt/bundled-skills (installed);
// nullopt when none of these exists.
std::optional<std::filesystem::path> find_bundled_dir(const core::Context& ctx);

// First-use seeding: when $SKILLRT_BUNDLED_DIR is set (scripts/run sets it),
// ctx.skills_dir() does not exist yet, HOME/.no-bundled-skills is absent and
// the actor may write the shared layer, runs the real sync (so the manifest
// exists and later syncs update pristine copies) into a staging home beside
// HOME and renames its skills folder into place: a crash never leaves a
// half-seeded home, and a concurrent first run's seeding wins. Without the
// variable nothing happens, so tests on temporary homes start empty.
// `seeded` gets the number of skills copied; returns a warning, if any.
std::optional<std::string> seed_bundled_skills(const core::Context& ctx, const core::Config& cfg, std::size_t& seeded);

} // namespace skillrt::app
