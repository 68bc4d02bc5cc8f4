#include "protocol/todo_json.hpp"

#include "protocol/error_json.hpp"

namespace skillrt::protocol {
Json todo_list_json(const std::vector<core::TodoItem>& items) {
  Json out = Json::object();
  out["success"] = true;
  Json todos = Json::array();
  for (const core::TodoItem& item : items) {
    Json entry = Json::object();
    entry["id"] = item.id;
    entry["content"] = item.content;
    entry["status"] = core::todo_status_name(item.status);
    todos.push_back(std::move(entry));
  }
  out["todos"] = std::move(todos);
  const core::TodoSummary summary = core::summarize_todos(items);
  Json counts = Json::object();
  counts["total"] = summary.total;
  counts["pending"] = summary.pending;
  counts["in_progress"] = summary.in_progress;
  counts["completed"] = summary.completed;
  counts["cancelled"] = summary.cancelled;
  out["summary"] = std::move(counts);
  return out;
}

Result<std::vector<core::TodoUpdate>> todo_updates_from_json(const Json& items) {
  const Json* list = &items;
  if (items.is_object()) {
    const auto it = items.find("todos");
    if (it == items.end()) {
      return fail(ErrorCode::invalid_argument, "the items object has no \"todos\" list");
    }
    list = &*it;
  }
  if (!list->is_array()) {
    return fail(ErrorCode::invalid_argument, "the items must be a JSON array of {id, content, status}");
  }
  std::vector<core::TodoUpdate> updates;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    const std::string where = "item " + std::to_string(i + 1);
    if (!entry.is_object()) {
      return fail(ErrorCode::invalid_argument, where + " is not an object");
    }
    core::TodoUpdate update;
    const auto id = entry.find("id");
    if (id == entry.end() || !(id->is_string() || id->is_number_integer())) {
      return fail(ErrorCode::invalid_argument, where + " needs an \"id\" (a string)");
    }
    // Models often number their todos; an integer id is taken as its decimal text.
    update.id = id->is_string() ? id->get<std::string>() : id->dump();
    if (const auto content = entry.find("content"); content != entry.end() && !content->is_null()) {
      if (!content->is_string()) {
        return fail(ErrorCode::invalid_argument, where + ": \"content\" must be a string");
      }
      update.content = content->get<std::string>();
    }
    if (const auto status = entry.find("status"); status != entry.end() && !status->is_null()) {
      if (!status->is_string()) {
        return fail(ErrorCode::invalid_argument, where + ": \"status\" must be a string");
      }
      const auto parsed = core::parse_todo_status(status->get<std::string>());
      if (!parsed) {
        return fail(ErrorCode::invalid_argument, where + ": unknown status '" + status->get<std::string>() +
                                                     "' (expected pending, in_progress, completed or cancelled)");
      }
      update.status = *parsed;
    }
    updates.push_back(std::move(update));
  }
  return updates;
}

Result<std::vector<core::TodoUpdate>> parse_todo_updates(std::string_view text) {
  Json items = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (items.is_discarded()) {
    return fail(ErrorCode::parse_error, "the items are not valid JSON");
  }
  return todo_updates_from_json(items);
}

} // namespace skillrt::protocol
