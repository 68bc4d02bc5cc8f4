#include "core/manage/stray_temp_cleanup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "core/discovery/catalog.hpp"
#include "core/discovery/walker.hpp"
#include "core/files/runtime_cache.hpp"
#include "core/limits.hpp"
#include "core/manage/skill_lock.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_temp_marker = ".tmp.";
bool older_than_limit(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return false;
  }
  return std::time(nullptr) - st.st_mtime > limits::k_stray_temp_age_s;
}

// Unlinks each file (a link is unlinked, never followed); how many went.
std::size_t unlink_each(const std::vector<fs::path>& files) {
  std::size_t removed = 0;
  for (const fs::path& path : files) {
    if (::unlink(path.c_str()) == 0) {
      ++removed;
    }
  }
  return removed;
}

} // namespace

bool is_atomic_temp_name(std::string_view name) {
  if (name.size() < 2 || name.front() != '.') {
    return false;
  }
  const std::size_t at = name.rfind(k_temp_marker);
  return at != std::string_view::npos && at > 1 && at + k_temp_marker.size() < name.size();
}

std::size_t remove_stray_temps(const fs::path& skill_dir) {
  std::vector<fs::path> stray;
  std::error_code ec;
  std::size_t seen = 0;
  for (fs::recursive_directory_iterator it(skill_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (++seen > limits::k_max_linked_files) {
      break;
    }
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec) || it->is_symlink(type_ec) || !is_atomic_temp_name(name)) {
      continue;
    }
    // Ours (the atomic writer's exact pattern) go at once; others' when old.
    if (files::is_interrupted_write_temp(name) || older_than_limit(it->path())) {
      stray.push_back(it->path());
    }
  }
  return unlink_each(stray);
}

std::size_t remove_stray_work_dirs(const fs::path& parent) {
  std::vector<fs::path> stray;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.rfind(k_manage_work_dir_prefix, 0) == 0 && it->is_directory(type_ec) && !it->is_symlink(type_ec) &&
        older_than_limit(it->path())) {
      stray.push_back(it->path());
    }
  }
  std::size_t removed = 0;
  for (const fs::path& path : stray) {
    std::error_code rm_ec;
    // remove_all never follows a symlink inside the folder: it unlinks the link.
    if (fs::remove_all(path, rm_ec) > 0 && !rm_ec) {
      ++removed;
    }
  }
  return removed;
}

std::size_t remove_stray_cache_temps(const fs::path& cache_file) {
  const fs::path cache_dir = cache_file.parent_path();
  const std::string prefix = "." + cache_file.filename().string() + std::string(k_temp_marker);
  std::vector<fs::path> stray;
  std::error_code ec;
  for (fs::directory_iterator it(cache_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() && it->is_regular_file(type_ec) &&
        !it->is_symlink(type_ec) && older_than_limit(it->path())) {
      stray.push_back(it->path());
    }
  }
  return unlink_each(stray);
}

StraySweep sweep_stray_files(const Context& ctx, const Catalog& catalog) {
  StraySweep sweep;
  std::set<fs::path> parents;
  for (const Root& root : catalog.roots.roots) {
    parents.insert(root.path);
  }
  for (const SkillRecord& record : catalog.records) {
    const fs::path dir = record.dir;
    parents.insert(dir.parent_path());
    auto lock = SkillLock::try_acquire(ctx, dir);
    if (!lock) {
      ++sweep.busy_skills;
      continue;
    }
    sweep.temp_files += remove_stray_temps(dir);
  }
  for (const fs::path& parent : parents) {
    sweep.work_dirs += remove_stray_work_dirs(parent);
  }
  // A writer of the listing cache killed mid-save leaves its temp file behind.
  sweep.temp_files += remove_stray_cache_temps(listing_cache_path(ctx));
  return sweep;
}

} // namespace skillrt::core
