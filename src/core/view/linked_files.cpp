#include "core/view/linked_files.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <system_error>
#include <vector>

#include "core/limits.hpp"
#include "core/files/containment.hpp"

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

bool has_extension(const fs::path& file, const std::vector<std::string_view>& extensions) {
  if (extensions.empty()) {
    return true;
  }
  const std::string ext = file.extension().string();
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

bool is_regular(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.is_regular_file(ec) && !ec; // follows a symlink to a file
}

// Calls visit(entry) for each entry under dir, recursing when asked; bounded by
// limits::k_max_linked_files entries and k_max_walk_depth levels.
template <typename Visit> void for_each_entry(const fs::path& dir, bool recursive, Visit visit) {
  std::error_code ec;
  std::size_t seen = 0;
  if (!recursive) {
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (const fs::directory_iterator end; !ec && it != end && seen < limits::k_max_linked_files; it.increment(ec)) {
      ++seen;
      visit(*it);
    }
    return;
  }
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end && seen < limits::k_max_linked_files;
       it.increment(ec)) {
    ++seen;
    if (static_cast<std::size_t>(it.depth()) >= limits::k_max_walk_depth) {
      it.disable_recursion_pending();
    }
    visit(*it);
  }
}

std::string relative_posix(const fs::path& file, const fs::path& base) {
  return file.lexically_relative(base).generic_string();
}

// The containment rule for many files of one skill: the skill folder is
// resolved once, not once per file. Nothing is readable when it cannot be.
auto readable_in(const fs::path& skill_dir) {
  std::error_code ec;
  fs::path root = fs::canonical(skill_dir, ec);
  const bool resolved = !ec;
  return [root = std::move(root), resolved](const fs::path& file) {
    return resolved && stays_inside_canonical(root, file);
  };
}

} // namespace

FileGroups collect_linked_files(const fs::path& skill_dir) {
  FileGroups groups;
  const auto readable = readable_in(skill_dir);
  for (const GroupSpec& spec : group_specs()) {
    const fs::path base = skill_dir / spec.dir;
    std::error_code ec;
    if (!fs::is_directory(base, ec)) {
      continue;
    }
    std::vector<std::string> found;
    for_each_entry(base, spec.recursive, [&](const fs::directory_entry& entry) {
      // Only what can be read is offered: a link escaping the skill is
      // refused by the one containment rule, so it is not listed either.
      if (is_regular(entry) && has_extension(entry.path(), spec.extensions) && readable(entry.path())) {
        found.push_back(relative_posix(entry.path(), skill_dir));
      }
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
  const auto readable = readable_in(skill_dir);
  std::error_code ec;
  fs::recursive_directory_iterator it(skill_dir, fs::directory_options::skip_permission_denied, ec);
  std::size_t seen = 0;
  for (const fs::recursive_directory_iterator end; !ec && it != end && seen < limits::k_max_linked_files;
       it.increment(ec)) {
    ++seen;
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    std::error_code dir_ec;
    if (entry.is_directory(dir_ec)) {
      // Dot-directories are skipped whole; so is anything too deep.
      if (!name.empty() && name.front() == '.') {
        it.disable_recursion_pending();
      } else if (static_cast<std::size_t>(it.depth()) >= limits::k_max_walk_depth) {
        it.disable_recursion_pending();
      }
      continue;
    }
    // Dot-files are private to the skill (.env, .DS_Store) as dot-directories are.
    if (!is_regular(entry) || name == "SKILL.md" || (!name.empty() && name.front() == '.') ||
        !readable(entry.path())) {
      continue;
    }
    const std::string rel = relative_posix(entry.path(), skill_dir);
    const std::size_t slash = rel.find('/');
    const std::string top = slash == std::string::npos ? std::string() : rel.substr(0, slash);
    std::size_t bucket = order.size();
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
      if (top == order[i]) {
        bucket = i;
      }
    }
    if (bucket == order.size() && has_extension(entry.path(), source_extensions)) {
      bucket = order.size() - 1;
    }
    if (bucket < order.size()) {
      buckets[bucket].push_back(rel);
    }
  }
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
