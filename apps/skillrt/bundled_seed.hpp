// Where the bundled skills are, and the first-use seeding of a new home.
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

// Whether ctx.skills_dir() is still new, the one rule of first-use seeding:
// it does not exist, or it is a real folder (not a symlink) holding no
// `.bundled_manifest` (written by every sync, so seeding happened before) and
// no entry that could be a skill or category (a name not starting with '.');
// housekeeping a failed command left behind (`.hub/`, a sync lock) does not
// make a home old. A home holding any skill of the user's is never new.
bool is_new_skills_home(const core::Context& ctx);

// First-use seeding, run before every command however skillrt was started
// (scripts/run or the binary itself): when the home is new
// (is_new_skills_home), HOME/.no-bundled-skills is absent,
// $SKILLRT_NO_BUNDLED_SEED is unset or empty (tests set it to keep their
// temporary homes empty), a bundled folder is found (find_bundled_dir) and the
// actor may write the shared layer, runs the real sync (so the manifest exists
// and later syncs update pristine copies) into a staging home beside HOME and
// moves its skills into place: in one rename when HOME/skills does not exist,
// else entry by entry with the manifest last, never replacing an entry that
// is already there. A crash leaves either no manifest (the next `skillrt sync`
// completes the copy) or a complete seed; concurrent first runs both end
// with one complete seed. `seeded` gets the number of skills copied; returns
// a warning, if any.
std::optional<std::string> seed_bundled_skills(const core::Context& ctx, const core::Config& cfg, std::size_t& seeded);

} // namespace skillrt::app
