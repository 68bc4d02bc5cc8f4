#include "core/view/linked_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "core/files/containment.hpp"
#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

struct GroupSpec {
  std::string_view dir;
  std::vector<std::string_view> extensions; // empty = every file
  bool recursive;
};

const std::array<GroupSpec, 4>& group_specs() {
  static const std::array<GroupSpec, 4> specs{{
      {"references", {".md"}, false},
      {"templates", {".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"}, true},
      {"assets", {}, true},
      {"scripts", {".py", ".sh", ".bash", ".js", ".ts", ".rb"}, false},
  }};
  return specs;
}

bool has_extension(std::string_view name, const std::vector<std::string_view>& extensions) {
  if (extensions.empty()) {
    return true;
  }
  // fs::path's rule (a dot-file such as ".md" has no extension), as the listing always had.
  const std::string ext = fs::path(name).extension().string();
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

// How a listing walks: nothing refused and no problem ends it (a listing offers
// what it can), links recorded for the caller to follow, runtime caches left
// out as the content manifest leaves them out (a `.pyc` a script run wrote is
// not a file of the skill, and the MCP Skills extension's digests must not
// change because a script ran), at most k_max_linked_files entries. Folders are
// entered down to k_max_walk_depth levels below the walk's root (or not at all).
files::WalkOptions listing_options(bool recursive) {
  files::WalkOptions options;
  options.limits = files::TreeLimits::unlimited();
  options.limits.max_entries = limits::k_max_linked_files;
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.skip_runtime_caches = true;
  options.enter = [recursive](const files::WalkEntry& entry) {
    return recursive && entry.depth <= limits::k_max_walk_depth;
  };
  return options;
}

// The containment rule for the files of one skill. A file the walk reached
// through folders only (descriptors, no link followed) below a root that is
// no link is inside by construction and costs nothing; a link, or anything
// under a group folder that is itself a link, is resolved and asked. The
// skill folder is resolved once, on the first such question; nothing is
// readable when it cannot be.
class Containment {
public:
  explicit Containment(fs::path skill_dir) : m_skill_dir(std::move(skill_dir)) {}

  bool readable(const std::string& relative) {
    if (!m_root) {
      std::error_code ec;
      m_root = fs::canonical(m_skill_dir, ec);
      if (ec) {
        m_root->clear();
      }
    }
    return !m_root->empty() && stays_inside_canonical(*m_root, m_skill_dir / relative);
  }

private:
  fs::path m_skill_dir;
  std::optional<fs::path> m_root;
};

// A regular file, following a link at the entry (a link to a folder or to
// nothing is not one).
bool is_regular(const files::WalkEntry& entry) {
  if (entry.kind == files::EntryKind::file) {
    return true;
  }
  if (entry.kind != files::EntryKind::link) {
    return false;
  }
  struct stat st {};
  return ::fstatat(entry.parent_fd, std::string(entry.name).c_str(), &st, 0) == 0 && S_ISREG(st.st_mode);
}

// Only what can be read is offered: a link escaping the skill is refused by
// the one containment rule, so it is not listed either.
bool offered(const files::WalkEntry& entry, bool under_link, const std::string& relative, Containment& containment) {
  if (!is_regular(entry)) {
    return false;
  }
  return (entry.kind == files::EntryKind::file && !under_link) || containment.readable(relative);
}

} // namespace

FileGroups collect_linked_files(const fs::path& skill_dir) {
  FileGroups groups;
  Containment containment(skill_dir);
  for (const GroupSpec& spec : group_specs()) {
    const fs::path base = skill_dir / spec.dir;
    struct stat st {};
    if (::lstat(base.c_str(), &st) != 0 || !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
      continue;
    }
    // A group folder linked elsewhere is walked (a link to a folder of the
    // skill is fine), each file then asked the containment rule.
    const bool under_link = S_ISLNK(st.st_mode);
    const std::string prefix = std::string(spec.dir) + "/";
    std::vector<std::string> found;
    // Walk problems only hide what they concern; a link to no folder lists nothing.
    (void)files::walk_tree(base, listing_options(spec.recursive), [&](const files::WalkEntry& entry) -> Result<void> {
      if (has_extension(entry.name, spec.extensions)) {
        std::string relative = prefix + std::string(entry.path);
        if (offered(entry, under_link, relative, containment)) {
          found.push_back(std::move(relative));
        }
      }
      return {};
    });
    if (!found.empty()) {
      std::sort(found.begin(), found.end());
      groups.emplace_back(std::string(spec.dir), std::move(found));
    }
  }
  return groups;
}

FileGroups available_skill_files(const fs::path& skill_dir) {
  static const std::vector<std::string_view> source_extensions{".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"};
  const std::array<std::string_view, 5> order{"references", "templates", "assets", "scripts", "other"};
  std::array<std::vector<std::string>, 5> buckets;
  Containment containment(skill_dir);
  files::WalkOptions options = listing_options(true);
  // Dot-directories are private to the skill (.git, .venv): seen, never entered.
  options.enter = [](const files::WalkEntry& entry) {
    return entry.name.front() != '.' && entry.depth <= limits::k_max_walk_depth;
  };
  (void)files::walk_tree(skill_dir, options, [&](const files::WalkEntry& entry) -> Result<void> {
    // Dot-files are private to the skill (.env, .DS_Store) as dot-directories are.
    if (entry.name == "SKILL.md" || entry.name.front() == '.') {
      return {};
    }
    const std::string relative(entry.path);
    if (!offered(entry, false, relative, containment)) {
      return {};
    }
    const std::size_t slash = relative.find('/');
    const std::string_view top =
        slash == std::string::npos ? std::string_view() : std::string_view(relative).substr(0, slash);
    std::size_t bucket = order.size();
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
      if (top == order[i]) {
        bucket = i;
      }
    }
    if (bucket == order.size() && has_extension(entry.name, source_extensions)) {
      bucket = order.size() - 1;
    }
    if (bucket < order.size()) {
      buckets[bucket].push_back(relative);
    }
    return {};
  });
  FileGroups groups;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!buckets[i].empty()) {
      std::sort(buckets[i].begin(), buckets[i].end());
      groups.emplace_back(std::string(order[i]), std::move(buckets[i]));
    }
  }
  return groups;
}

} // namespace skillrt::core
