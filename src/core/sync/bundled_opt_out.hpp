// Turning the bundled skills off and on again (spec §2.13 rule 12,
// `set_bundled_skills_opt_out`): the marker HOME/.no-bundled-skills
// (opt_out_marker_path) is what sync and first-use seeding look at.
#pragma once

#include <filesystem>
#include <string>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::sync {

enum class OptOutAction : unsigned char { opted_out, already_opted_out, opted_in, not_opted_out };
const char* opt_out_action_name(OptOutAction action); // the enumerator's name

struct OptOutResult {
  OptOutAction action = OptOutAction::not_opted_out;
  std::string message;    // fixed per action (see bundled-sync.md)
  bool opted_out = false; // the state afterwards
  bool changed = false;   // the marker was created or removed
  std::filesystem::path marker;
};

// Creates (opt_out) or removes the marker. The marker is written atomically
// (temp file, fsync, rename) and holds one line saying what it is; any entry
// at the marker's path (also a symlink, never followed) counts as present.
// Errors: refused unless check_permission(create, shared) allows it (the
// same rule as sync: a marker changes what sync writes for everyone);
// io_error when the marker cannot be written or removed.
Result<OptOutResult> set_bundled_opt_out(const Context& ctx, bool opt_out);

} // namespace skillrt::core::sync
