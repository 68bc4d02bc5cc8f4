#include "core/curator/skill_move.hpp"

#include <system_error>

#include "core/files/fsync_dir.hpp"
#include "core/files/rename.hpp"
#include "core/guard/guard.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/manage/folder_owners.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/manage/skill_lock.hpp"
#include "core/prompt/invalidate.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/validate/validator.hpp"
#include "core/util/utf8.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

bool plain_segment(const std::string& folder) {
  return !folder.empty() && folder != "." && folder != ".." && folder.find('/') == std::string::npos &&
         folder.find('\\') == std::string::npos && folder.front() != '.' && folder.find('\0') == std::string::npos;
}

}  // namespace

Result<SkillMove> move_skill_to_folder(const Context& ctx, const Config& cfg, const std::string& name,
                                       const std::string& folder, const MoveOptions& options) {
  const bool to_top = folder.empty() || folder == ".";
  if (!to_top && !plain_segment(folder)) {
    return fail(ErrorCode::invalid_argument,
                "'" + sanitize_utf8(folder) + "' is not a folder name: give one top-level folder such as generated");
  }
  const Layer layer = ctx.user_id ? Layer::user : Layer::shared;
  const std::string owner = layer == Layer::user ? *ctx.user_id : std::string();
  SKILLRT_TRY(check_permission(ctx, Operation::update, layer, owner));
  const Catalog catalog = manage_catalog(ctx, cfg);
  auto located = locate_managed_skill(ctx, catalog, name, false, layer);
  if (!located) {
    return fail(located.error().code, located.error().error);
  }
  if (located->tier != Tier::local && located->tier != Tier::user) {
    return fail(ErrorCode::refused, "'" + sanitize_utf8(name) +
                                        "' lives outside your skills folder (an external or project directory); "
                                        "only skills in it can be moved");
  }
  // Owners of a folder decide what enters it, and what leaves it.
  const std::string from_rel = located->dir.lexically_relative(located->root).generic_string();
  SKILLRT_TRY(check_folder_owner(ctx, cfg, from_rel));
  if (!to_top) {
    SKILLRT_TRY(check_folder_owner(ctx, cfg, folder + "/"));
  }
  const fs::path target_parent = to_top ? located->root : located->root / folder;
  const fs::path target = target_parent / located->dir.filename();
  if (target == located->dir) {
    return fail(ErrorCode::invalid_argument, "'" + sanitize_utf8(name) + "' is already there");
  }

  SkillMove move;
  move.name = located->dir.filename().string();
  move.from = located->dir;
  move.to = target;
  // The skill must stand on its own before it moves.
  const ValidationReport report = validate_skill(located->dir, ValidateOptions{});
  if (!report.valid()) {
    return fail(ErrorCode::refused, "'" + sanitize_utf8(name) + "' does not validate; fix it first (skillrt validate " +
                                        located->dir.string() + ")");
  }
  if (options.scan) {
    ScanOptions scan_options;
    scan_options.source = "agent-created";
    SKILLRT_TRY_ASSIGN(ScanResult scan, scan_skill(located->dir, scan_options));
    move.verdict = verdict_name(scan.verdict);
    if (scan.verdict == Verdict::dangerous) {
      return fail(ErrorCode::refused, "the security scan finds '" + sanitize_utf8(name) +
                                          "' dangerous; it is not moved:\n" +
                                          format_scan_report(scan, decide_install(scan, false)));
    }
  }
  SKILLRT_TRY_ASSIGN(SkillLock lock, SkillLock::acquire(ctx, located->dir));
  std::error_code ec;
  fs::create_directories(target_parent, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + target_parent.string() + ": " + ec.message());
  }
  // The ledger sees a move as the skill leaving one place and arriving at
  // the other: two entries with the same content, each naming both paths.
  LedgerWho who;
  who.actor = options.actor;
  who.action = options.action;
  who.layer = layer;
  who.note = "moved " + from_rel + " -> " + target.lexically_relative(located->root).generic_string();
  LedgerFolderRecord leaving(ctx, who, located->root, located->dir, true);
  LedgerFolderRecord arriving(ctx, who, located->root, target, false);
  SKILLRT_TRY(files::move_durably(located->dir, target, files::Replace::refuse));
  for (auto* record : {&leaving, &arriving}) {
    if (auto warning = record->commit(record == &leaving)) {
      move.warnings.push_back(*warning);
    }
  }
  invalidate_skill_caches(ctx);
  return move;
}

}  // namespace skillrt::core
