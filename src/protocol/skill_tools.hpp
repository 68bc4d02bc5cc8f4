// The skill tools as a model sees them, shared by every front end that offers
// them (the MCP server's tools/list, the background review's tool list): their
// schemas, and skill_manage's arguments read into a core request with the
// messages the model is shown when they are wrong.
#pragma once

#include <optional>
#include <string>

#include "core/manage/manage_request.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// [{name, title, description, inputSchema, read_only}] for skills_list,
// skill_view, skill_manage and skills_search, in that order.
Json skill_tool_definitions();

// The memory tool's definition in the same shape (the review offers it).
Json memory_tool_definition();

// An optional string argument of a tool call: nullopt when absent or null;
// `error` keeps the first "Argument 'x' must be a string." the model is told.
std::optional<std::string> string_argument(const Json& args, const char* key, std::string& error);

// skill_manage's JSON arguments → a request; the error text is what the
// model is told ("Argument 'x' must be a string.", "Unknown action ...").
Result<core::ManageRequest> manage_request_from_json(const Json& args);

}  // namespace skillrt::protocol
