// JSON of the skills index (`skillrt --json prompt`).
#pragma once

#include "core/prompt/index_render.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success, prompt, skills_count, categories, demoted, elided:[{category, skills}], chars}
Json prompt_json(const core::RenderedIndex& index);

} // namespace skillrt::protocol
