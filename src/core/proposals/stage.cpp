#include "core/proposals/stage.hpp"

#include <system_error>

#include "core/diff/unified_diff.hpp"
#include "core/files/private_temp_dir.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/proposals/decide.hpp"
#include "core/proposals/proposal_store.hpp"
#include "core/sync/copy_tree.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/util/utc_time.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

// The one line a person reads in the inbox list.
std::string gist_of(const ManageRequest& request, const diff::TreeDiff& change) {
  std::size_t added = 0;
  std::size_t removed = 0;
  for (const diff::FileDiff& file : change.files) {
    added += file.added_lines;
    removed += file.removed_lines;
  }
  std::string gist = std::string(manage_action_name(request.action)) + " '" + sanitize_utf8(request.name) + "'";
  if (request.file_path) {
    gist += " " + sanitize_utf8(*request.file_path);
  }
  gist += " (+" + std::to_string(added) + " -" + std::to_string(removed) + " lines";
  if (change.files.size() != 1) {
    gist += ", " + std::to_string(change.files.size()) + " files";
  }
  return gist + ")";
}

// What the sandbox run reports.
struct SandboxRun {
  ManageResult result;
  bool guard_asks = false;
  fs::path result_dir;  // the skill folder after the write (may be missing: a delete)
};

}  // namespace

std::string staged_message(const Proposal& proposal) {
  std::string text = "Staged for approval as proposal " + proposal.id + ": " + proposal.gist +
                     ". Nothing is live until a person approves it (skillrt pending approve " + proposal.id + ").";
  if (proposal.state == ProposalState::quarantined) {
    text = "The security scan refused this change; it was quarantined as proposal " + proposal.id +
           " and will not be applied:\n" + proposal.scan_report;
  }
  return text;
}

