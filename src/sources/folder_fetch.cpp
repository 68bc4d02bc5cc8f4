// Local folder copy (see folder_fetch.hpp).
#include "sources/folder_fetch.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

#include "core/files/tree_walk.hpp"
#include "core/util/text.hpp"
#include "sources/bundle_path.hpp"

namespace skillrt::sources {

namespace {

using core::errno_text;

// Opens `name` below `parent` as a folder without following a symlink.
UniqueFd open_folder_at(int parent, const char* name) {
  return UniqueFd(::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
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

} // namespace

Result<void> copy_folder(const std::filesystem::path& source, std::string_view subdir, BundleWriter& writer,
                         const std::filesystem::path& skip) {
  auto top = open_start(source, subdir);
  if (!top) {
    return tl::unexpected(top.error());
  }
  struct stat skipped {};
  const bool has_skip = !skip.empty() && ::stat(skip.c_str(), &skipped) == 0;
  // The layer's walk: links refused, runtime caches never copied (the writer
  // would drop them anyway; not walking them spares the work and whatever
  // links they hold). The limits are the writer's, checked as it writes.
  core::files::WalkOptions options;
  options.limits = core::files::TreeLimits::unlimited();
  options.links = core::files::LinkPolicy::refuse;
  // Refused below with the wording every fetcher uses (archives too).
  options.specials = core::files::SpecialPolicy::record;
  options.leave_out = [&](const core::files::WalkEntry& entry) {
    // A git work tree is copied as it is, without its repository.
    return entry.name == ".git" || (has_skip && entry.kind == core::files::EntryKind::folder &&
                                    entry.st->st_dev == skipped.st_dev && entry.st->st_ino == skipped.st_ino);
  };
  const core::files::WalkVisitor copy = [&writer](const core::files::WalkEntry& entry) -> Result<void> {
    const std::string rel(entry.path);
    switch (entry.kind) {
    case core::files::EntryKind::folder:
      if (auto made = writer.add_directory(rel); !made) {
        return tl::unexpected(made.error());
      }
      return {};
    case core::files::EntryKind::file:
      return copy_file(entry.parent_fd, std::string(entry.name), rel, writer);
    case core::files::EntryKind::link: // refused by the walk's policy
    case core::files::EntryKind::special:
      break;
    }
    const char* kind = core::files::special_kind_name(entry.st->st_mode);
    return fail(ErrorCode::refused, entry_prefix(rel) + "devices, fifos and sockets are not allowed (" +
                                        (kind != nullptr ? kind : "special file") + ")");
  };
  if (auto walked = core::files::walk_tree_at(top->get(), options, copy); !walked) {
    return tl::unexpected(walked.error());
  }
  return {};
}

} // namespace skillrt::sources
