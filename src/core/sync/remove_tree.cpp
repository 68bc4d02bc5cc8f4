// Contained removal of skill folders (see remove_tree.hpp).
#include "core/sync/remove_tree.hpp"

#include <string>
#include <system_error>

#include "core/files/folder_swap.hpp"
#include "core/files/path_within.hpp"

namespace skillrt::core::sync {

namespace fs = std::filesystem;

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
  return files::remove_folder(path);
}

} // namespace skillrt::core::sync
