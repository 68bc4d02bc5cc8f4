// todo.json: {"version":1,"todos":[{"id":...,"content":...,"status":...}]}.
#include <set>

#include "core/limits.hpp"
#include "core/memory/state_json.hpp"
#include "core/todo/todo.hpp"

namespace skillrt::core {
namespace {

constexpr std::string_view k_todo_file_version = "1";

const std::string* string_member(const StateJson& object, std::string_view key) {
  const StateJson* value = object.find(key);
  return value != nullptr && value->kind == StateJson::Kind::string ? &value->text : nullptr;
}

} // namespace

Result<std::vector<TodoItem>> decode_todo_file(std::string_view text) {
  auto document = parse_state_json(text);
  if (!document) {
    return tl::unexpected(document.error());
  }
  if (document->kind != StateJson::Kind::object) {
    return fail(ErrorCode::parse_error, "the document is not a JSON object");
  }
  const StateJson* version = document->find("version");
  if (version == nullptr || version->kind != StateJson::Kind::number || version->text != k_todo_file_version) {
    return fail(ErrorCode::parse_error, "unknown or missing \"version\" (expected 1)");
  }
  std::vector<TodoItem> items;
  const StateJson* todos = document->find("todos");
  if (todos == nullptr) {
    return items;
  }
  if (todos->kind != StateJson::Kind::array) {
    return fail(ErrorCode::parse_error, "\"todos\" is not a list");
  }
  if (todos->items.size() > limits::k_max_todo_items) {
    return fail(ErrorCode::parse_error,
                "\"todos\" holds more than " + std::to_string(limits::k_max_todo_items) + " items");
  }
  std::set<std::string> ids;
  for (const StateJson& entry : todos->items) {
    const std::string* id = entry.kind == StateJson::Kind::object ? string_member(entry, "id") : nullptr;
    const std::string* content = id != nullptr ? string_member(entry, "content") : nullptr;
    const std::string* status_name = id != nullptr ? string_member(entry, "status") : nullptr;
    if (id == nullptr || content == nullptr || status_name == nullptr || id->empty()) {
      return fail(ErrorCode::parse_error, "an item is not an object with string id, content and status");
    }
    const auto status = parse_todo_status(*status_name);
    if (!status) {
      return fail(ErrorCode::parse_error, "item '" + *id + "' has an unknown status '" + *status_name + "'");
    }
    if (!ids.insert(*id).second) {
      return fail(ErrorCode::parse_error, "id '" + *id + "' occurs more than once");
    }
    items.push_back(TodoItem{*id, *content, *status});
  }
  return items;
}

std::string encode_todo_file(const std::vector<TodoItem>& items) {
  std::string out = "{\n  \"version\": 1,\n  \"todos\": [";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += "    {\"id\": " + quote_json_string(items[i].id) + ", \"content\": " + quote_json_string(items[i].content) +
           ", \"status\": " + quote_json_string(todo_status_name(items[i].status)) + "}";
  }
  out += items.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

} // namespace skillrt::core
