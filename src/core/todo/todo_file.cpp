// todo.json: {"version":1,"todos":[{"id":...,"content":...,"status":...}]}.
#include <set>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/todo/todo.hpp"
#include "core/util/strict_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

constexpr std::uint64_t k_todo_file_version = 1;

const std::string* string_member(const nlohmann::json& object, std::string_view key) {
  const auto value = object.find(key);
  return value != object.end() && value->is_string() ? value->get_ptr<const std::string*>() : nullptr;
}

} // namespace

Result<std::vector<TodoItem>> decode_todo_file(std::string_view text) {
  SKILLRT_TRY(check_strict_json(text, limits::k_max_state_json_depth));
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_object()) {
    return fail(ErrorCode::parse_error, "the document is not a JSON object");
  }
  const auto version = document.find("version");
  if (version == document.end() || !version->is_number_unsigned() ||
      version->get<std::uint64_t>() != k_todo_file_version) {
    return fail(ErrorCode::parse_error, "unknown or missing \"version\" (expected 1)");
  }
  std::vector<TodoItem> items;
  const auto todos = document.find("todos");
  if (todos == document.end()) {
    return items;
  }
  if (!todos->is_array()) {
    return fail(ErrorCode::parse_error, "\"todos\" is not a list");
  }
  if (todos->size() > limits::k_max_todo_items) {
    return fail(ErrorCode::parse_error,
                "\"todos\" holds more than " + std::to_string(limits::k_max_todo_items) + " items");
  }
  std::set<std::string> ids;
  for (const nlohmann::json& entry : *todos) {
    const std::string* id = entry.is_object() ? string_member(entry, "id") : nullptr;
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
    out += "    {\"id\": " + json_quoted(items[i].id) + ", \"content\": " + json_quoted(items[i].content) +
           ", \"status\": " + json_quoted(todo_status_name(items[i].status)) + "}";
  }
  out += items.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

} // namespace skillrt::core
