// The todo write rules, free of files and locks.
#include <algorithm>
#include <set>

#include "core/util/utf8_prefix.hpp"
#include "core/limits.hpp"
#include "core/todo/todo.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

Result<std::string> checked_field(std::string_view raw, std::string_view what, std::size_t max_chars,
                                  std::string_view id) {
  const std::string where = id.empty() ? std::string(what) : std::string(what) + " of item '" + std::string(id) + "'";
  if (find_invalid_utf8(raw)) {
    return fail(ErrorCode::invalid_argument, where + " is not valid UTF-8");
  }
  const std::string_view text = trim_ascii_space(raw);
  if (text.empty()) {
    return fail(ErrorCode::invalid_argument, where + " must not be empty");
  }
  if (utf8_length(text) > max_chars) {
    return fail(ErrorCode::limit_exceeded, where + " is longer than " + std::to_string(max_chars) + " characters");
  }
  return std::string(text);
}

} // namespace

const char* todo_status_name(TodoStatus status) {
  switch (status) {
  case TodoStatus::pending:
    return "pending";
  case TodoStatus::in_progress:
    return "in_progress";
  case TodoStatus::completed:
    return "completed";
  case TodoStatus::cancelled:
    return "cancelled";
  }
  return "pending";
}

std::optional<TodoStatus> parse_todo_status(std::string_view name) {
  for (const TodoStatus status :
       {TodoStatus::pending, TodoStatus::in_progress, TodoStatus::completed, TodoStatus::cancelled}) {
    if (name == todo_status_name(status)) {
      return status;
    }
  }
  return std::nullopt;
}

TodoSummary summarize_todos(const std::vector<TodoItem>& items) {
  TodoSummary summary;
  summary.total = items.size();
  for (const TodoItem& item : items) {
    switch (item.status) {
    case TodoStatus::pending:
      ++summary.pending;
      break;
    case TodoStatus::in_progress:
      ++summary.in_progress;
      break;
    case TodoStatus::completed:
      ++summary.completed;
      break;
    case TodoStatus::cancelled:
      ++summary.cancelled;
      break;
    }
  }
  return summary;
}

Result<std::vector<TodoItem>> apply_todo_write(std::vector<TodoItem> current, const std::vector<TodoUpdate>& updates,
                                               bool merge) {
  if (updates.size() > limits::k_max_todo_items) {
    return fail(ErrorCode::limit_exceeded, "a todo list holds at most " + std::to_string(limits::k_max_todo_items) +
                                               " items; " + std::to_string(updates.size()) + " were given");
  }
  std::vector<TodoItem> next = merge ? std::move(current) : std::vector<TodoItem>{};
  std::set<std::string> seen;
  for (const TodoUpdate& update : updates) {
    SKILLRT_TRY_ASSIGN(const std::string id, checked_field(update.id, "id", limits::k_max_todo_id_chars, ""));
    if (!seen.insert(id).second) {
      return fail(ErrorCode::invalid_argument, "id '" + id + "' is given more than once");
    }
    std::optional<std::string> content;
    if (update.content) {
      SKILLRT_TRY_ASSIGN(content, checked_field(*update.content, "content", limits::k_max_todo_content_chars, id));
    }
    auto existing = std::find_if(next.begin(), next.end(), [&](const TodoItem& item) { return item.id == id; });
    if (existing != next.end()) { // only reachable in a merge
      if (content) {
        existing->content = std::move(*content);
      }
      if (update.status) {
        existing->status = *update.status;
      }
      continue;
    }
    if (!content) {
      return fail(ErrorCode::invalid_argument, "item '" + id + "' is new and needs a content");
    }
    next.push_back(TodoItem{id, std::move(*content), update.status.value_or(TodoStatus::pending)});
  }
  if (next.size() > limits::k_max_todo_items) {
    return fail(ErrorCode::limit_exceeded, "a todo list holds at most " + std::to_string(limits::k_max_todo_items) +
                                               " items; this merge would make " + std::to_string(next.size()));
  }
  return next;
}

} // namespace skillrt::core
