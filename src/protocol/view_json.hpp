// skill_view as Hermes' JSON, keys in Hermes' order (plus our `source` last).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/view/failure.hpp"
#include "core/view/skill_view.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success:false, error, [matches], [available_skills], [available_files], [readiness_status], [hint]}.
Json view_failure_json(const core::ViewFailure& failure);

// The success object for a main document or a served file.
Json skill_document_json(const core::SkillDocument& doc);
Json skill_file_json(const core::SkillFile& file);

// Runs core::view_skill and maps the answer; warnings are for stderr, never in the JSON.
Json skill_view_json(const core::Context& ctx, const core::Config& cfg, std::string_view name,
                     const std::optional<std::string>& file_path, std::vector<std::string>& warnings);

} // namespace skillrt::protocol