StageOutcome stage_proposal(const Context& ctx, const Config& cfg, const ManageRequest& request,
                            const StageOptions& options) {
  const Layer layer = manage_target_layer(ctx, request);
  const std::string owner = layer == Layer::user && ctx.user_id ? *ctx.user_id : std::string();
  // The same permission manage would ask: a proposal nobody could apply is refused now.
  if (auto allowed = check_permission(ctx, manage_operation(request.action), layer, owner); !allowed) {
    return manage_failure(allowed.error());
  }

  // Where the target is now, and its identity.
  fs::path target_dir;
  fs::path target_root;
  if (request.action != ManageAction::create) {
    const Catalog catalog = manage_catalog(ctx, cfg);
    auto located = locate_managed_skill(ctx, catalog, request.name, request.action == ManageAction::write_file, layer);
    if (!located) {
      return located.error();
    }
    target_dir = located->dir;
    target_root = located->root;
  } else {
    const Catalog catalog = manage_catalog(ctx, cfg);
    if (auto located = locate_managed_skill(ctx, catalog, request.name, false, std::nullopt); located) {
      return manage_failure(ErrorCode::refused, "A skill named '" + sanitize_utf8(request.name) +
                                                    "' already exists at " + sanitize_utf8(located->dir.string()) +
                                                    ".");
    }
  }

  Result<PrivateTempDir> sandbox = PrivateTempDir::create("skillrt-proposal");
  if (!sandbox) {
    return manage_failure(sandbox.error());
  }
  Context box_ctx;
  box_ctx.home = sandbox->path() / "home";
  box_ctx.os = ctx.os;
  box_ctx.platform = ctx.platform;
  box_ctx.cwd = sandbox->path();
  box_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  box_ctx.org_id = "0";
  Config box_cfg = cfg;
  box_cfg.skills.external_dirs.clear();
  box_cfg.skills.trusted_project_dirs.clear();
  box_cfg.skills.project_discovery = false;
  box_cfg.skills.disabled.clear();
  box_cfg.skills.platform_disabled.clear();
  box_cfg.skills.guard_agent_created = true;  // every proposal carries the guard's verdict

  std::error_code ec;
  fs::create_directories(box_ctx.skills_dir(), ec);
  if (ec) {
    return manage_failure(ErrorCode::io_error, "cannot prepare the proposal sandbox: " + ec.message());
  }
  fs::path rel;
  if (!target_dir.empty()) {
    rel = target_dir.lexically_relative(target_root);
    fs::create_directories((box_ctx.skills_dir() / rel).parent_path(), ec);
    if (ec) {
      return manage_failure(ErrorCode::io_error, "cannot prepare the proposal sandbox: " + ec.message());
    }
    if (auto copied = sync::copy_skill_tree(target_dir, box_ctx.skills_dir() / rel); !copied) {
      return manage_failure(copied.error());
    }
  }

  ManageRequest box_request = request;
  box_request.layer.reset();
  box_request.confirm = false;
  SandboxRun run;
  run.result = manage_skill(box_ctx, box_cfg, box_request);
  if (!run.result.success && run.result.confirmation_required) {
    // The guard asks: compute the change anyway; a person's approval is the confirmation.
    box_request.confirm = true;
    run.result = manage_skill(box_ctx, box_cfg, box_request);
    run.guard_asks = true;
  }

  Proposal proposal;
  proposal.id = new_proposal_id();
  proposal.origin = options.origin;
  proposal.user_id = ctx.user_id.value_or("");
  proposal.layer = layer;
  proposal.request = request;
  proposal.request.layer = layer;
  proposal.request.confirm = false;
  proposal.skill = request.name;
  proposal.skill_path = rel.generic_string();
  proposal.conversation = options.conversation;
  proposal.created_at = utc_now_iso8601();
  if (!target_dir.empty()) {
    Result<std::string> hash = hub::bundle_content_hash(target_dir);
    if (!hash) {
      return manage_failure(hash.error());
    }
    proposal.before_hash = *hash;
  }

  if (!run.result.success) {
    if (!run.result.scan_report) {
      return run.result;  // manage's own refusal: the model can fix its call
    }
    // The guard blocked the result: keep it, quarantined, for the record.
    proposal.state = ProposalState::quarantined;
    proposal.verdict = "dangerous";
    proposal.scan_report = *run.result.scan_report;
    proposal.reason = run.result.error;
    proposal.gist = std::string(manage_action_name(request.action)) + " '" + sanitize_utf8(request.name) +
                    "' (blocked by the security scan)";
    if (auto saved = save_proposal(ctx, proposal); !saved) {
      return manage_failure(saved.error());
    }
    return proposal;
  }

  if (request.action == ManageAction::create && run.result.skill_md) {
    run.result_dir = fs::path(*run.result.skill_md).parent_path();
    proposal.skill_path = run.result_dir.lexically_relative(box_ctx.skills_dir()).generic_string();
  } else if (!rel.empty()) {
    run.result_dir = box_ctx.skills_dir() / rel;
  }
  if (fs::exists(run.result_dir, ec)) {
    Result<std::string> hash = hub::bundle_content_hash(run.result_dir);
    if (!hash) {
      return manage_failure(hash.error());
    }
    proposal.after_hash = *hash;
    ScanOptions scan_options;
    scan_options.source = "agent-created";
    if (Result<ScanResult> scan = scan_skill(run.result_dir, scan_options); scan) {
      proposal.verdict = verdict_name(scan->verdict);
      if (scan->verdict != Verdict::safe) {
        proposal.scan_report = format_scan_report(*scan, decide_install(*scan, false));
      }
    } else {
      proposal.verdict = "unknown";
      proposal.scan_report = "the security scan failed: " + scan.error().message;
    }
  } else {
    proposal.verdict = "safe";  // a delete leaves nothing to scan
  }
  proposal.guard_asks = run.guard_asks;
  const diff::TreeDiff change = diff::diff_trees(target_dir, run.result_dir);
  proposal.diff = change.text;
  proposal.gist = gist_of(request, change);
  if (run.guard_asks && (options.origin == WriteOrigin::review || options.origin == WriteOrigin::curator)) {
    // A live agent's "ask" is a question to the person at hand; the review
    // runs unattended, so a dangerous verdict on its change is quarantined
    // (kept with its diff and report, never applied).
    proposal.state = ProposalState::quarantined;
    proposal.reason = "the security scan found dangerous content in a background review's change";
    proposal.decided_at = proposal.created_at;
  }
  if (auto saved = save_proposal(ctx, proposal); !saved) {
    return manage_failure(saved.error());
  }
  return proposal;
}

}  // namespace skillrt::core
