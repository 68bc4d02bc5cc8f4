// JSON of `sync` and `reset` (bundled skills, spec §2.13 rules 9 and 11).
#pragma once

#include <string_view>

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

} // namespace skillrt::protocol
