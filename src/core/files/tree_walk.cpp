// The walker of skill trees (see tree_walk.hpp).
#include "core/files/tree_walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "core/files/runtime_cache.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;

bool has_control_character(std::string_view name) {
  return std::any_of(name.begin(), name.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

const char* special_name(mode_t mode) {
  const char* name = special_kind_name(mode);
  return name != nullptr ? name : "special file";
}

EntryKind kind_of(mode_t mode) {
  if (S_ISREG(mode)) {
    return EntryKind::file;
  }
  if (S_ISDIR(mode)) {
    return EntryKind::folder;
  }
  if (S_ISLNK(mode)) {
    return EntryKind::link;
  }
  return EntryKind::special;
}

class Walker {
public:
  Walker(const WalkOptions& options, const WalkVisitor& visit) : m_options(options), m_visit(visit) {}

  // Walks the folder open as `dir_fd`; `prefix` is its path ("" for the root,
  // else ending in '/'), `depth` its segments.
  Result<void> walk_folder(int dir_fd, const std::string& prefix, std::size_t depth) {
    auto names = read_names(dir_fd, prefix);
    if (!names) {
      return problem(WalkProblem::Kind::unreadable, prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1),
                     names.error().message, ErrorCode::io_error);
    }
    for (const std::string& name : *names) {
      if (m_report.stopped) {
        break;
      }
      if (auto ok = walk_entry(dir_fd, prefix, name, depth + 1); !ok) {
        return ok;
      }
    }
    // Reported problems: a folder cut short (its names past the limit were
    // never read) ends the walk once what was read is walked, even when
    // leave_out kept the count under the limit.
    if (m_names_cut && !m_report.stopped) {
      return entry_limit();
    }
    return {};
  }

  WalkReport take_report() { return std::move(m_report); }

private:
  // The folder's names, sorted (which problem comes first does not depend on
  // the file system's order). Reading stops past the entry limit: a folder
  // that alone holds more names than a tree may is a limit problem (which
  // names were read then depends on the file system's order).
  Result<std::vector<std::string>> read_names(int dir_fd, const std::string& prefix) {
    const std::string shown = prefix.empty() ? "." : prefix;
    // fdopendir takes ownership of the descriptor it is given: hand it a copy.
    UniqueFd stream_fd(::dup(dir_fd));
    DIR* stream = stream_fd ? ::fdopendir(stream_fd.get()) : nullptr;
    if (stream == nullptr) {
      return fail(ErrorCode::io_error, "cannot read folder " + shown + ": " + errno_text(errno));
    }
    stream_fd.release();
    std::vector<std::string> names;
    int err = 0;
    for (;;) {
      errno = 0;
      const dirent* entry = ::readdir(stream);
      if (entry == nullptr) {
        err = errno;
        break;
      }
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") {
        continue;
      }
      if (names.size() > m_options.limits.max_entries) {
        m_names_cut = true;
        break;
      }
      names.emplace_back(name);
    }
    ::closedir(stream);
    if (err != 0) {
      return fail(ErrorCode::io_error, "cannot read folder " + shown + ": " + errno_text(err));
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<void> problem(WalkProblem::Kind kind, std::string path, std::string message, ErrorCode code) {
    if (m_options.problems == ProblemPolicy::fail) {
      return fail(code, std::move(message));
    }
    m_report.problems.push_back(WalkProblem{kind, std::move(path), std::move(message)});
    return {};
  }

  Result<void> entry_limit() {
    m_report.stopped = true;
    return problem(WalkProblem::Kind::limit, "",
                   "the tree has more than " + std::to_string(m_options.limits.max_entries) +
                       " files and folders (k_max_bundle_entries)",
                   ErrorCode::limit_exceeded);
  }

  Result<void> walk_entry(int dir_fd, const std::string& prefix, const std::string& name, std::size_t depth) {
    const std::string path = prefix + name;
    if (m_options.refuse_control_names && has_control_character(name)) {
      return problem(WalkProblem::Kind::refused, path,
                     "skill bundles may not contain file names with control characters (newline, tab, ...): \"" +
                         path + "\"",
                     ErrorCode::refused);
    }
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return problem(WalkProblem::Kind::unreadable, path, "cannot stat " + path + ": " + errno_text(errno),
                     ErrorCode::io_error);
    }
    const WalkEntry entry{path, name, dir_fd, kind_of(st.st_mode), &st, depth};
    // Not content, whatever it holds (a link in a cache is still a cache).
    if (m_options.skip_runtime_caches && is_runtime_cache(name, entry.kind == EntryKind::folder)) {
      return {};
    }
    if (m_options.leave_out && m_options.leave_out(entry)) {
      return {};
    }
    if (entry.kind == EntryKind::link && m_options.links != LinkPolicy::record) {
      if (m_options.links == LinkPolicy::skip) {
        return problem(WalkProblem::Kind::link_skipped, path, path + " is a symlink: not followed",
                       ErrorCode::refused);
      }
      return problem(WalkProblem::Kind::refused, path, "skill bundles may not contain symlinks: " + path,
                     ErrorCode::refused);
    }
    if (entry.kind == EntryKind::special && m_options.specials == SpecialPolicy::refuse) {
      return problem(WalkProblem::Kind::refused, path,
                     "skill folders may not contain fifos, sockets or devices: " + path + " is a " +
                         special_name(st.st_mode),
                     ErrorCode::refused);
    }
    // Failing, a folder cut short fails at once: the tree is over the limit
    // whatever comes next. Reported, its entries are walked up to the limit,
    // as in any tree (a listing offers the first ones).
    const bool cut_fails = m_names_cut && m_options.problems == ProblemPolicy::fail;
    if (++m_report.entries > m_options.limits.max_entries || cut_fails) {
      return entry_limit();
    }
    const TreeLimits& limits = m_options.limits;
    if (path.size() > limits.max_path_bytes) {
      return problem(WalkProblem::Kind::limit, path,
                     "path longer than " + std::to_string(limits.max_path_bytes) +
                         " bytes (k_max_bundle_path_bytes): " + path.substr(0, 120) + "...",
                     ErrorCode::limit_exceeded);
    }
    if (depth > limits.max_depth) {
      return problem(WalkProblem::Kind::limit, path,
                     "path deeper than " + std::to_string(limits.max_depth) + " folders (k_max_bundle_depth): " +
                         path,
                     ErrorCode::limit_exceeded);
    }
    if (entry.kind == EntryKind::file) {
      const auto size = static_cast<std::uint64_t>(st.st_size);
      if (size > limits.max_file_bytes) {
        return problem(WalkProblem::Kind::limit, path,
                       path + " is larger than " + std::to_string(limits.max_file_bytes) +
                           " bytes (k_max_bundle_file_bytes)",
                       ErrorCode::limit_exceeded);
      }
      if (m_report.bytes + size > limits.max_bytes) {
        return problem(WalkProblem::Kind::limit, path,
                       "the tree holds more than " + std::to_string(limits.max_bytes) +
                           " bytes in all (k_max_bundle_bytes); reached at " + path,
                       ErrorCode::limit_exceeded);
      }
      m_report.bytes += size;
    }
    if (auto visited = m_visit(entry); !visited) {
      return visited;
    }
    if (entry.kind != EntryKind::folder || (m_options.enter && !m_options.enter(entry))) {
      return {};
    }
    const UniqueFd child(::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!child) {
      return problem(WalkProblem::Kind::unreadable, path, "cannot open folder " + path + ": " + errno_text(errno),
                     ErrorCode::io_error);
    }
    return walk_folder(child.get(), path + "/", depth);
  }

  const WalkOptions& m_options;
  const WalkVisitor& m_visit;
  WalkReport m_report;
  bool m_names_cut = false;
};

} // namespace

