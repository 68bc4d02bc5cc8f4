// Copying a bundled skill folder (see copy_tree.hpp), over the filesystem
// layer's one walker: its limits and runtime-cache rule, links recorded (and
// copied as links), specials refused.
#include "core/sync/copy_tree.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/files/content_manifest.hpp"
#include "core/files/tree_walk.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

// Copies the regular file `entry` of `from` to `target` (created, never
// replacing anything) with its permission bits.
Result<void> copy_file(const fs::path& from, const files::TreeEntry& entry, const fs::path& target) {
  auto in = files::open_tree_file(from, entry);
  if (!in) {
    return tl::unexpected(in.error());
  }
  files::UniqueFd out(::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                             entry.st.st_mode & 07777));
  if (!out || ::fchmod(out.get(), entry.st.st_mode & 07777) != 0) {
    return fail(ErrorCode::io_error, "cannot create " + target.string() + ": " + errno_text(errno));
  }
  int write_error = 0;
  const auto write_all = [&](std::string_view bytes) {
    while (!bytes.empty() && write_error == 0) {
      const ssize_t n = ::write(out.get(), bytes.data(), bytes.size());
      if (n < 0 && errno != EINTR) {
        write_error = errno;
      } else if (n > 0) {
        bytes.remove_prefix(static_cast<std::size_t>(n));
      }
    }
  };
  const std::string shown = (from / entry.path).string();
  if (auto read = files::read_file_exactly(in->get(), static_cast<std::uint64_t>(entry.st.st_size), shown, write_all);
      !read) {
    return read;
  }
  if (write_error != 0 || out.close() != 0) {
    return fail(ErrorCode::io_error, "cannot copy " + shown + " to " + target.string() + ": " +
                                         errno_text(write_error != 0 ? write_error : errno));
  }
  return {};
}

Result<void> copy_entries(const fs::path& from, const fs::path& to) {
  files::WalkOptions options;
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::refuse;
  auto tree = files::list_tree(from, options);
  if (!tree) {
    return tl::unexpected(tree.error());
  }
  std::error_code ec;
  if (!fs::create_directory(to, from, ec) || ec) {
    return fail(ErrorCode::io_error, "cannot create " + to.string() + ": " + (ec ? ec.message() : "it exists"));
  }
  // Sorted by path: a folder comes before everything inside it.
  for (const files::TreeEntry& entry : tree->entries) {
    const fs::path source = from / entry.path;
    const fs::path target = to / entry.path;
    switch (entry.kind) {
    case files::EntryKind::folder:
      fs::create_directory(target, source, ec);
      if (ec) {
        return fail(ErrorCode::io_error, "cannot create " + target.string() + ": " + ec.message());
      }
      break;
    case files::EntryKind::file:
      if (auto copied = copy_file(from, entry, target); !copied) {
        return copied;
      }
      break;
    case files::EntryKind::link:
      fs::create_symlink(entry.link_target, target, ec);
      if (ec) {
        return fail(ErrorCode::io_error, "cannot copy the symlink " + source.string() + ": " + ec.message());
      }
      break;
    case files::EntryKind::special:
      break; // refused by the walk
    }
  }
  return {};
}

} // namespace

Result<void> copy_skill_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(to, ec))) {
    return fail(ErrorCode::io_error, "cannot copy into " + to.string() + ": it already exists");
  }
  auto copied = copy_entries(from, to);
  if (!copied) {
    fs::remove_all(to, ec); // our own partial copy, never a user's folder (`to` did not exist)
  }
  return copied;
}

} // namespace skillrt::core::sync
