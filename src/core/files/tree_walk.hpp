// The one walker of skill trees (everything but discovery, which keeps its
// own tuned walker of whole roots). It goes through directory descriptors
// (openat, O_NOFOLLOW): a link below the root is never followed, and a folder
// swapped for a link mid-walk fails to open instead of leading out. Every
// entry is checked against one set of tree limits, and what a link or a
// special file means is the caller's explicit policy.
//
// Order: depth first, each folder's names sorted by bytes, a folder visited
// before its contents. Runtime caches (runtime_cache.hpp) are left out unless
// the caller asks for them; they are never counted and never entered.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/files/tree_limits.hpp"
#include "core/files/unique_fd.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::files {

enum class EntryKind : unsigned char { file, folder, link, special };

// A symlink below the root (the root itself is the caller's choice and may be one).
enum class LinkPolicy : unsigned char {
  refuse, // a problem "skill bundles may not contain symlinks: <path>" (refused): bundles and their manifest
  record, // an entry of kind link, never followed (bundled sync hashes and copies the link itself)
  skip,   // left out, and reported as a problem of kind link_skipped
};

// A fifo, socket or device below the root.
enum class SpecialPolicy : unsigned char {
  refuse, // a problem "...: <path> is a fifo" (refused); never opened
  record, // an entry of kind special; never opened
};

// What a problem (an unreadable entry, a refused link, a limit) does.
enum class ProblemPolicy : unsigned char {
  fail,   // the walk stops and returns it as its error
  report, // the walk goes on without the entry and lists it (the entry limit stops the walk)
};

// One entry, as the visitor sees it.
struct WalkEntry {
  std::string_view path; // relative to the root, '/' separators
  std::string_view name; // the last segment
  int parent_fd = -1;    // the folder holding it, open: openat(parent_fd, name) reaches it
  EntryKind kind = EntryKind::file;
  const struct stat* st = nullptr; // lstat of the entry (never followed)
  std::size_t depth = 0;           // segments of `path` (1 for the root's own entries)
};

struct WalkProblem {
  enum class Kind : unsigned char { unreadable, refused, limit, link_skipped };
  Kind kind = Kind::unreadable;
  std::string path; // "" for the tree as a whole
  std::string message;
};

struct WalkOptions {
  TreeLimits limits;
  LinkPolicy links = LinkPolicy::refuse;
  SpecialPolicy specials = SpecialPolicy::refuse;
  ProblemPolicy problems = ProblemPolicy::fail;
  bool skip_runtime_caches = true;
  // A name with a control character (a newline could forge a manifest line) is a refused problem.
  bool refuse_control_names = false;
  // Entries the caller leaves out before anything is checked or counted
  // (a folder is then not entered); empty: none.
  std::function<bool(const WalkEntry&)> leave_out;
  // Folders the walk visits (and counts) but does not go into, asked after
  // the folder's visit; empty: every folder is entered. Unlike leave_out the
  // folder itself is still seen (a skill's folder found in a bundle, a
  // listing's depth cut that must not report the deeper entries).
  std::function<bool(const WalkEntry&)> enter;
};

struct WalkReport {
  std::vector<WalkProblem> problems; // ProblemPolicy::report only
  bool stopped = false;              // the entry limit ended the walk early
  std::size_t entries = 0;           // counted entries
  std::uint64_t bytes = 0;           // regular files' sizes (lstat), in all
};

// Called for every entry that passed the checks; an error ends the walk. A
// folder's visit comes before its contents.
using WalkVisitor = std::function<Result<void>(const WalkEntry&)>;

// Walks below `root` (a folder, opened following a link). Errors: not_found
// (no `root`), invalid_argument (not a folder), and with ProblemPolicy::fail
// the first problem: refused (links, specials, control names), limit_exceeded
// (naming the limits.hpp constant), io_error (unreadable), or the visitor's.
Result<WalkReport> walk_tree(const std::filesystem::path& root, const WalkOptions& options,
                             const WalkVisitor& visit);

// The same below the folder open as `root_fd` (not closed; the caller opened
// it its own way, e.g. segment by segment without following links).
Result<WalkReport> walk_tree_at(int root_fd, const WalkOptions& options, const WalkVisitor& visit);

// One collected entry of list_tree.
struct TreeEntry {
  std::string path; // relative, '/' separators
  EntryKind kind = EntryKind::file;
  struct stat st {};
  std::string link_target; // kind link: the link's text, as read (never followed)
};

struct Tree {
  std::vector<TreeEntry> entries; // sorted by path bytes (not walk order)
  WalkReport report;
};

// walk_tree collecting every entry, folders included.
Result<Tree> list_tree(const std::filesystem::path& root, const WalkOptions& options);

// Opens the regular file `entry` of a tree listed below `root` for reading,
// without following a link at its last segment and without blocking on a
// fifo, and checks it is still the file the walk saw (device and inode):
// anything else is an io_error "changed while it was being read".
Result<UniqueFd> open_tree_file(const std::filesystem::path& root, const TreeEntry& entry);

// "fifo", "socket", "character device" or "block device" for such a mode (an
// lstat st_mode, or an archive entry's type: libarchive's AE_IF* are the same
// bits); nullptr for anything else.
const char* special_kind_name(mode_t mode);

} // namespace skillrt::core::files
