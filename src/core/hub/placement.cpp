// Placement rules (see placement.hpp).
#include "core/validate/skill_name.hpp"
#include "core/hub/placement.hpp"

#include <sys/stat.h>

#include <system_error>

#include "core/discovery/walker.hpp"
#include "core/sync/skill_index.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;

enum class NodeKind { missing, symlink, directory, other };

NodeKind node_kind(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0) {
    return NodeKind::missing;
  }
  if (S_ISLNK(st.st_mode)) {
    return NodeKind::symlink;
  }
  return S_ISDIR(st.st_mode) ? NodeKind::directory : NodeKind::other;
}

bool holds_skill_md(const fs::path& dir) {
  struct stat st {};
  return ::lstat((dir / "SKILL.md").c_str(), &st) == 0 || ::lstat((dir / "skill.md").c_str(), &st) == 0;
}

tl::unexpected<Error> refuse(const std::string& message) {
  return fail(ErrorCode::refused, message);
}

// Every folder between the root and the target (exclusive): no symlink, no
// file, not a skill.
Result<void> check_ancestors(const fs::path& root, const std::string& install_path) {
  fs::path current = root;
  const fs::path relative(install_path);
  auto last = std::prev(relative.end());
  for (auto it = relative.begin(); it != last; ++it) {
    current /= *it;
    switch (node_kind(current)) {
    case NodeKind::missing:
      return {}; // nothing below exists either
    case NodeKind::symlink:
      return refuse("refusing to install through " + current.string() + ": it is a symlink");
    case NodeKind::other:
      return refuse("refusing to install below " + current.string() + ": it is not a directory");
    case NodeKind::directory:
      if (holds_skill_md(current)) {
        return refuse("refusing to install inside the existing skill " + current.string() +
                      " (skills are never nested)");
      }
      break;
    }
  }
  return {};
}

} // namespace

Result<TargetPlan> plan_target(const HubPaths& paths, const LockFile& lock, const std::string& category,
                               const std::string& name, bool allow_replace) {
  TargetPlan plan;
  plan.install_path = category.empty() ? name : category + "/" + name;
  if (auto ok = validate_install_path(plan.install_path, name); !ok) {
    return tl::unexpected(ok.error());
  }
  plan.target = paths.root / plan.install_path;
  const auto recorded = lock.installed.find(name);
  if (recorded != lock.installed.end() && recorded->second.install_path != plan.install_path) {
    return refuse("'" + name + "' is already installed at " + recorded->second.install_path +
                  "; uninstall it first to install it at " + plan.install_path);
  }
  if (auto ok = check_ancestors(paths.root, plan.install_path); !ok) {
    return tl::unexpected(ok.error());
  }
  // Another skill of the same name anywhere in the root would make the name
  // ambiguous, and whichever the catalog shows first would speak for it in
  // the agent's prompt: a third-party install must not shadow a bundled or
  // hand-made skill.
  for (const sync::IndexedSkill& skill : sync::index_skills(paths.root, default_walk_limits()).skills) {
    if (skill.name == name && skill.relative.lexically_normal() != fs::path(plan.install_path).lexically_normal()) {
      return refuse("a skill named '" + name + "' already lives at " + skill.dir.string() +
                    "; installing another would make the name ambiguous (install it under another name, or "
                    "remove that one first)");
    }
  }
  switch (node_kind(plan.target)) {
  case NodeKind::missing:
    return plan;
  case NodeKind::symlink:
    return refuse("refusing to install over " + plan.target.string() + ": it is a symlink");
  case NodeKind::other:
    return refuse("refusing to install over " + plan.target.string() + ": it is not a directory");
  case NodeKind::directory:
    break;
  }
  if (!holds_skill_md(plan.target)) {
    std::error_code ec;
    if (fs::is_empty(plan.target, ec) && !ec) {
      return plan; // an empty folder: rename(2) replaces it
    }
    return refuse("refusing to install over " + plan.target.string() +
                  ": it is a category bucket (a folder of other skills), never overwritten");
  }
  if (recorded == lock.installed.end()) {
    return refuse("a skill the hub did not install already lives at " + plan.target.string() +
                  "; it is never overwritten (rename or remove it yourself)");
  }
  if (!allow_replace) {
    return refuse("'" + name + "' is already installed at " + plan.install_path +
                  "; use --force to reinstall it or `skillrt update " + name + "`");
  }
  plan.replace = true;
  return plan;
}

Result<fs::path> recorded_target(const HubPaths& paths, const std::string& name, const LockEntry& entry) {
  if (auto ok = check_skill_name(name, SkillNameRule::install); !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = validate_install_path(entry.install_path, name); !ok) {
    return tl::unexpected(ok.error());
  }
  fs::path current = paths.root;
  for (const fs::path& segment : fs::path(entry.install_path)) {
    current /= segment;
    if (node_kind(current) == NodeKind::symlink) {
      return refuse("the recorded install path of '" + name + "' goes through the symlink " + current.string());
    }
  }
  return current;
}

} // namespace skillrt::core::hub
