#include "core/watch/tree_fingerprint.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

#include "core/files/runtime_cache.hpp"
#include "core/files/unique_fd.hpp"

namespace skillrt::core {
namespace {

// FNV-1a, 64 bit: stable across machines and builds (std::hash promises neither).
constexpr std::uint64_t k_fnv_offset = 14695981039346656037ull;
constexpr std::uint64_t k_fnv_prime = 1099511628211ull;
// Deeper than any skill tree the limits allow; a guard against loops of bind mounts.
constexpr std::size_t k_max_depth = 64;

std::uint64_t mix(std::uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    hash = (hash ^ bytes[i]) * k_fnv_prime;
  }
  return hash;
}

template <typename Number>
std::uint64_t mix_number(std::uint64_t hash, Number value) {
  const auto wide = static_cast<std::uint64_t>(value);
  return mix(hash, &wide, sizeof wide);
}

std::uint64_t entry_hash(std::uint64_t path_hash, const struct stat& st) {
  std::uint64_t hash = mix_number(path_hash, st.st_ino);
  hash = mix_number(hash, st.st_size);
  hash = mix_number(hash, st.st_mode);
  hash = mix_number(hash, st.st_mtim.tv_sec);
  hash = mix_number(hash, st.st_mtim.tv_nsec);
  hash = mix_number(hash, st.st_ctim.tv_sec);
  hash = mix_number(hash, st.st_ctim.tv_nsec);
  return hash;
}

bool same_time(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

}  // namespace

// The walk of one sweep. Only folders and SKILL.md files are stat'ed (a stat
// is most of what is left once listings are remembered: about 4 µs each on
// the VM disks we measured): a folder's mtime moves whenever an entry in it is
// added, removed or renamed — the atomic writes of skillrt, editors and git —
// and SKILL.md is what a catalog reads. Any other file counts by its name,
// type and inode, so replacing it is seen; an in-place rewrite of a support
// file is not (the writing machine's inotify still reports it). Folders are
// held open with O_PATH (no read access needed) and read only when changed.
class SweepWalk {
 public:
  SweepWalk(TreeSweeper& owner, std::size_t max_entries, TreeFingerprint& out)
      : m_owner(owner), m_max(max_entries), m_out(out) {}

  // `fd`: the folder, open (O_PATH is enough), taken over; `st`: its stat.
  void folder(files::UniqueFd fd, std::uint64_t path_hash, const struct stat& st, std::size_t depth) {
    TreeSweeper::Listing& listing = m_owner.m_listings[path_hash];
    const bool unchanged = listing.sweep != 0 && listing.device == st.st_dev && listing.inode == st.st_ino &&
                           same_time(listing.mtime, st.st_mtim) && same_time(listing.ctime, st.st_ctim);
    if (!unchanged && !read(fd.get(), listing)) {
      listing.sweep = 0;  // unreadable: counts as what its own stat says, read again next time
      return;
    }
    listing.device = st.st_dev;
    listing.inode = st.st_ino;
    listing.mtime = st.st_mtim;
    listing.ctime = st.st_ctim;
    listing.sweep = m_owner.m_sweeps;
    // `listing` may move when the map grows below: walk a copy of the names.
    const std::vector<TreeSweeper::Child> children = listing.children;
    for (const TreeSweeper::Child& child : children) {
      struct stat child_st {};
      const bool needs_stat = child.type == DT_DIR || child.type == DT_UNKNOWN ||
                              (child.type == DT_REG && child.name == "SKILL.md");
      if (needs_stat) {
        if (::fstatat(fd.get(), child.name.c_str(), &child_st, AT_SYMLINK_NOFOLLOW) != 0) {
          continue;  // gone since it was listed
        }
      } else {
        child_st.st_ino = child.inode;
        child_st.st_mode = static_cast<mode_t>(child.type) << 12;  // DT_* are the S_IF* bits shifted
      }
      if (m_out.entries >= m_max) {
        m_out.truncated = true;
        return;
      }
      const std::uint64_t own = mix(mix(path_hash, "/", 1), child.name.data(), child.name.size());
      m_sum += entry_hash(own, child_st);
      ++m_out.entries;
      if (S_ISDIR(child_st.st_mode) && depth < k_max_depth) {
        files::UniqueFd sub(
            ::openat(fd.get(), child.name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (sub) {
          folder(std::move(sub), own, child_st, depth + 1);
        }
      }
      if (m_out.truncated) {
        return;
      }
    }
  }

  std::uint64_t sum() const { return m_sum; }

 private:
  // Lists the folder open as `fd` into `listing`; false when it cannot be read.
  static bool read(int fd, TreeSweeper::Listing& listing) {
    const int readable = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (readable < 0) {
      return false;
    }
    DIR* dir = ::fdopendir(readable);
    if (dir == nullptr) {
      ::close(readable);
      return false;
    }
    listing.children.clear();
    while (const dirent* entry = ::readdir(dir)) {
      const std::string_view name(entry->d_name);
      // Hidden names (".", "..", ".hub", the usage book, swap files) and
      // runtime caches never change what a skill says.
      if (name.empty() || name.starts_with('.') || files::is_runtime_cache(name, entry->d_type == DT_DIR)) {
        continue;
      }
      listing.children.push_back({std::string(name), entry->d_type, entry->d_ino});
    }
    ::closedir(dir);
    return true;
  }

  TreeSweeper& m_owner;
  std::size_t m_max;
  TreeFingerprint& m_out;
  std::uint64_t m_sum = 0;  // entries combine by addition: the order readdir lists them in does not matter
};

TreeFingerprint TreeSweeper::fingerprint(const std::vector<std::filesystem::path>& roots, std::size_t max_entries) {
  ++m_sweeps;
  TreeFingerprint out;
  SweepWalk walk(*this, max_entries, out);
  std::uint64_t absent = 0;
  for (std::size_t index = 0; index < roots.size() && !out.truncated; ++index) {
    // The root itself may be a link (an external skills dir); below it nothing is followed.
    files::UniqueFd fd(::open(roots[index].c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    struct stat st {};
    if (!fd || ::fstat(fd.get(), &st) != 0) {
      absent += mix_number(k_fnv_offset, index + 1);  // a missing root: only its absence counts
      continue;
    }
    walk.folder(std::move(fd), mix_number(k_fnv_offset, index), st, 1);
  }
  // Folders not seen this time are gone (or were cut by the cap): forget them.
  std::erase_if(m_listings, [&](const auto& entry) { return entry.second.sweep != m_sweeps; });
  // The count goes in last so that entries whose hashes cancel are still seen.
  out.value = mix_number(walk.sum() + absent, out.entries);
  return out;
}

TreeFingerprint fingerprint_trees(const std::vector<std::filesystem::path>& roots, std::size_t max_entries) {
  TreeSweeper sweeper;
  return sweeper.fingerprint(roots, max_entries);
}

}  // namespace skillrt::core
