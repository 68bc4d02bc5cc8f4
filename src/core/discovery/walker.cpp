#include "core/discovery/walker.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/discovery/walk_text.hpp"
#include "core/files/unique_fd.hpp"
#include "core/limits.hpp"
#include "core/files/containment.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

constexpr std::string_view k_skill_file = "SKILL.md";
constexpr std::string_view k_org_dir = "_org";
constexpr std::string_view k_active_org_marker = ".active_org";
// An org id is a short token; a bigger marker file is not a marker.
constexpr std::size_t k_max_active_org_bytes = 256;

constexpr std::array<std::string_view, 14> k_excluded_dirs = {
    ".git", ".github", ".hub", ".archive", ".venv", "venv", "node_modules", "site-packages",
    "__pycache__", ".tox", ".nox", ".pytest_cache", ".mypy_cache", ".ruff_cache"};

constexpr std::array<std::string_view, 4> k_support_dirs = {"references", "templates", "assets", "scripts"};

struct DirId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const DirId&) const = default;
};

// Open-addressing set of directory identities: one flat allocation that only
// grows, instead of a heap node per visited directory.
class DirIdSet {
 public:
  DirIdSet() : m_slots(1024), m_used(1024, 0) {}

  // Inserts id; false when it was already present.
  bool insert(DirId id) {
    if ((m_count + 1) * 2 > m_slots.size()) {
      grow();
    }
    std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash(id) & mask;; i = (i + 1) & mask) {
      if (m_used[i] == 0) {
        m_used[i] = 1;
        m_slots[i] = id;
        ++m_count;
        return true;
      }
      if (m_slots[i] == id) {
        return false;
      }
    }
  }

 private:
  static std::size_t hash(DirId id) {
    auto x = static_cast<std::uint64_t>(id.ino) * 0x9E3779B97F4A7C15ULL;
    x ^= static_cast<std::uint64_t>(id.dev) + 0x632BE59BD9B4E019ULL + (x << 6) + (x >> 2);
    return static_cast<std::size_t>(x ^ (x >> 29));
  }

  void grow() {
    std::vector<DirId> old_slots(m_slots.size() * 2);
    std::vector<unsigned char> old_used(m_used.size() * 2, 0);
    old_slots.swap(m_slots);
    old_used.swap(m_used);
    m_count = 0;
    for (std::size_t i = 0; i < old_slots.size(); ++i) {
      if (old_used[i] != 0) {
        insert(old_slots[i]);
      }
    }
  }

  std::vector<DirId> m_slots;
  std::vector<unsigned char> m_used;
  std::size_t m_count = 0;
};

struct Child {
  std::uint32_t offset;
  std::uint32_t length;
  ino_t ino;         // from readdir; 0 when the entry was a symlink (identity needs fstat)
};

// One directory on the current path. Frames are reused per depth so their
// buffers keep their capacity across the whole walk.
struct Frame {
  DIR* dir = nullptr;
  std::size_t path_len = 0;
  DirId id{};
  std::string names;  // child directory names, each followed by a NUL
  std::vector<Child> children;
  std::size_t next = 0;
  bool holds_skill = false;
  bool is_org_dir = false;  // this is <root>/_org with an active org
};

enum class EntryKind : unsigned char { directory, regular, special, gone };

EntryKind kind_of_mode(mode_t mode) {
  if (S_ISDIR(mode)) {
    return EntryKind::directory;
  }
  if (S_ISREG(mode)) {
    return EntryKind::regular;
  }
  return EntryKind::special;
}

std::string strip_space(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// The active org id from <root>/_org/.active_org, or "" when there is none.
std::string read_active_org(int root_fd) {
  std::string marker = std::string(k_org_dir) + "/" + std::string(k_active_org_marker);
  const files::UniqueFd fd(::openat(root_fd, marker.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) {
    return {};
  }
  struct stat st {};
  std::string content;
  if (::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode)) {
    std::array<char, k_max_active_org_bytes> buffer{};
    ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got > 0) {
      content.assign(buffer.data(), static_cast<std::size_t>(got));
    }
  }
  std::string id = strip_space(content);
  // An id is one path component; anything else cannot name a directory.
  if (id == "." || id == ".." || id.find('/') != std::string::npos || id.find('\0') != std::string::npos) {
    return {};
  }
  return id;
}

