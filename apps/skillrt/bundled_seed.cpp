// Bundled skills folder lookup and first-use seeding (see bundled_seed.hpp).
#include "bundled_seed.hpp"

#include <unistd.h>

#include <system_error>

#include "core/sync/bundled_sync.hpp"
#include "core/sync/remove_tree.hpp"
#include "core/tenancy/permissions.hpp"

namespace skillrt::app {

namespace fs = std::filesystem;

std::optional<fs::path> find_bundled_dir(const core::Context& ctx) {
  if (auto env = ctx.env("SKILLRT_BUNDLED_DIR"); env && !env->empty()) {
    return fs::path(*env);
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return std::nullopt;
  }
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate : {dir / "bundled-skills", dir / ".." / "share" / "skillrt" / "bundled-skills"}) {
    if (fs::is_directory(candidate, ec)) {
      return candidate.lexically_normal();
    }
  }
  return std::nullopt;
}

std::optional<std::string> seed_bundled_skills(const core::Context& ctx, const core::Config& cfg, std::size_t& seeded) {
  seeded = 0;
  const auto bundled = ctx.env("SKILLRT_BUNDLED_DIR");
  if (!bundled || bundled->empty()) {
    return std::nullopt;
  }
  std::error_code ec;
  const fs::path target = ctx.skills_dir();
  if (fs::exists(fs::symlink_status(target, ec)) || fs::exists(core::sync::opt_out_marker_path(ctx), ec)) {
    return std::nullopt;
  }
  if (!core::check_permission(ctx, core::Operation::create, core::Layer::shared)) {
    return std::nullopt; // this actor may not write HOME/skills: nothing to seed for them
  }
  if (!fs::is_directory(*bundled, ec)) {
    return "bundled skills folder not found: " + *bundled;
  }
  fs::create_directories(ctx.home, ec);
  if (ec) {
    return "cannot create " + ctx.home.string() + ": " + ec.message();
  }
  // Sync into a staging home beside the real one, then move its skills folder
  // into place in one rename.
  core::Context staging = ctx;
  staging.home = ctx.home / (".skills.seed-" + std::to_string(::getpid()));
  staging.events = nullptr;
  fs::remove_all(staging.home, ec);
  core::sync::SyncOptions options;
  options.bundled_dir = *bundled;
  auto synced = core::sync::sync_bundled_skills(staging, cfg, options);
  std::optional<std::string> warning;
  if (!synced) {
    warning = "cannot seed the bundled skills: " + synced.error().message;
  } else if (!synced->errors.empty()) {
    warning = "seeding the bundled skills: " + synced->errors.front();
  }
  if (synced) {
    fs::rename(staging.skills_dir(), target, ec);
    if (!ec) {
      seeded = synced->copied.size();
    }
    // On failure another process seeded first: theirs stands.
  }
  fs::remove_all(staging.home, ec);
  return warning;
}

} // namespace skillrt::app
