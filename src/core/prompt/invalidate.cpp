#include "core/prompt/invalidate.hpp"

#include <system_error>

#include "core/prompt/skills_index.hpp"
#include "core/tenancy/user_id.hpp"

namespace skillrt::core {

std::filesystem::path prompt_snapshot_path(const Context& ctx) {
  // Per user: a user's snapshot names their own skills' paths, which no other
  // user may learn, and users sharing one file would rewrite it on every turn.
  if (ctx.user_id && check_user_id(*ctx.user_id)) {
    return ctx.home / "users" / *ctx.user_id / ".skills_prompt_snapshot.json";
  }
  return ctx.home / ".skills_prompt_snapshot.json";
}

void invalidate_skill_caches(const Context& ctx) {
  clear_prompt_cache();
  std::error_code ec;
  std::filesystem::remove(prompt_snapshot_path(ctx), ec);
  if (ctx.user_id) {
    // A shared write by a user of the owner org: the single-user snapshot
    // goes too. Other users' snapshots notice the change by themselves
    // (every entry is keyed on its file's exact stat).
    std::filesystem::remove(ctx.home / ".skills_prompt_snapshot.json", ec);
  }
}

} // namespace skillrt::core
