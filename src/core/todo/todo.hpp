// Per-user todo list (the Hermes `todo` tool): items {id, content, status}
// in HOME/users/<uid>/todo.json. A write replaces the list or merges into it;
// every call answers with the whole list and a summary by status.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class TodoStatus : unsigned char { pending, in_progress, completed, cancelled };

const char* todo_status_name(TodoStatus status); // "pending" | "in_progress" | "completed" | "cancelled"
std::optional<TodoStatus> parse_todo_status(std::string_view name);

// Refusal when the context has no user.
inline constexpr std::string_view k_todo_needs_user = "todo needs a user (--user)";

struct TodoItem {
  std::string id;
  std::string content;
  TodoStatus status = TodoStatus::pending;
};

// One item of a write: the fields given. A new item needs content; its status
// defaults to pending. In a merge, an existing id gets only the fields given.
struct TodoUpdate {
  std::string id;
  std::optional<std::string> content;
  std::optional<TodoStatus> status;
};

struct TodoSummary {
  std::size_t total = 0;
  std::size_t pending = 0;
  std::size_t in_progress = 0;
  std::size_t completed = 0;
  std::size_t cancelled = 0;
};

TodoSummary summarize_todos(const std::vector<TodoItem>& items);

// The list after a write (pure, todo_list.cpp). merge=false: `updates` become
// the whole list. merge=true: existing ids are updated in place, new ids are
// appended in the order given. Ids and contents are trimmed of surrounding
// ASCII whitespace; ids must be unique within `updates` and non-empty,
// contents non-empty; sizes and the item count are bounded (limits.hpp).
Result<std::vector<TodoItem>> apply_todo_write(std::vector<TodoItem> current, const std::vector<TodoUpdate>& updates,
                                               bool merge);

// todo.json: {"version":1,"todos":[{"id":...,"content":...,"status":...}]} (todo_file.cpp).
Result<std::vector<TodoItem>> decode_todo_file(std::string_view text);
std::string encode_todo_file(const std::vector<TodoItem>& items);

// The tool (todo_tool.cpp): refused without a user; a write is a
// read-modify-write under the user's lock with an atomic 0600 write. A file
// that does not decode is reported (parse_error) and never overwritten.
Result<std::vector<TodoItem>> todo_read(const Context& ctx);
Result<std::vector<TodoItem>> todo_write(const Context& ctx, const std::vector<TodoUpdate>& updates, bool merge);

} // namespace skillrt::core
