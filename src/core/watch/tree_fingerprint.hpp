// A stat sweep's view of a skill tree (issue 4/6): one 64-bit fingerprint of
// every entry's name, inode, size, mode, mtime and ctime below some roots.
// Replicas on a shared volume (NFS, CephFS, EFS) do not get inotify events
// for writes another machine made, so each sweeps the trees every few seconds
// and compares. The fingerprint is the same on every machine that sees the
// same files (no absolute paths, no machine-local order), so the change log
// can keep one row per observation (ChangeLog::append's dedupe key); ctime
// rises on every change, so a file put back as it was still counts as new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace skillrt::core {

struct TreeFingerprint {
  std::uint64_t value = 0;
  std::size_t entries = 0;  // entries hashed, across all roots
  bool truncated = false;   // `max_entries` ended the sweep early: later entries are not covered
};

// Hashes every entry below each of `roots` (missing roots count as empty).
// Hidden names (".hub", ".git", editors' swap files, the usage book) and
// runtime caches are left out; links are hashed as links, never followed.
TreeFingerprint fingerprint_trees(const std::vector<std::filesystem::path>& roots, std::size_t max_entries);

}  // namespace skillrt::core
