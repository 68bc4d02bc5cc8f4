// JSON of the per-user todo tool (`skillrt --json todo …`), shaped like the
// Hermes `todo` tool's answers.
#pragma once

#include <string_view>
#include <vector>

#include "core/todo/todo.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success: true, todos: [{id, content, status}], summary: {total, pending, in_progress, completed, cancelled}}
Json todo_list_json(const std::vector<core::TodoItem>& items);

// The items of a write: a JSON array of {id, content?, status?}, or an object
// {"todos": [...]} (the tool call's own shape). invalid_argument on a bad shape
// or an unknown status; parse_error when `text` is not JSON.
Result<std::vector<core::TodoUpdate>> todo_updates_from_json(const Json& items);
Result<std::vector<core::TodoUpdate>> parse_todo_updates(std::string_view text);

} // namespace skillrt::protocol
