// patch (spec §2.10 rule 13): a fuzzy find-and-replace (spec §2.11) in SKILL.md
// or one supporting file; the result must still pass every content check.
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/manage/actions.hpp"
#include "core/manage/content_checks.hpp"
#include "core/manage/file_path_rules.hpp"
#include "core/manage/ledger_hook.hpp"
#include "core/manage/transaction.hpp"
#include "core/manage/write_session.hpp"
#include "core/patch/fuzzy_replace.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_did_you_mean = "\n\nDid you mean one of these sections?\n";
constexpr std::string_view k_change_ellipsis = "\xE2\x80\xA6"; // …

// A pattern or replacement longer than any file we accept cannot be meant:
// refuse it before the matcher spends time on it.
Result<void> check_patch_string(std::string_view text, std::string_view label) {
  if (text.size() <= limits::k_max_skill_content_chars) {
    return {};
  }
  const std::size_t chars = count_chars(text);
  if (chars <= limits::k_max_skill_content_chars) {
    return {};
  }
  return fail(ErrorCode::limit_exceeded, std::string(label) + " is " + with_thousands(chars) + " characters (limit: " +
                                             with_thousands(limits::k_max_skill_content_chars) +
                                             "); no skill file can be that long.");
}

} // namespace

ManageResult manage_patch(const Context& ctx, const Config& cfg, const ManageRequest& request) {
  const std::string& old_string = *request.old_string;
  const std::string& new_string = *request.new_string;
  if (auto ok = check_patch_string(old_string, "old_string"); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  if (auto ok = check_patch_string(new_string, "new_string"); !ok) {
    return manage_failure(std::move(ok.error()));
  }
  ManagedFilePath file{"SKILL.md", true};
  if (request.file_path) {
    auto checked = check_manage_file_path(*request.file_path);
    if (!checked) {
      return manage_failure(checked.error().code, checked.error().message);
    }
    file = std::move(*checked);
  }
  const Layer layer = manage_target_layer(ctx, request);
  auto session = open_skill_for_write(ctx, cfg, request.name, file.rel, false, layer);
  if (!session) {
    return std::move(session.error());
  }
  const std::filesystem::path& target = session->target;
  std::error_code ec;
  if (!fs::is_regular_file(target, ec)) {
    return manage_failure(ErrorCode::not_found, "File not found: " + sanitize_utf8(file.rel));
  }
  // Read under the lock: a second writer's update is in what we patch.
  auto current = read_regular_file(target, limits::k_max_skill_file_bytes);
  if (!current) {
    return manage_failure(current.error().code, current.error().message);
  }
  auto replaced = fuzzy_find_replace(*current, old_string, new_string, request.replace_all);
  if (!replaced) {
    std::string error = replaced.error().message;
    if (replaced.error().code == ErrorCode::not_found) {
      const std::string hint = did_you_mean(*current, old_string);
      if (!hint.empty()) {
        error += std::string(k_did_you_mean) + hint;
      }
    }
    ManageResult out = manage_failure(ErrorCode::not_found, sanitize_utf8(error));
    out.file_preview = preview_chars(*current, limits::k_manage_file_preview_chars, "...");
    return out;
  }
  const std::string& patched = replaced->content;
  if (file.is_skill_md) {
    if (auto ok = check_content_chars(patched, "SKILL.md"); !ok) {
      return manage_failure(std::move(ok.error()));
    }
    if (auto ok = check_skill_frontmatter(patched); !ok) {
      return manage_failure(ErrorCode::invalid_argument, "Patch would break SKILL.md structure: " + ok.error().message);
    }
  } else if (auto ok = check_file_content(patched, file.rel); !ok) {
    return manage_failure(std::move(ok.error()));
  }

  ManageLedgerRecord record(ctx, request, layer, session->skill.root, session->skill.dir, true);
  FileTransaction transaction;
  auto warnings = write_and_settle(ctx, cfg, *session, request.confirm, transaction, patched);
  if (!warnings) {
    return std::move(warnings.error());
  }
  record.commit(*warnings);
  ManageResult out;
  out.success = true;
  out.message = "Patched " + sanitize_utf8(file.rel) + " in skill " + quoted_name(request.name) + " (" +
                std::to_string(replaced->count) + (replaced->count == 1 ? " replacement" : " replacements") + ").";
  out.change_old = preview_chars(old_string, limits::k_manage_change_preview_chars, k_change_ellipsis);
  out.change_new = preview_chars(new_string, limits::k_manage_change_preview_chars, k_change_ellipsis);
  out.replacements = replaced->count;
  out.strategy = replaced->strategy;
  out.changed_skill_md = session->skill.skill_md.string();
  out.warnings = std::move(*warnings);
  return out;
}

} // namespace skillrt::core
