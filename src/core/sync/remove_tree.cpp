// Contained removal of skill folders (see remove_tree.hpp).
#include "core/sync/remove_tree.hpp"

#include <sys/stat.h>

#include <string>
#include <system_error>

#include "core/files/tree_walk.hpp"
#include "core/files/path_within.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

// Adds owner rwx to every folder below `path` (links never followed), so
// remove_all can empty them. Each folder is opened up before the walk enters it.
void make_folders_writable(const fs::path& path) {
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow, ec);
  files::WalkOptions options;
  options.limits = files::TreeLimits::unlimited();
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.skip_runtime_caches = false;
  (void)files::walk_tree(path, options, [](const files::WalkEntry& entry) -> Result<void> {
    if (entry.kind == files::EntryKind::folder) {
      (void)::fchmodat(entry.parent_fd, std::string(entry.name).c_str(), (entry.st->st_mode & 07777) | S_IRWXU, 0);
    }
    return {};
  });
}

} // namespace

bool goes_through_symlink(const fs::path& dest, const fs::path& skills_root) {
  const fs::path relative = dest.lexically_relative(skills_root);
  fs::path current = skills_root;
  for (const fs::path& part : relative) {
    current /= part;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(current, ec);
    if (fs::is_symlink(status)) {
      return true;
    }
    if (!fs::exists(status)) {
      return false;
    }
  }
  return false;
}

bool strictly_inside(const fs::path& path, const fs::path& skills_root) {
  std::error_code ec;
  const fs::path root = fs::canonical(skills_root, ec);
  if (ec || path.empty() || !path.is_absolute()) {
    return false;
  }
  const fs::path normal = path.lexically_normal();
  const fs::path leaf = normal.filename();
  if (leaf.empty() || leaf == "." || leaf == "..") {
    return false;
  }
  const fs::path parent = fs::canonical(normal.parent_path(), ec);
  if (ec) {
    return false;
  }
  return is_within(parent, root) && parent / leaf != root;
}

Result<void> remove_skill_tree(const fs::path& path, const fs::path& skills_root) {
  if (!strictly_inside(path, skills_root)) {
    return fail(ErrorCode::refused,
                "refusing to remove " + path.string() + ": it is not strictly inside " + skills_root.string());
  }
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (!fs::exists(status)) {
    return {};
  }
  if (!fs::is_directory(status)) {
    fs::remove(path, ec); // a symlink (or a stray file): the link goes, its target stays
  } else {
    fs::remove_all(path, ec);
    if (ec) {
      make_folders_writable(path);
      ec.clear();
      fs::remove_all(path, ec);
    }
  }
  if (ec) {
    return fail(ErrorCode::io_error, "cannot remove " + path.string() + ": " + ec.message());
  }
  return {};
}

} // namespace skillrt::core::sync
