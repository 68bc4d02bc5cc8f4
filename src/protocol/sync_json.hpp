// JSON of `sync` and `reset` (bundled skills, spec §2.13 rules 9 and 11) and
// of the other operations of rule 12 (`sync --diff/--modified/--opt-out/--prune`).
#pragma once

#include <string_view>

#include "core/sync/bundled_inspect.hpp"
#include "core/sync/bundled_opt_out.hpp"
#include "core/sync/bundled_prune.hpp"
#include "core/sync/bundled_reset.hpp"
#include "core/sync/bundled_sync.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success (no per-skill errors), error (only when not success), copied,
// updated, skipped, user_modified, cleaned, relocated, symlinked,
// total_bundled, shadowed_by_external, skipped_opt_out, bundled_dir,
// descriptions_copied, warnings, errors}: names as arrays, counts as ints.
Json sync_result_json(const core::sync::SyncResult& result);

// {success (= ok), error (only when not ok: the message), name, action,
// message, synced (sync_result_json without its success/error, or null)}.
Json reset_result_json(const core::sync::ResetResult& result, std::string_view name);

// {success: true, name, path, bundled_path, tracked, origin_known, state
// (matches_bundled|pristine|user_modified, null when not tracked), identical,
// files: [{path, change, added, removed}], diff (unified text, from the
// shipped version to the copy), diff_truncated}.
Json bundled_diff_json(const core::sync::BundledDiff& diff);

// {success (no errors), error (only when not success), modified: [{name, path,
// origin_known}], symlinked, total_bundled, bundled_dir, errors}.
Json modified_report_json(const core::sync::ModifiedReport& report);

// {success: true, action, message, opted_out, changed, marker}.
Json opt_out_result_json(const core::sync::OptOutResult& result);

// {success (no errors), error (only when not success), dry_run, removed:
// [{name, path}], kept_differing, symlinked, bundled_dir, errors}.
Json prune_result_json(const core::sync::PruneResult& result);

} // namespace skillrt::protocol
