// create (spec §2.10 rule 11, §5.1 item 7): a new skill folder appears whole or
// not at all: SKILL.md is written into a staging folder beside the target,
// which is then renamed into place.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/discovery/walker.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/rename.hpp"
#include "core/limits.hpp"
#include "core/manage/actions.hpp"
#include "core/manage/content_checks.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/manage/skill_lock.hpp"
#include "core/manage/stray_temp_cleanup.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/utf8.hpp"
#include "core/validate/skill_name.hpp"
#include "core/view/resolver.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::string errno_text(int err) {
  return std::generic_category().message(err);
}

ManageResult already_exists(const std::string& name, const fs::path& where) {
  return manage_failure(ErrorCode::refused, "A skill named '" + sanitize_utf8(name) + "' already exists at " +
                                                sanitize_utf8(where.string()) + ".");
}

bool has_category(const ManageRequest& request) {
  return request.category && request.category->find_first_not_of(" \t\r\n") != std::string::npos;
}

} // namespace

ManageResult manage_create(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  const std::string& name = request.name;
  const std::string& content = *request.content;
  if (auto ok = check_skill_name(name, SkillNameRule::create); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  if (auto ok = check_category(request.category); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  // The provenance folder is one segment, checked by the category rules.
  if (auto ok = check_category(request.folder); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  if (auto ok = check_skill_frontmatter(content); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  if (auto ok = check_content_chars(content, "SKILL.md"); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  // Spec §5.1 item 7: the folder name and the advertised name agree from birth.
  const std::string declared = frontmatter_name_of(content);
  if (declared != name) {
    return manage_failure(ErrorCode::invalid_argument,
                          "Frontmatter name '" + sanitize_utf8(declared) + "' does not match the skill name '" + name +
                              "'. Use the same name in both, so the skill is found by the name the index shows.");
  }

  // Any tier of the target layer, hidden and disabled skills included: a
  // second skill of the same name would make the name ambiguous everywhere.
  // Across layers a same-named skill is allowed: the user's own one shadows
  // the shared one for that user only.
  const Layer layer = manage_target_layer(ctx, request);
  const Catalog catalog = manage_catalog(ctx, cfg);
  std::vector<ResolvedSkill> existing = collect_candidates(catalog, name, std::nullopt);
  std::erase_if(existing, [layer](const ResolvedSkill& c) { return tier_layer(c.tier) != layer; });
  if (!existing.empty()) {
    const ResolvedSkill& first = existing.front();
    return already_exists(name, first.skill_dir ? *first.skill_dir : first.skill_md);
  }

  fs::path local = ctx.skills_dir();
  if (layer == Layer::user) {
    // Created (0700) on first use; refuses a planted symlink.
    auto home = ensure_user_home(ctx);
    if (!home) {
      return manage_failure(home.error().code, home.error().message);
    }
    local = home->skills;
  }
  const std::string category = has_category(request) ? *request.category : std::string();
  const bool in_folder = request.folder && !request.folder->empty();
  const fs::path base = in_folder ? local / *request.folder : local;
  const fs::path parent = category.empty() ? base : base / category;
  const fs::path target = parent / name;
  std::error_code ec;
  const bool category_existed = !category.empty() && fs::is_directory(parent, ec);
  fs::create_directories(parent, ec);
  if (ec) {
    return manage_failure(ErrorCode::io_error, "Cannot create " + parent.string() + ": " + ec.message());
  }
  auto remove_new_category = [&] {
    if (!category.empty() && !category_existed) {
      std::error_code rm_ec;
      fs::remove(parent, rm_ec); // only if still empty
    }
  };

  auto lock = SkillLock::acquire(ctx, target);
  if (!lock) {
    remove_new_category();
    return manage_failure(lock.error().code, lock.error().message);
  }
  if (fs::exists(fs::symlink_status(target, ec))) {
    return already_exists(name, target);
  }
  remove_stray_work_dirs(parent);

  std::string staging = (parent / (std::string(k_manage_work_dir_prefix) + "new-XXXXXX")).string();
  if (::mkdtemp(staging.data()) == nullptr) {
    const int err = errno;
    remove_new_category();
    return manage_failure(ErrorCode::io_error,
                          "Cannot create a staging folder in " + parent.string() + ": " + errno_text(err));
  }
  auto drop_staging = [&] {
    std::error_code rm_ec;
    fs::remove_all(staging, rm_ec);
    remove_new_category();
  };
  ::chmod(staging.c_str(), 0755);
  if (auto written = write_file_atomic(fs::path(staging) / "SKILL.md", content); !written) {
    drop_staging();
    return manage_failure(written.error().code, "Cannot write SKILL.md: " + written.error().message);
  }
  ::chmod((fs::path(staging) / "SKILL.md").c_str(), 0644);
  // Never replaces: an empty folder made by someone else in the meantime
  // would otherwise be swallowed.
  if (auto moved = files::rename_no_replace(staging, target); !moved) {
    drop_staging();
    if (moved.error().code == ErrorCode::refused) {
      return already_exists(name, target);
    }
    return manage_failure(ErrorCode::io_error, "Cannot move the new skill into " + target.string() + ": " +
                                                   moved.error().message);
  }
  (void)files::fsync_dir(parent);

  ManageResult out;
  std::vector<std::string> warnings;
  auto undo = [&]() -> std::vector<std::string> {
    std::vector<std::string> problems;
    std::error_code rm_ec;
    fs::remove_all(target, rm_ec);
    if (rm_ec) {
      problems.push_back("cannot remove " + target.string() + ": " + rm_ec.message());
    }
    remove_new_category();
    return problems;
  };
  if (auto refused = settle_write(ctx, cfg, target, request.confirm, undo, warnings)) {
    return std::move(*refused);
  }
  // Still under the skill's lock: the entry comes before any later write's.
  ManageLedgerRecord(ctx, request, layer, local, target, false).commit(warnings);
  out.success = true;
  out.message = "Skill '" + name + "' created.";
  out.path = (in_folder ? *request.folder + "/" : std::string()) + (category.empty() ? name : category + "/" + name);
  out.skill_md = (target / "SKILL.md").string();
  out.changed_skill_md = out.skill_md;
  out.change_description =
      preview_chars(frontmatter_description_of(content), limits::k_manage_description_preview_chars, "");
  if (!category.empty()) {
    out.category = category;
  }
  out.hint = "To add reference files, templates or scripts, use skill_manage(action='write_file', name='" + name +
             "', file_path='references/example.md', file_content='...').";
  out.warnings = std::move(warnings);
  return out;
}

} // namespace skillrt::core
