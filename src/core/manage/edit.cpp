// edit (spec §2.10 rule 12): a full rewrite of SKILL.md, in place in whatever
// tier the skill lives in.
#include "core/limits.hpp"
#include "core/manage/actions.hpp"
#include "core/manage/content_checks.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/transaction.hpp"
#include "core/manage/write_session.hpp"

namespace skillrt::core {

ManageResult manage_edit(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  const std::string& content = *request.content;
  if (auto ok = check_skill_frontmatter(content); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  if (auto ok = check_content_chars(content, "SKILL.md"); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  const Layer layer = manage_target_layer(ctx, request);
  auto session = open_skill_for_write(ctx, cfg, request.name, std::string("SKILL.md"), false, layer);
  if (!session) {
    return std::move(session.error());
  }
  const ManagedSkill& skill = session->skill;
  ManageLedgerRecord record(ctx, request, layer, skill.root, skill.dir, true);
  FileTransaction transaction;
  auto warnings = write_and_settle(ctx, cfg, *session, request.confirm, transaction, content);
  if (!warnings) {
    return std::move(warnings.error());
  }
  record.commit(*warnings);
  ManageResult out;
  out.success = true;
  out.message = "Skill " + quoted_name(request.name) + " updated (full rewrite).";
  out.path = skill.dir.string();
  out.change_description =
      preview_chars(frontmatter_description_of(content), limits::k_manage_description_preview_chars, "");
  out.full_rewrite_change = true;
  out.changed_skill_md = skill.skill_md.string();
  out.warnings = std::move(*warnings);
  return out;
}

} // namespace skillrt::core
