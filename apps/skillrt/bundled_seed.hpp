// First-use seeding of the bundled skills into a fresh home.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/context.hpp"

namespace skillrt::app {

// Copies the bundled skills folder into ctx.skills_dir() when that folder does
// not exist yet and HOME/.no-bundled-skills is absent. The bundled folder comes
// from $SKILLRT_BUNDLED_DIR (scripts/run sets it); without it nothing happens,
// so tests on temporary homes start empty. The copy is staged beside the target
// and renamed into place, so a crash never leaves a half-seeded home.
// Returns the number of skills seeded, or an error message.
std::optional<std::string> seed_bundled_skills(const core::Context& ctx, std::size_t& seeded);

}  // namespace skillrt::app
