// remove_file (spec §2.10 rule 16): unlink one supporting file and the folder
// it leaves empty (never the skill folder itself).
#include <system_error>

#include "core/manage/actions.hpp"
#include "core/manage/file_path_rules.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/transaction.hpp"
#include "core/manage/write_session.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace fs = std::filesystem;

ManageResult manage_remove_file(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  auto file = check_manage_file_path(*request.file_path);
  if (!file) {
    return manage_failure(file.error().code, file.error().message);
  }
  if (file->is_skill_md) {
    return manage_failure(ErrorCode::refused,
                          "SKILL.md cannot be removed on its own; use action='delete' to delete the whole skill.");
  }
  const Layer layer = manage_target_layer(ctx, request);
  auto session = open_skill_for_write(ctx, cfg, request.name, file->rel, false, layer);
  if (!session) {
    return std::move(session.error());
  }
  const ManagedSkill& skill = session->skill;
  const std::filesystem::path& target = session->target;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(target, ec))) {
    ManageResult out =
        manage_failure(ErrorCode::not_found, "File '" + sanitize_utf8(*request.file_path) + "' not found in skill " +
                                                 quoted_name(request.name) + ".");
    out.has_available_files = true;
    out.available_files = files_in_allowed_subdirs(skill.dir);
    return out;
  }
  ManageLedgerRecord record(ctx, request, layer, skill.root, skill.dir, true);
  FileTransaction transaction;
  if (auto removed = transaction.remove(target); !removed) {
    return manage_failure(removed.error().code, removed.error().message);
  }
  transaction.commit();
  const fs::path parent = target.parent_path();
  const fs::path skill_root = fs::canonical(skill.dir, ec);
  if (!ec && parent != skill_root && fs::is_empty(parent, ec) && !ec) {
    fs::remove(parent, ec);
  }
  invalidate_skill_caches(ctx);
  ManageResult out;
  record.commit(out.warnings);
  out.success = true;
  out.message =
      "File '" + sanitize_utf8(*request.file_path) + "' removed from skill " + quoted_name(request.name) + ".";
  out.changed_skill_md = skill.skill_md.string();
  return out;
}

} // namespace skillrt::core
