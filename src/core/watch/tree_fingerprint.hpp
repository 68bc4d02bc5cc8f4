// A stat sweep's view of a skill tree (issue 4/6): one 64-bit fingerprint of
// every entry's name, type and inode below some roots, and of the size,
// mtime and ctime of every folder and SKILL.md (tree_fingerprint.cpp says why
// not of every file). Replicas on a shared volume (NFS, CephFS, EFS) do not
// get inotify events for writes another machine made, so each sweeps the
// trees every few seconds and compares. The fingerprint is the same on every
// machine that sees the same files (no absolute paths, no machine-local
// order), so the change log can keep one row per observed change
// (ChangeLog::append's dedupe key); ctime rises on every change, so a file
// put back as it was still counts as new.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace skillrt::core {

struct TreeFingerprint {
  std::uint64_t value = 0;
  std::size_t entries = 0;  // entries hashed, across all roots
  bool truncated = false;   // `max_entries` ended the sweep early: later entries are not covered
};

// Sweeps the same roots again and again, cheaply: it remembers each folder's
// listing and reads a folder again only when the folder's own stat changed
// (adding, removing or renaming an entry moves its mtime), so a sweep of an
// unchanged tree costs one stat per folder and per SKILL.md. Hidden names
// (".hub", ".git", editors' swap files, the usage book) and runtime caches are
// left out; links are hashed as links, never followed. Not thread-safe.
class TreeSweeper {
 public:
  // Missing roots count as empty.
  TreeFingerprint fingerprint(const std::vector<std::filesystem::path>& roots, std::size_t max_entries);

 private:
  struct Child {
    std::string name;
    unsigned char type = 0;  // DT_*
    ino_t inode = 0;
  };
  struct Listing {
    dev_t device = 0;
    ino_t inode = 0;
    timespec mtime{};
    timespec ctime{};
    std::vector<Child> children;
    std::uint64_t sweep = 0;  // the sweep that last saw it (older ones are dropped)
  };
  friend class SweepWalk;
  std::unordered_map<std::uint64_t, Listing> m_listings;  // by the folder's path hash
  std::uint64_t m_sweeps = 0;
};

// One sweep with nothing remembered (tests, one-off checks).
TreeFingerprint fingerprint_trees(const std::vector<std::filesystem::path>& roots, std::size_t max_entries);

}  // namespace skillrt::core