// True for filesystems where readdir's d_ino always equals stat's st_ino
// (overlayfs without xino, btrfs subvolumes and network filesystems need not).
bool dirent_ino_is_st_ino(int fd) {
  constexpr unsigned long k_ext4 = 0xEF53;
  constexpr unsigned long k_xfs = 0x58465342;
  constexpr unsigned long k_tmpfs = 0x01021994;
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) {
    return false;
  }
  auto type = static_cast<unsigned long>(fs.f_type);
  return type == k_ext4 || type == k_xfs || type == k_tmpfs;
}

class Walker {
 public:
  Walker(const std::string& root, const WalkLimits& limits, bool collect_legacy)
      : m_limits(limits), m_collect_legacy(collect_legacy), m_path(root) {
    for (const std::string& dir : m_limits.per_user_dirs) {
      if (std::optional<DirIdentity> id = dir_identity(dir)) {
        m_per_user_ids.push_back(*id);
      }
    }
    m_allowed = m_limits.allowed_dirs;
    if (char* real = ::realpath(root.c_str(), nullptr)) {
      m_allowed.emplace_back(real);
      std::free(real);
    }
    // "/" becomes "": children are then "/name", not "//name".
    while (!m_path.empty() && m_path.back() == '/') {
      m_path.pop_back();
    }
  }

