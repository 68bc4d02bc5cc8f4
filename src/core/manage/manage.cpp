#include "core/manage/actions.hpp"
#include "core/manage/folder_owners.hpp"
#include "core/manage/guard_hook.hpp"
#include "core/manage/manage_request.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/events/event_bus.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

const char* manage_action_name(ManageAction action) {
  switch (action) {
  case ManageAction::create:
    return "create";
  case ManageAction::edit:
    return "edit";
  case ManageAction::patch:
    return "patch";
  case ManageAction::remove_skill:
    return "delete";
  case ManageAction::write_file:
    return "write_file";
  case ManageAction::remove_file:
    return "remove_file";
  }
  return "unknown";
}

ManageResult manage_failure(ErrorCode code, std::string error) {
  ManageResult out;
  out.success = false;
  out.code = code;
  out.error = std::move(error);
  return out;
}

ManageResult manage_failure(Error error) {
  return manage_failure(error.code, std::move(error.message));
}

std::string quoted_name(const std::string& name) {
  return "'" + sanitize_utf8(name) + "'";
}

std::optional<ManageResult> settle_write(const Context& ctx, const Config& cfg, const std::filesystem::path& skill_dir,
                                         bool confirmed, const std::function<std::vector<std::string>()>& undo,
                                         std::vector<std::string>& warnings) {
  const GuardVerdict verdict = guard_agent_write(cfg, skill_dir, confirmed);
  if (verdict.kind == GuardVerdict::Kind::blocked || verdict.kind == GuardVerdict::Kind::needs_confirmation) {
    const std::vector<std::string> problems = undo();
    // Even a refused write may have been visible for a moment.
    invalidate_skill_caches(ctx);
    ManageResult out;
    if (verdict.kind == GuardVerdict::Kind::blocked) {
      out = manage_failure(ErrorCode::refused,
                           "Security scan blocked this skill (" + verdict.reason + "):\n" + verdict.report);
    } else {
      out = manage_failure(ErrorCode::refused,
                           "Security scan needs confirmation for this skill (" + verdict.reason + "):\n" +
                               verdict.report +
                               "\nThe change was rolled back. Review the findings; to keep it anyway, repeat the "
                               "same call with confirm=true (CLI: --confirm).");
      out.confirmation_required = true;
    }
    out.scan_report = verdict.report;
    for (const std::string& problem : problems) {
      out.warnings.push_back("rollback incomplete: " + problem);
    }
    return out;
  }
  if (verdict.kind == GuardVerdict::Kind::scanner_failed) {
    warnings.push_back(verdict.warning);
  }
  invalidate_skill_caches(ctx);
  return std::nullopt;
}

Layer manage_target_layer(const Context& ctx, const ManageRequest& request) {
  if (request.layer) {
    return *request.layer;
  }
  return ctx.user_id ? Layer::user : Layer::shared;
}

Operation manage_operation(ManageAction action) {
  switch (action) {
  case ManageAction::create:
    return Operation::create;
  case ManageAction::remove_skill:
    return Operation::remove;
  case ManageAction::edit:
  case ManageAction::patch:
  case ManageAction::write_file:
  case ManageAction::remove_file:
    return Operation::update;
  }
  return Operation::update;
}

namespace {

ChangeKind change_kind_of(ManageAction action) {
  switch (manage_operation(action)) {
  case Operation::create:
    return ChangeKind::created;
  case Operation::remove:
    return ChangeKind::deleted;
  default:
    return ChangeKind::updated;
  }
}

ManageResult dispatch(const Context& ctx, const Config& cfg, const ManageRequest& request);

// A folder policy with owners (skills.folders.<f>.owners) lets only them
// change the skills under it. Looked up only when some policy names owners,
// so homes without any pay nothing.
Result<void> check_folder_owners(const Context& ctx, const Config& cfg, const ManageRequest& request, Layer layer) {
  if (!any_folder_owners(cfg)) {
    return {};
  }
  if (request.action == ManageAction::create) {
    // A new skill's top-level folder: its provenance folder, else its category.
    return check_folder_owner(ctx, cfg, request.folder.value_or(request.category.value_or("")));
  }
  const Catalog catalog = manage_catalog(ctx, cfg);
  auto located = locate_managed_skill(ctx, catalog, request.name, false, layer);
  if (!located) {
    return {};  // the action reports the lookup failure itself
  }
  return check_folder_owner(ctx, cfg, located->dir.lexically_relative(located->root).generic_string());
}

} // namespace

ManageResult manage_skill(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  // The permission matrix before anything is read: a refused actor learns
  // nothing about what the layer holds.
  const Layer layer = manage_target_layer(ctx, request);
  const std::string owner = layer == Layer::user && ctx.user_id ? *ctx.user_id : std::string();
  if (auto allowed = check_permission(ctx, manage_operation(request.action), layer, owner); !allowed) {
    return manage_failure(allowed.error().code, allowed.error().message);
  }
  if (auto owned = check_folder_owners(ctx, cfg, request, layer); !owned) {
    return manage_failure(owned.error());
  }
  ManageResult out = dispatch(ctx, cfg, request);
  if (out.success && out.changed_skill_md) {
    const std::filesystem::path skill_md(*out.changed_skill_md);
    SkillEvent event;
    event.kind = change_kind_of(request.action);
    event.layer = layer;
    event.owner = owner;
    event.name = skill_md.parent_path().filename().string();
    event.location = *out.changed_skill_md;
    publish_change(ctx, std::move(event));
  }
  return out;
}

namespace {

ManageResult dispatch(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  // Argument checks of the dispatcher (spec §2.10 rule 3), before anything is looked up.
  switch (request.action) {
  case ManageAction::create:
  case ManageAction::edit:
    if (!request.content) {
      return manage_failure(ErrorCode::invalid_argument,
                            std::string("content is required for '") + manage_action_name(request.action) + "'.");
    }
    break;
  case ManageAction::patch:
    if (!request.old_string) {
      return manage_failure(ErrorCode::invalid_argument, "old_string is required for 'patch'.");
    }
    if (!request.new_string) {
      return manage_failure(ErrorCode::invalid_argument,
                            "new_string is required for 'patch'. Use an empty string to delete the matched text.");
    }
    break;
  case ManageAction::write_file:
    if (!request.file_path) {
      return manage_failure(ErrorCode::invalid_argument, "file_path is required for 'write_file'.");
    }
    if (!request.file_content) {
      return manage_failure(ErrorCode::invalid_argument, "file_content is required for 'write_file'.");
    }
    break;
  case ManageAction::remove_file:
    if (!request.file_path) {
      return manage_failure(ErrorCode::invalid_argument, "file_path is required for 'remove_file'.");
    }
    break;
  case ManageAction::remove_skill:
    break;
  }
  switch (request.action) {
  case ManageAction::create:
    return manage_create(ctx, cfg, request);
  case ManageAction::edit:
    return manage_edit(ctx, cfg, request);
  case ManageAction::patch:
    return manage_patch(ctx, cfg, request);
  case ManageAction::remove_skill:
    return manage_delete(ctx, cfg, request);
  case ManageAction::write_file:
    return manage_write_file(ctx, cfg, request);
  case ManageAction::remove_file:
    return manage_remove_file(ctx, cfg, request);
  }
  return manage_failure(ErrorCode::invalid_argument,
                        "Unknown action. Use: create, edit, patch, delete, write_file, remove_file");
}

} // namespace

} // namespace skillrt::core
