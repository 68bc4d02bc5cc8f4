// delete (spec §2.10 rule 14): the absorbed_into rules, the defense-in-depth
// target checks, and a crash-safe removal: the folder is first renamed to a
// trash name the walker never lists, then removed without following symlinks.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/discovery/walker.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/path_within.hpp"
#include "core/manage/actions.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/manage/skill_lock.hpp"
#include "core/manage/stray_temp_cleanup.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

bool is_blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n\f\v") == std::string::npos;
}

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n\f\v");
  const std::size_t end = text.find_last_not_of(" \t\r\n\f\v");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

fs::path canonical_or_empty(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::canonical(path, ec);
  return ec ? fs::path() : out;
}

ManageResult refuse_target(const std::string& name, const std::string& why) {
  return manage_failure(ErrorCode::refused, "Refusing to delete skill " + quoted_name(name) + ": " + why);
}

} // namespace

ManageResult manage_delete(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  const std::string& name = request.name;
  const Catalog catalog = manage_catalog(ctx, cfg);
  const Layer layer = manage_target_layer(ctx, request);
  auto skill = locate_managed_skill(ctx, catalog, name, false, layer);
  if (!skill) {
    return std::move(skill.error());
  }

  // absorbed_into: nullopt = legacy delete, blank = explicit prune, a name = the
  // consolidation target, which must be another existing skill.
  std::optional<std::string> absorbed;
  if (request.absorbed_into && !is_blank(*request.absorbed_into)) {
    absorbed = trimmed(*request.absorbed_into);
    if (*absorbed == name) {
      return manage_failure(ErrorCode::invalid_argument,
                            "absorbed_into='" + sanitize_utf8(*absorbed) + "' cannot equal the skill being deleted.");
    }
    auto target = locate_managed_skill(ctx, catalog, *absorbed, false);
    if (!target) {
      return manage_failure(ErrorCode::not_found,
                            "absorbed_into='" + sanitize_utf8(*absorbed) +
                                "' does not exist. Name an existing skill that took over the content, or pass an "
                                "empty absorbed_into to prune.");
    }
    if (canonical_or_empty(target->dir) == canonical_or_empty(skill->dir)) {
      return manage_failure(ErrorCode::invalid_argument,
                            "absorbed_into='" + sanitize_utf8(*absorbed) + "' cannot equal the skill being deleted.");
    }
  }

  // Defense in depth: never a symlink, never a root, only strictly inside a root.
  std::error_code ec;
  if (fs::is_symlink(skill->dir, ec)) {
    return refuse_target(name, "its folder " + sanitize_utf8(skill->dir.string()) + " is a symlink.");
  }
  const fs::path resolved = canonical_or_empty(skill->dir);
  if (resolved.empty()) {
    return refuse_target(name, "its folder " + sanitize_utf8(skill->dir.string()) + " cannot be resolved.");
  }
  // Only the target layer's roots: a skill of the user's layer is never
  // "inside" a shared root and the other way round.
  const std::vector<Root> roots = layer_roots(catalog, layer);
  bool inside_a_root = false;
  for (const Root& root : roots) {
    const fs::path root_path = canonical_or_empty(root.path);
    if (root_path.empty()) {
      continue;
    }
    if (resolved == root_path) {
      return refuse_target(name, "its folder is the skills root " + sanitize_utf8(root_path.string()) + ".");
    }
    inside_a_root = inside_a_root || is_within(resolved, root_path);
  }
  if (!inside_a_root) {
    return refuse_target(name, "its folder " + sanitize_utf8(resolved.string()) + " is not inside a skills root.");
  }

  auto lock = SkillLock::acquire(ctx, skill->dir);
  if (!lock) {
    return manage_failure(lock.error().code, lock.error().message);
  }
  const fs::path parent = resolved.parent_path();
  remove_stray_work_dirs(parent);
  // The root the folder is inside (checked above), for the ledger entry.
  fs::path skill_root;
  for (const Root& root : roots) {
    const fs::path root_path = canonical_or_empty(root.path);
    if (!root_path.empty() && is_within(resolved, root_path)) {
      skill_root = root_path;
      break;
    }
  }
  ManageLedgerRecord record(ctx, request, layer, skill_root, resolved, true);
  // An empty folder reserved by mkdtemp is replaced atomically by rename(2).
  std::string trash = (parent / (std::string(k_manage_work_dir_prefix) + "trash-XXXXXX")).string();
  if (::mkdtemp(trash.data()) == nullptr) {
    return manage_failure(ErrorCode::io_error, "Cannot create a trash folder in " + parent.string() + ": " +
                                                   std::generic_category().message(errno));
  }
  if (::rename(resolved.c_str(), trash.c_str()) != 0) {
    const int err = errno;
    ::rmdir(trash.c_str());
    return manage_failure(ErrorCode::io_error,
                          "Cannot delete " + resolved.string() + ": " + std::generic_category().message(err));
  }
  (void)files::fsync_dir(parent);
  // The skill is gone for every reader now; what follows only frees space
  // (and a crash here leaves a trash folder the next write in `parent` removes).
  fs::remove_all(trash, ec);
  std::vector<std::string> warnings;
  if (ec) {
    warnings.push_back("The skill is deleted, but its trash folder " + trash +
                       " could not be removed: " + ec.message());
  }
  bool parent_is_root = false;
  for (const Root& root : roots) {
    parent_is_root = parent_is_root || canonical_or_empty(root.path) == parent;
  }
  if (!parent_is_root && fs::is_empty(parent, ec) && !ec) {
    fs::remove(parent, ec);
  }
  invalidate_skill_caches(ctx);
  record.commit(warnings, /*removed=*/true);

  ManageResult out;
  out.success = true;
  out.message = "Skill " + quoted_name(name) + " deleted.";
  out.changed_skill_md = skill->skill_md.string();
  if (absorbed) {
    out.message += " Content absorbed into '" + sanitize_utf8(*absorbed) + "'.";
    out.absorbed_into = *absorbed;
  }
  out.warnings = std::move(warnings);
  return out;
}

} // namespace skillrt::core
