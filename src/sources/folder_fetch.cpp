// Local folder copy (see folder_fetch.hpp).
#include "sources/folder_fetch.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

#include "core/files/runtime_cache.hpp"
#include "core/util/text.hpp"
#include "sources/bundle_path.hpp"

namespace skillrt::sources {

namespace {


using core::errno_text;

std::string join(std::string_view base, std::string_view name) {
  return base.empty() ? std::string(name) : std::string(base) + "/" + std::string(name);
}

const char* special_kind(mode_t mode) {
  if (S_ISCHR(mode)) {
    return "character device";
  }
  if (S_ISBLK(mode)) {
    return "block device";
  }
  if (S_ISFIFO(mode)) {
    return "fifo";
  }
  if (S_ISSOCK(mode)) {
    return "socket";
  }
  return "special file";
}

// Opens `name` below `parent` as a folder without following a symlink.
UniqueFd open_folder_at(int parent, const char* name) {
  return UniqueFd(::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// The sorted entry names of the folder open at `fd` (sorted: the same tree
// always gives the same first error).
Result<std::vector<std::string>> list_folder(int fd, const std::string& shown) {
  UniqueFd own(::dup(fd));
  if (!own.valid()) {
    return fail(ErrorCode::io_error, "cannot read folder " + shown + ": " + errno_text(errno));
  }
  DIR* dir = ::fdopendir(own.get());
  if (dir == nullptr) {
    return fail(ErrorCode::io_error, "cannot read folder " + shown + ": " + errno_text(errno));
  }
  own.release();
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") {
      names.emplace_back(name);
    }
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) {
    return fail(ErrorCode::io_error, "cannot read folder " + shown + ": " + errno_text(err));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<void> copy_file(int parent, const std::string& name, const std::string& rel, BundleWriter& writer) {
  // O_NONBLOCK: a fifo swapped in since fstatat must not block the open.
  UniqueFd in(::openat(parent, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!in.valid() || ::fstat(in.get(), &st) != 0) {
    return fail(ErrorCode::io_error, entry_prefix(rel) + "cannot read: " + errno_text(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::refused, entry_prefix(rel) + "changed while it was copied");
  }
  auto written = writer.add_file_from_fd(rel, in.get(), st, "cannot read");
  if (!written) {
    return tl::unexpected(written.error());
  }
  return {};
}

// Opens source/subdir one segment at a time with O_NOFOLLOW.
Result<UniqueFd> open_start(const std::filesystem::path& source, std::string_view subdir) {
  // The top folder is the user's own choice: a symlink to it is fine.
  UniqueFd current(::open(source.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!current.valid()) {
    const int err = errno;
    if (err == ENOENT) {
      return fail(ErrorCode::not_found, "no such folder: " + source.string());
    }
    if (err == ENOTDIR) {
      return fail(ErrorCode::invalid_argument, source.string() + " is not a folder");
    }
    return fail(ErrorCode::io_error, "cannot open " + source.string() + ": " + errno_text(err));
  }
  std::size_t start = 0;
  while (start < subdir.size()) {
    std::size_t end = subdir.find('/', start);
    if (end == std::string_view::npos) {
      end = subdir.size();
    }
    const std::string segment(subdir.substr(start, end - start));
    start = end + 1;
    UniqueFd next = open_folder_at(current.get(), segment.c_str());
    if (!next.valid()) {
      int err = errno;
      // O_DIRECTORY | O_NOFOLLOW on a symlink says ENOTDIR: tell them apart.
      struct stat st {};
      if (err == ENOTDIR && ::fstatat(current.get(), segment.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        err = ELOOP;
      }
      const std::string shown = "//subdir \"" + std::string(subdir) + "\"";
      if (err == ENOENT) {
        return fail(ErrorCode::not_found, shown + " does not exist in " + source.string());
      }
      if (err == ELOOP) {
        return fail(ErrorCode::refused, shown + " goes through a symlink in " + source.string());
      }
      if (err == ENOTDIR) {
        return fail(ErrorCode::invalid_argument, shown + " is not a folder in " + source.string());
      }
      return fail(ErrorCode::io_error, "cannot open " + shown + " in " + source.string() + ": " + errno_text(err));
    }
    current = std::move(next);
  }
  return current;
}

// Opens the folder `rel` below `top` one segment at a time with O_NOFOLLOW
// (children are reopened, not kept open: a wide tree must not run out of
// descriptors).
Result<UniqueFd> open_below(int top, const std::string& rel) {
  UniqueFd current(::dup(top));
  int err = errno;
  std::size_t start = 0;
  while (current.valid() && start < rel.size()) {
    std::size_t end = rel.find('/', start);
    if (end == std::string::npos) {
      end = rel.size();
    }
    const std::string segment = rel.substr(start, end - start);
    start = end + 1;
    UniqueFd next = open_folder_at(current.get(), segment.c_str());
    err = errno;
    current = std::move(next);
  }
  if (!current.valid()) {
    if (err == ELOOP || err == ENOTDIR) {
      return fail(ErrorCode::refused, entry_prefix(rel) + "changed while it was copied");
    }
    return fail(ErrorCode::io_error, entry_prefix(rel) + "cannot open: " + errno_text(err));
  }
  return current;
}

} // namespace

Result<void> copy_folder(const std::filesystem::path& source, std::string_view subdir, BundleWriter& writer,
                         const std::filesystem::path& skip) {
  auto top = open_start(source, subdir);
  if (!top) {
    return tl::unexpected(top.error());
  }
  struct stat skipped {};
  const bool has_skip = !skip.empty() && ::stat(skip.c_str(), &skipped) == 0;
  std::vector<std::string> stack{""}; // folders still to copy, relative to the top ("" = the top)
  while (!stack.empty()) {
    const std::string folder_rel = std::move(stack.back());
    stack.pop_back();
    auto folder = open_below(top->get(), folder_rel);
    if (!folder) {
      return tl::unexpected(folder.error());
    }
    auto names = list_folder(folder->get(), folder_rel.empty() ? source.string() : folder_rel);
    if (!names) {
      return tl::unexpected(names.error());
    }
    std::vector<std::string> children;
    for (const std::string& name : *names) {
      // A git work tree is copied as it is, without its repository.
      if (name == ".git") {
        continue;
      }
      const std::string rel = join(folder_rel, name);
      struct stat st {};
      if (::fstatat(folder->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return fail(ErrorCode::io_error, entry_prefix(rel) + "cannot stat: " + errno_text(errno));
      }
      // Runtime caches are never copied (the writer would drop them anyway):
      // not walking them spares the work and whatever links they hold.
      if (core::files::is_runtime_cache(name, S_ISDIR(st.st_mode))) {
        continue;
      }
      if (S_ISLNK(st.st_mode)) {
        return fail(ErrorCode::refused, "skill bundles may not contain symlinks: " + rel);
      }
      if (S_ISDIR(st.st_mode)) {
        if (has_skip && st.st_dev == skipped.st_dev && st.st_ino == skipped.st_ino) {
          continue;
        }
        if (auto made = writer.add_directory(rel); !made) {
          return tl::unexpected(made.error());
        }
        children.push_back(rel);
        continue;
      }
      if (S_ISREG(st.st_mode)) {
        if (auto copied = copy_file(folder->get(), name, rel, writer); !copied) {
          return copied;
        }
        continue;
      }
      return fail(ErrorCode::refused,
                  entry_prefix(rel) + "devices, fifos and sockets are not allowed (" + special_kind(st.st_mode) + ")");
    }
    // Depth-first in name order: push in reverse so the first name is next.
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  return {};
}

} // namespace skillrt::sources
