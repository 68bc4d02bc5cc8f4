// write_file (spec §2.10 rule 15): create or replace one supporting file (or
// SKILL.md itself, with edit's checks) inside an existing skill.
#include <system_error>

#include "core/manage/actions.hpp"
#include "core/manage/content_checks.hpp"
#include "core/manage/file_path_rules.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/transaction.hpp"
#include "core/manage/write_session.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace fs = std::filesystem;

ManageResult manage_write_file(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  auto file = check_manage_file_path(*request.file_path);
  if (!file) {
    return manage_failure(file.error().code, file.error().message);
  }
  const std::string& content = *request.file_content;
  if (file->is_skill_md) {
    if (auto ok = check_skill_frontmatter(content); !ok) {
      return manage_failure(std::move(ok.error()));
    }
    if (auto ok = check_content_chars(content, "SKILL.md"); !ok) {
      return manage_failure(std::move(ok.error()));
    }
  } else if (auto ok = check_file_content(content, file->rel); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  const Layer layer = manage_target_layer(ctx, request);
  auto session = open_skill_for_write(ctx, cfg, request.name, file->rel, true, layer);
  if (!session) {
    return std::move(session.error());
  }
  const ManagedSkill& skill = session->skill;
  const std::filesystem::path& target = session->target;
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    return manage_failure(ErrorCode::refused, "'" + sanitize_utf8(file->rel) + "' exists in skill " +
                                                  quoted_name(request.name) + " and is not a regular file.");
  }
  const fs::path skill_root = fs::canonical(skill.dir, ec);
  if (ec) {
    return manage_failure(ErrorCode::io_error, "Cannot resolve " + skill.dir.string() + ": " + ec.message());
  }
  ManageLedgerRecord record(ctx, request, layer, skill.root, skill.dir, true);
  FileTransaction transaction;
  if (auto made = transaction.make_parents(target, skill_root); !made) {
    transaction.rollback();
    return manage_failure(made.error().code, made.error().message);
  }
  auto warnings = write_and_settle(ctx, cfg, *session, request.confirm, transaction, content);
  if (!warnings) {
    return std::move(warnings.error());
  }
  record.commit(*warnings);
  ManageResult out;
  out.success = true;
  out.message = "File '" + sanitize_utf8(*request.file_path) + "' written to skill " + quoted_name(request.name) + ".";
  out.path = target.string();
  out.changed_skill_md = skill.skill_md.string();
  out.warnings = std::move(*warnings);
  return out;
}

} // namespace skillrt::core
