// Bundled skills folder lookup and first-use seeding (see bundled_seed.hpp).
#include "bundled_seed.hpp"

#include <unistd.h>

#include <system_error>
#include <vector>

#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_sync.hpp"
#include "core/sync/sync_lock.hpp"
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

bool is_new_skills_home(const core::Context& ctx) {
  std::error_code ec;
  const fs::path skills = ctx.skills_dir();
  const fs::file_status status = fs::symlink_status(skills, ec);
  if (!fs::exists(status)) {
    return !ec || ec == std::errc::no_such_file_or_directory;
  }
  if (!fs::is_directory(status)) {
    return false; // a symlink or a file is the user's arrangement: leave it alone
  }
  if (fs::exists(fs::symlink_status(core::sync::bundled_manifest_path(ctx), ec))) {
    return false;
  }
  ec.clear(); // symlink_status reports the manifest's absence through ec
  for (fs::directory_iterator it(skills, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().front() != '.') {
      return false;
    }
  }
  return !ec; // unreadable: never write into what we cannot see
}

namespace {

// Moves the staged skills folder into place (see seed_bundled_skills).
// Returns false when nothing could be moved.
bool move_seed_into_place(const core::Context& staging, const fs::path& target) {
  const fs::path staged = staging.skills_dir();
  const fs::path manifest_name = core::sync::bundled_manifest_path(staging).filename();
  const fs::path lock_name = core::sync::sync_lock_path(staging).filename();
  std::error_code ec;
  fs::rename(staged, target, ec);
  if (!ec) {
    return true;
  }
  if (!fs::is_directory(fs::symlink_status(target, ec))) {
    return false;
  }
  // HOME/skills exists with housekeeping in it (rename only replaces an empty
  // folder): move the staged entries in beside it, the manifest last, so a
  // crash before it leaves a home the next `skillrt sync` completes. The
  // sync's lock file stays behind; an existing entry is never replaced.
  std::vector<fs::path> entries;
  ec.clear();
  for (fs::directory_iterator it(staged, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path name = it->path().filename();
    if (name != manifest_name && name != lock_name) {
      entries.push_back(name);
    }
  }
  if (ec) {
    return false;
  }
  bool moved = false;
  for (const fs::path& name : entries) {
    if (fs::exists(fs::symlink_status(target / name, ec))) {
      continue;
    }
    fs::rename(staged / name, target / name, ec);
    moved = moved || !ec;
  }
  if (!fs::exists(fs::symlink_status(target / manifest_name, ec))) {
    fs::rename(staged / manifest_name, target / manifest_name, ec);
  }
  return moved;
}

} // namespace

std::optional<std::string> seed_bundled_skills(const core::Context& ctx, const core::Config& cfg, std::size_t& seeded) {
  seeded = 0;
  if (auto off = ctx.env("SKILLRT_NO_BUNDLED_SEED"); off && !off->empty()) {
    return std::nullopt;
  }
  std::error_code ec;
  if (fs::exists(core::sync::opt_out_marker_path(ctx), ec) || !is_new_skills_home(ctx)) {
    return std::nullopt;
  }
  if (!core::check_permission(ctx, core::Operation::create, core::Layer::shared)) {
    return std::nullopt; // this actor may not write HOME/skills: nothing to seed for them
  }
  const std::optional<fs::path> bundled = find_bundled_dir(ctx);
  if (!bundled) {
    return std::nullopt; // a binary shipped without bundled skills: nothing to seed
  }
  if (!fs::is_directory(*bundled, ec)) {
    return "bundled skills folder not found: " + bundled->string();
  }
  fs::create_directories(ctx.home, ec);
  if (ec) {
    return "cannot create " + ctx.home.string() + ": " + ec.message();
  }
  // Sync into a staging home beside the real one, then move its skills folder
  // into place.
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
  if (synced && move_seed_into_place(staging, ctx.skills_dir())) {
    seeded = synced->copied.size();
  }
  fs::remove_all(staging.home, ec);
  return warning;
}

} // namespace skillrt::app