const char* special_kind_name(mode_t mode) {
  if (S_ISFIFO(mode)) {
    return "fifo";
  }
  if (S_ISCHR(mode)) {
    return "character device";
  }
  if (S_ISBLK(mode)) {
    return "block device";
  }
  if (S_ISSOCK(mode)) {
    return "socket";
  }
  return nullptr;
}

Result<WalkReport> walk_tree(const fs::path& root, const WalkOptions& options, const WalkVisitor& visit) {
  // The root is the caller's choice and may be a link to a folder; everything
  // below it is walked without following links.
  const UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd) {
    const int err = errno;
    if (err == ENOENT) {
      return fail(ErrorCode::not_found, "the folder " + root.string() + " does not exist");
    }
    if (err == ENOTDIR) {
      return fail(ErrorCode::invalid_argument, root.string() + " is not a folder");
    }
    return fail(ErrorCode::io_error, "cannot open the folder " + root.string() + ": " + errno_text(err));
  }
  return walk_tree_at(root_fd.get(), options, visit);
}

Result<WalkReport> walk_tree_at(int root_fd, const WalkOptions& options, const WalkVisitor& visit) {
  Walker walker(options, visit);
  if (auto walked = walker.walk_folder(root_fd, "", 0); !walked) {
    return tl::unexpected(walked.error());
  }
  return walker.take_report();
}

Result<Tree> list_tree(const fs::path& root, const WalkOptions& options) {
  Tree tree;
  const WalkVisitor collect = [&tree](const WalkEntry& entry) -> Result<void> {
    TreeEntry out{std::string(entry.path), entry.kind, *entry.st, {}};
    if (entry.kind == EntryKind::link) {
      std::string target(static_cast<std::size_t>(entry.st->st_size > 0 ? entry.st->st_size : 0) + 1, '\0');
      for (;;) {
        const ssize_t n = ::readlinkat(entry.parent_fd, std::string(entry.name).c_str(), target.data(), target.size());
        if (n < 0) {
          return fail(ErrorCode::io_error, "cannot read the symlink " + out.path + ": " + errno_text(errno));
        }
        if (static_cast<std::size_t>(n) < target.size()) {
          target.resize(static_cast<std::size_t>(n));
          break;
        }
        target.resize(target.size() * 2); // the link changed since lstat: read again with room
      }
      out.link_target = std::move(target);
    }
    tree.entries.push_back(std::move(out));
    return {};
  };
  auto report = walk_tree(root, options, collect);
  if (!report) {
    return tl::unexpected(report.error());
  }
  tree.report = std::move(*report);
  // std::string compares through char_traits<char>, which orders bytes as
  // unsigned char: exactly "sorted by path bytes".
  std::sort(tree.entries.begin(), tree.entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.path < b.path; });
  return tree;
}

Result<UniqueFd> open_tree_file(const fs::path& root, const TreeEntry& entry) {
  const fs::path path = root / entry.path;
  // O_NONBLOCK: should the file have become a fifo since the walk, opening it
  // must not wait for a writer; the identity check below then refuses it.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    return fail(ErrorCode::io_error, "cannot open " + path.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return fail(ErrorCode::io_error, "cannot stat " + path.string() + ": " + errno_text(errno));
  }
  if (!S_ISREG(st.st_mode) || st.st_dev != entry.st.st_dev || st.st_ino != entry.st.st_ino) {
    return fail(ErrorCode::io_error, path.string() + " changed while it was being read");
  }
  return fd;
}

} // namespace skillrt::core::files