  TextWalk run() {
    const std::string root = m_path.empty() ? std::string("/") : m_path;
    files::UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd) {
      int err = errno;
      skip(root, err == ENOENT ? SkipReason::dangling_symlink : SkipReason::unreadable,
           "cannot open the root: " + errno_text(err));
      return finish();
    }
    // readdir reports a mount point's covered inode, so an excluded directory
    // that is a mount point (HOME/users on its own volume) would slip past the
    // identity check: with exclusions, every directory is fstat'ed.
    m_trust_dirent_ino = m_limits.per_user_dirs.empty() && dirent_ino_is_st_ino(fd.get());
    if (!enter(std::move(fd), 0, std::nullopt)) {
      return finish();
    }
    std::size_t depth = 0;
    while (true) {
      Frame& frame = m_frames[depth];
      if (m_stopped || frame.next >= frame.children.size()) {
        ::closedir(frame.dir);
        frame.dir = nullptr;
        if (depth == 0) {
          break;
        }
        --depth;
        m_path.resize(m_frames[depth].path_len);
        continue;
      }
      const Child child = frame.children[frame.next++];
      std::string_view name(frame.names.data() + child.offset, child.length);
      m_path.resize(frame.path_len);
      m_path.push_back('/');
      m_path.append(name);
      if (descend(depth, name, child.ino)) {
        ++depth;
      }
    }
    return finish();
  }

 private:
  void skip(std::string_view path, SkipReason reason, std::string detail) {
    m_result.skipped.push_back(SkippedPath{std::filesystem::path(std::string(path)), reason, std::move(detail)});
  }

  // Reports every SKILL.md under the pruned support dir `dir` as a decoy. Only
  // for doctor; bounded, and symlinks are not followed so it cannot loop.
  void report_decoys(std::string_view dir) {
    namespace fs = std::filesystem;
    constexpr int k_max_decoy_depth = 8;
    constexpr std::size_t k_max_decoy_entries = 10000;
    std::error_code ec;
    std::size_t entries = 0;
    for (auto it = fs::recursive_directory_iterator(std::string(dir), fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (++entries > k_max_decoy_entries) {
        break;
      }
      if (it.depth() >= k_max_decoy_depth) {
        it.disable_recursion_pending();
      }
      if (it->path().filename() == k_skill_file) {
        skip(it->path().native(), SkipReason::support_dir,
             "inside the support directory " + std::string(dir) + " of a skill: not a skill");
      }
    }
  }

  TextWalk finish() {
    std::sort(m_result.skill_files.begin(), m_result.skill_files.end());
    std::sort(m_result.legacy_files.begin(), m_result.legacy_files.end());
    return std::move(m_result);
  }

  // Decides whether to enter the child named `name` of frame `depth` (m_path
  // already points at it) and enters it. True when a new frame was pushed.
  bool descend(std::size_t depth, std::string_view name, ino_t ino) {
    Frame& parent = m_frames[depth];
    bool org_dir = false;
    if (depth == 0 && name == k_org_dir) {
      m_active_org = read_active_org(::dirfd(parent.dir));
      if (m_active_org.empty()) {
        skip(m_path, SkipReason::excluded, "org mirror without an active org marker (_org/.active_org)");
        return false;
      }
      org_dir = true;
    } else if (parent.is_org_dir && name != m_active_org) {
      skip(m_path, SkipReason::excluded, "org mirror of an org that is not active");
      return false;
    }
    if (is_excluded_dir_name(name)) {
      skip(m_path, SkipReason::excluded, "excluded directory name");
      return false;
    }
    if (parent.holds_skill && is_support_dir_name(name)) {
      if (m_limits.find_decoys) {
        report_decoys(m_path);
      }
      return false;
    }
    if (depth + 1 > m_limits.max_depth) {
      skip(m_path, SkipReason::depth_bound, "deeper than " + std::to_string(m_limits.max_depth) + " levels");
      return false;
    }
    if (m_result.dirs_visited >= m_limits.max_dirs) {
      skip(m_path, SkipReason::dir_bound,
           "directory budget of " + std::to_string(m_limits.max_dirs) + " exhausted; the rest of the root was not walked");
      m_stopped = true;
      return false;
    }
    // `name` points into Frame::names, where every name is NUL-terminated.
    files::UniqueFd fd(::openat(::dirfd(parent.dir), name.data(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd) {
      int err = errno;
      if (err == ELOOP) {
        skip(m_path, SkipReason::symlink_cycle, "too many levels of symbolic links");
      } else if (err == ENOENT) {
        skip(m_path, SkipReason::dangling_symlink, "target does not exist");
      } else if (err != ENOTDIR) {  // ENOTDIR: replaced by a file since we read it
        skip(m_path, SkipReason::unreadable, errno_text(err));
      }
      return false;
    }
    // On filesystems whose readdir inode equals st_ino, a plain subdirectory
    // is identified without an fstat (the walk is syscall bound). A mount
    // point inside the root would report the covered inode; that can at worst
    // visit a directory once more, and the depth and directory bounds hold.
    std::optional<DirId> known;
    if (ino != 0 && m_trust_dirent_ino) {
      known = DirId{parent.id.dev, ino};
    }
    // ino 0: a symlink (or an entry of unknown type) that may lead anywhere.
    if (!enter(std::move(fd), depth + 1, known, ino == 0)) {
      return false;
    }
    m_frames[depth + 1].is_org_dir = org_dir;
    return true;
  }

  // The real path of the directory open on fd. Asks the kernel for the path of
  // the open directory (no race with a symlink swapped after the check); falls
  // back to realpath without /proc. Empty when neither answers.
  std::string real_path_of(int fd) const {
    std::array<char, 4096> buffer{};
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    ssize_t got = ::readlink(proc.c_str(), buffer.data(), buffer.size() - 1);
    if (got > 0) {
      return std::string(buffer.data(), static_cast<std::size_t>(got));
    }
    std::string resolved;
    if (char* real = ::realpath(m_path.c_str(), nullptr)) {
      resolved = real;
      std::free(real);
    }
    return resolved;
  }

  static bool below_any(const std::string& resolved, const std::vector<std::string>& dirs) {
    for (const std::string& dir : dirs) {
      if (resolved.size() >= dir.size() && resolved.compare(0, dir.size(), dir) == 0 &&
          (resolved.size() == dir.size() || resolved[dir.size()] == '/' || dir == "/")) {
        return true;
      }
    }
    return false;
  }

  // The directory open on fd lies below one of m_limits.per_user_dirs.
  bool resolves_into_per_user_dir(int fd) const {
    if (m_limits.per_user_dirs.empty()) {
      return false;
    }
    const std::string resolved = real_path_of(fd);
    return !resolved.empty() && below_any(resolved, m_limits.per_user_dirs);
  }

  // Registers the directory open on fd as frame `depth` and reads it. False
  // when it is not entered (cycle, per-user dir, I/O
  // error). `maybe_link`: reached through a symlink or an entry of unknown type.
  bool enter(files::UniqueFd fd, std::size_t depth, std::optional<DirId> known, bool maybe_link = false) {
    DirId id{};
    if (known) {
      id = *known;
    } else {
      struct stat st {};
      if (::fstat(fd.get(), &st) != 0) {
        int err = errno;
        skip(m_path, SkipReason::unreadable, errno_text(err));
        return false;
      }
      id = DirId{st.st_dev, st.st_ino};
    }
    const DirIdentity identity{static_cast<std::uint64_t>(id.dev), static_cast<std::uint64_t>(id.ino)};
    if (std::find(m_per_user_ids.begin(), m_per_user_ids.end(), identity) != m_per_user_ids.end() ||
        (maybe_link && resolves_into_per_user_dir(fd.get()))) {
      skip(m_path.empty() ? std::string("/") : m_path, SkipReason::per_user_dir,
           "the per-user homes (HOME/users): never part of the shared layer");
      return false;
    }
    // A link may lead anywhere: it is followed only while its target stays in
    // the configured roots, so one link to `/` cannot list the whole machine.
    if (maybe_link && depth > 0) {
      const std::string resolved = real_path_of(fd.get());
      if (resolved.empty() || !below_any(resolved, m_allowed)) {
        skip(m_path, SkipReason::outside_roots,
             "symlink to " + (resolved.empty() ? std::string("an unresolvable path") : resolved) +
                 ", outside the configured skills roots: not followed");
        return false;
      }
    }
    if (!m_visited.insert(id)) {
      std::string detail = "already visited through another path";
      for (std::size_t i = 0; i < depth; ++i) {
        if (m_frames[i].id == id) {
          std::string ancestor = m_path.substr(0, m_frames[i].path_len);
          detail = "loops back to " + (ancestor.empty() ? std::string("/") : ancestor);
          break;
        }
      }
      skip(m_path, SkipReason::symlink_cycle, std::move(detail));
      return false;
    }
    DIR* dir = ::fdopendir(fd.get());
    if (dir == nullptr) {
      int err = errno;
      skip(m_path, SkipReason::unreadable, errno_text(err));
      return false;
    }
    fd.release(); // the stream owns it now; closedir closes it
    if (m_frames.size() <= depth) {
      m_frames.resize(depth + 1);
    }
    ++m_result.dirs_visited;
    Frame& frame = m_frames[depth];
    frame.dir = dir;
    frame.path_len = m_path.size();
    frame.id = id;
    frame.is_org_dir = false;
    read_entries(frame);
    return true;
  }

  void read_entries(Frame& frame) {
    frame.names.clear();
    frame.children.clear();
    frame.next = 0;
    frame.holds_skill = false;
    int fd = ::dirfd(frame.dir);
    while (true) {
      errno = 0;
      const dirent* entry = ::readdir(frame.dir);
      if (entry == nullptr) {
        if (errno != 0) {
          skip(m_path, SkipReason::unreadable, "reading the directory failed: " + errno_text(errno));
        }
        break;
      }
      std::string_view name(entry->d_name);
      if (name == "." || name == "..") {
        continue;
      }
      EntryKind kind = EntryKind::special;
      bool is_link = entry->d_type == DT_LNK;
      ino_t ino = entry->d_type == DT_DIR ? entry->d_ino : 0;
      switch (entry->d_type) {
        case DT_DIR:
          kind = EntryKind::directory;
          break;
        case DT_REG:
          kind = EntryKind::regular;
          break;
        case DT_LNK:
        case DT_UNKNOWN: {
          struct stat st {};
          if (::fstatat(fd, entry->d_name, &st, 0) == 0) {
            kind = kind_of_mode(st.st_mode);
          } else {
            kind = EntryKind::gone;
            note_stat_failure(name, errno, is_link || entry->d_type == DT_UNKNOWN);
          }
          break;
        }
        default:
          kind = EntryKind::special;
          break;
      }
      switch (kind) {
        case EntryKind::directory:
          frame.children.push_back(Child{static_cast<std::uint32_t>(frame.names.size()),
                                         static_cast<std::uint32_t>(name.size()), ino});
          frame.names.append(name);
          frame.names.push_back('\0');  // so openat can take the name in place
          break;
        case EntryKind::regular:
          if (name == k_skill_file) {
            frame.holds_skill = true;
            const std::string path = child_path(name);
            // The one containment rule: a SKILL.md linked to a file outside
            // its skill is never read, so it is no skill (doctor shows why).
            if ((is_link || entry->d_type == DT_UNKNOWN) && !stays_inside(m_path.empty() ? "/" : m_path, path)) {
              skip(path, SkipReason::escaping_link, "a symlink to a file outside its skill folder: never read");
              break;
            }
            m_result.skill_files.push_back(path);
          } else if (m_collect_legacy && name.size() > 3 && name.ends_with(".md")) {
            m_result.legacy_files.push_back(child_path(name));
          }
          break;
        case EntryKind::special:
          if (name == k_skill_file) {
            frame.holds_skill = true;  // os.walk lists it among the files, so it still prunes support dirs
            skip(child_path(name), SkipReason::special_file, "not a regular file (FIFO, socket or device)");
          }
          break;
        case EntryKind::gone:
          if (name == k_skill_file) {
            frame.holds_skill = true;
          }
          break;
      }
    }
    std::sort(frame.children.begin(), frame.children.end(), [&frame](const Child& a, const Child& b) {
      return std::string_view(frame.names.data() + a.offset, a.length) <
             std::string_view(frame.names.data() + b.offset, b.length);
    });
  }

  void note_stat_failure(std::string_view name, int err, bool maybe_link) {
    if (err == ENOENT && maybe_link) {
      // DT_UNKNOWN entries that vanished are a race, not a dangling link;
      // lstat tells the two apart.
      struct stat st {};
      std::string path = child_path(name);
      if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        skip(path, SkipReason::dangling_symlink, "target does not exist");
      }
      return;
    }
    if (err == ELOOP) {
      skip(child_path(name), SkipReason::symlink_cycle, "too many levels of symbolic links");
      return;
    }
    skip(child_path(name), SkipReason::unreadable, errno_text(err));
  }

  std::string child_path(std::string_view name) const {
    std::string path;
    path.reserve(m_path.size() + 1 + name.size());
    path.append(m_path);
    path.push_back('/');
    path.append(name);
    return path;
  }

  WalkLimits m_limits;
  bool m_collect_legacy;
  std::string m_path;
  std::deque<Frame> m_frames;  // a deque: growing it keeps references to outer frames valid
  DirIdSet m_visited;
  std::vector<DirIdentity> m_per_user_ids;
  std::vector<std::string> m_allowed;  // canonical: the walked root and m_limits.allowed_dirs
  std::string m_active_org;
  bool m_stopped = false;
  bool m_trust_dirent_ino = false;
  TextWalk m_result;
};

}  // namespace

