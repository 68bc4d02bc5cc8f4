// GET /api/v1/memory and GET /api/v1/todo: the caller's memory stores and
// todo list, read only (agents write them through their own tools), as
// `skillrt --json memory` and `skillrt --json todo` show them.
#include "api/routes.hpp"
#include "core/memory/memory.hpp"
#include "core/todo/todo.hpp"
#include "protocol/memory_json.hpp"
#include "protocol/todo_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse memory(const RestApiServices&, ApiCall& call) {
  if (auto refused = require_user(call, "memory")) {
    return *refused;
  }
  core::MemoryRequest request;
  request.action = core::MemoryAction::list;
  auto result = core::run_memory(call.ctx, request);
  if (!result) {
    return error_answer(result.error());
  }
  return json_answer(200, protocol::memory_overview_json(result->stores));
}

ApiResponse todo(const RestApiServices&, ApiCall& call) {
  if (auto refused = require_user(call, "the todo list")) {
    return *refused;
  }
  auto items = core::todo_read(call.ctx);
  if (!items) {
    return error_answer(items.error());
  }
  return json_answer(200, protocol::todo_list_json(*items));
}

}  // namespace

void add_user_data_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/memory", [&services](ApiCall& call) { return memory(services, call); });
  router.add("GET", "/api/v1/todo", [&services](ApiCall& call) { return todo(services, call); });
}

}  // namespace skillrt::api
