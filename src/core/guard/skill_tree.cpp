#include "core/guard/skill_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

GuardFinding walk_problem(std::string rel, const char* id, ThreatSeverity severity, std::string description) {
  GuardFinding f;
  f.pattern_id = id;
  f.category = ThreatCategory::structural;
  f.severity = severity;
  f.file = std::move(rel);
  f.description = std::move(description);
  return f;
}

} // namespace

SkillTree walk_skill_tree(const std::filesystem::path& root, const IgnoreRules& ignore) {
  SkillTree tree;
  struct Pending {
    std::string rel;
    std::size_t depth;
  };
  std::vector<Pending> stack{{"", 0}};
  std::size_t seen = 0;
  bool stopped = false;
  std::vector<std::string> names;
  while (!stack.empty() && !stopped) {
    const Pending dir = std::move(stack.back());
    stack.pop_back();
    const std::filesystem::path dir_path = dir.rel.empty() ? root : root / dir.rel;
    // O_NOFOLLOW: a directory swapped for a symlink after we looked is not entered.
    const int fd = ::open(dir_path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR* handle = fd < 0 ? nullptr : ::fdopendir(fd);
    if (handle == nullptr) {
      const int err = errno;
      if (fd >= 0) {
        ::close(fd);
      }
      tree.problems.push_back(
          walk_problem(dir.rel, "unreadable_path", ThreatSeverity::medium,
                       "Directory cannot be read, so it was not scanned: " + std::generic_category().message(err)));
      continue;
    }
    names.clear();
    while (const dirent* ent = ::readdir(handle)) {
      if (std::strcmp(ent->d_name, ".") != 0 && std::strcmp(ent->d_name, "..") != 0) {
        names.emplace_back(ent->d_name);
      }
      // A huge directory is not read whole: the entry limit below stops the scan anyway.
      if (names.size() > limits::k_guard_max_entries) {
        break;
      }
    }
    // Reverse order on the stack keeps the walk deterministic.
    std::sort(names.begin(), names.end(), std::greater<>());
    for (const std::string& name : names) {
      if (++seen > limits::k_guard_max_entries) {
        tree.problems.push_back(walk_problem("", "scan_incomplete", ThreatSeverity::high,
                                             "More than " + std::to_string(limits::k_guard_max_entries) +
                                                 " entries: the rest of the skill was not scanned"));
        stopped = true;
        break;
      }
      std::string rel = dir.rel.empty() ? name : dir.rel + "/" + name;
      struct stat st {};
      if (::fstatat(::dirfd(handle), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        tree.problems.push_back(walk_problem(rel, "unreadable_path", ThreatSeverity::medium,
                                             "Entry cannot be examined: " + std::generic_category().message(errno)));
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (ignore.ignored(rel, true)) {
          continue;
        }
        if (dir.depth + 1 > limits::k_max_walk_depth) {
          tree.problems.push_back(walk_problem(rel, "scan_incomplete", ThreatSeverity::high,
                                               "Nested deeper than " + std::to_string(limits::k_max_walk_depth) +
                                                   " directories: not scanned"));
          continue;
        }
        stack.push_back({std::move(rel), dir.depth + 1});
        continue;
      }
      if (ignore.ignored(rel, false)) {
        continue;
      }
      SkillEntry entry;
      entry.rel = std::move(rel);
      entry.type = S_ISREG(st.st_mode)   ? SkillEntry::Type::regular
                   : S_ISLNK(st.st_mode) ? SkillEntry::Type::symlink
                                         : SkillEntry::Type::special;
      entry.mode = st.st_mode;
      entry.links = st.st_nlink;
      entry.size = st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
      tree.entries.push_back(std::move(entry));
    }
    ::closedir(handle);
  }
  std::sort(tree.entries.begin(), tree.entries.end(),
            [](const SkillEntry& a, const SkillEntry& b) { return a.rel < b.rel; });
  return tree;
}

} // namespace skillrt::core