const char* skip_reason_name(SkipReason reason) {
  switch (reason) {
    case SkipReason::excluded:
      return "excluded";
    case SkipReason::support_dir:
      return "support_dir";
    case SkipReason::depth_bound:
      return "depth_bound";
    case SkipReason::dir_bound:
      return "dir_bound";
    case SkipReason::symlink_cycle:
      return "symlink_cycle";
    case SkipReason::dangling_symlink:
      return "dangling_symlink";
    case SkipReason::unreadable:
      return "unreadable";
    case SkipReason::not_utf8:
      return "not_utf8";
    case SkipReason::bad_frontmatter:
      return "bad_frontmatter";
    case SkipReason::too_large:
      return "too_large";
    case SkipReason::special_file:
      return "special_file";
    case SkipReason::per_user_dir:
      return "per_user_dir";
    case SkipReason::escaping_link:
      return "escaping_link";
    case SkipReason::outside_roots:
      return "outside_roots";
  }
  return "unknown";
}

std::optional<DirIdentity> dir_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return std::nullopt;
  }
  return DirIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

WalkLimits default_walk_limits() { return WalkLimits{limits::k_max_walk_depth, limits::k_max_walk_dirs_per_root}; }

TextWalk walk_root_text(const std::string& root, const WalkLimits& limits, bool collect_legacy) {
  Walker walker(root, limits, collect_legacy);
  return walker.run();
}

