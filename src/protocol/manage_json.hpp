// skill_manage as Hermes' JSON (spec §2.10): same field names and order, our
// extras (replacements, strategy, confirmation_required, scan_report, warnings) last.
#pragma once

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// Maps one result: {success:true, message, path?, skill_md?, _change?, category?, hint?, ...}
// or {success:false, error, matches?, available_skills?, available_files?, file_preview?, hint?, ...}.
Json manage_result_json(const core::ManageResult& result);

// Runs core::manage_skill and maps the answer.
Json skill_manage_json(const core::Context& ctx, const core::Config& cfg, const core::ManageRequest& request);

} // namespace skillrt::protocol
