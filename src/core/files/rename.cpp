// No-replace and durable renames (see rename.hpp).
#include "core/files/rename.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cerrno>

#include "core/files/fsync_dir.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;

Result<void> rename_failure(const fs::path& from, const fs::path& to, int err) {
  if (err == EEXIST || err == ENOTEMPTY) {
    return fail(ErrorCode::refused, "cannot move " + from.string() + " to " + to.string() + ": the target exists");
  }
  return fail(ErrorCode::io_error, "cannot move " + from.string() + " to " + to.string() + ": " + errno_text(err));
}

} // namespace

Result<void> rename_no_replace(const fs::path& from, const fs::path& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) {
    return {};
  }
  if (errno != EINVAL && errno != ENOSYS) {
    return rename_failure(from, to, errno);
  }
#endif
  // No RENAME_NOREPLACE here: check, then rename. rename(2) never replaces a
  // non-empty folder, so at worst an empty entry made in between is replaced.
  struct stat st {};
  if (::lstat(to.c_str(), &st) == 0) {
    return rename_failure(from, to, EEXIST);
  }
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return rename_failure(from, to, errno);
  }
  return {};
}

Result<void> move_durably(const fs::path& from, const fs::path& to, Replace replace) {
  if (replace == Replace::refuse) {
    if (auto moved = rename_no_replace(from, to); !moved) {
      return moved;
    }
  } else if (::rename(from.c_str(), to.c_str()) != 0) {
    return rename_failure(from, to, errno);
  }
  (void)fsync_dir(to.parent_path());
  if (from.parent_path() != to.parent_path()) {
    (void)fsync_dir(from.parent_path());
  }
  return {};
}

} // namespace skillrt::core::files
