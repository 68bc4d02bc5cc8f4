// JSON of the per-user memory tool (`skillrt --json memory …`), shaped like
// the Hermes `memory` tool's answers.
#pragma once

#include "core/memory/memory.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success: true, target, entries: [...], usage: "N/LIMIT", message}
Json memory_result_json(const core::MemoryResult& result);

// Both stores at once (list without a target):
// {success: true, targets: {memory: {entries, usage}, user: {entries, usage}}}
Json memory_overview_json(const core::MemoryStores& stores);

// A tool call's arguments {action, target, content?, old_text?} as a request
// (what a server receives from the model). invalid_argument on a bad shape.
Result<core::MemoryRequest> memory_request_from_json(const Json& arguments);

} // namespace skillrt::protocol
