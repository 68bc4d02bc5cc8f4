// A user's own home: HOME/users/<uid>/ with skills/, memory.json, todo.json, tmp/.
#pragma once

#include <filesystem>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct UserHome {
  std::filesystem::path root;       // HOME/users/<uid>
  std::filesystem::path skills;     // root/skills
  std::filesystem::path memory;     // root/memory.json
  std::filesystem::path todo;       // root/todo.json
  std::filesystem::path tmp;        // root/tmp (working dir of inline shell and scripts run for the user)
};

// The paths of ctx's user (nothing is created). Fails when ctx has no user.
Result<UserHome> user_home_paths(const Context& ctx);

// The same, creating root/, skills/ and tmp/ with mode 0700 when missing
// (files are created 0600 by whoever writes them). Refuses when HOME/users or
// the user's folder is a symlink or not a directory, so no id can reach a
// path outside HOME/users.
Result<UserHome> ensure_user_home(const Context& ctx);

}  // namespace skillrt::core
