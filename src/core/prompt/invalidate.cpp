#include "core/prompt/invalidate.hpp"

#include <system_error>

#include "core/prompt/skills_index.hpp"

namespace skillrt::core {

std::filesystem::path prompt_snapshot_path(const Context& ctx) {
  return ctx.home / ".skills_prompt_snapshot.json";
}

void invalidate_skill_caches(const Context& ctx) {
  clear_prompt_cache();
  std::error_code ec;
  std::filesystem::remove(prompt_snapshot_path(ctx), ec);
}

} // namespace skillrt::core