WalkResult walk_skill_root(const std::filesystem::path& root, const WalkLimits& limits, bool collect_legacy) {
  TextWalk text = walk_root_text(root.native(), limits, collect_legacy);
  WalkResult result;
  result.skill_files.reserve(text.skill_files.size());
  for (auto& file : text.skill_files) {
    result.skill_files.emplace_back(std::move(file));
  }
  result.legacy_files.reserve(text.legacy_files.size());
  for (auto& file : text.legacy_files) {
    result.legacy_files.emplace_back(std::move(file));
  }
  result.skipped = std::move(text.skipped);
  result.dirs_visited = text.dirs_visited;
  return result;
}

bool is_excluded_dir_name(std::string_view name) {
  // skill_manage's staging and trash folders (`.skillrt-new-*`, `.skillrt-trash-*`):
  // a half-built or half-deleted skill must never be listed, even after a crash.
  if (name.substr(0, k_manage_work_dir_prefix.size()) == k_manage_work_dir_prefix) {
    return true;
  }
  return std::find(k_excluded_dirs.begin(), k_excluded_dirs.end(), name) != k_excluded_dirs.end();
}

bool is_support_dir_name(std::string_view name) {
  return std::find(k_support_dirs.begin(), k_support_dirs.end(), name) != k_support_dirs.end();
}

bool is_skill_support_path(const std::filesystem::path& path, const std::filesystem::path& root) {
  std::filesystem::path relative = path.lexically_normal().lexically_relative(root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") {
    return false;
  }
  std::vector<std::filesystem::path> parts(relative.begin(), relative.end());
  std::filesystem::path prefix = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (i > 0 && is_support_dir_name(parts[i].native())) {
      std::error_code ec;
      if (std::filesystem::exists(prefix / std::string(k_skill_file), ec)) {
        return true;
      }
    }
    prefix /= parts[i];
  }
  return false;
}

}  // namespace skillrt::core
