// todo_read / todo_write: the todo tool for one user, on the user's todo.json.
#include "core/memory/user_state_file.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/todo/todo.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

Result<std::vector<TodoItem>> load_items(const std::filesystem::path& path) {
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> bytes, read_user_state_file(path));
  if (!bytes) {
    return std::vector<TodoItem>{};
  }
  auto items = decode_todo_file(*bytes);
  if (!items) {
    return fail(ErrorCode::parse_error, path.string() + " is not a valid todo file (" + items.error().message +
                                            "); it was left untouched: fix or remove it");
  }
  return items;
}

Result<UserHome> home_of(const Context& ctx) {
  if (!ctx.user_id) {
    return fail(ErrorCode::refused, std::string(k_todo_needs_user));
  }
  return ensure_user_home(ctx);
}

} // namespace

Result<std::vector<TodoItem>> todo_read(const Context& ctx) {
  SKILLRT_TRY_ASSIGN(const UserHome home, home_of(ctx));
  return load_items(home.todo);
}

Result<std::vector<TodoItem>> todo_write(const Context& ctx, const std::vector<TodoUpdate>& updates, bool merge) {
  SKILLRT_TRY_ASSIGN(const UserHome home, home_of(ctx));
  SKILLRT_TRY_ASSIGN(const UserStateLock lock, UserStateLock::acquire(ctx, "todo"));
  SKILLRT_TRY_ASSIGN(std::vector<TodoItem> current, load_items(home.todo));
  SKILLRT_TRY_ASSIGN(std::vector<TodoItem> next, apply_todo_write(std::move(current), updates, merge));
  SKILLRT_TRY(write_user_state_file(home.todo, encode_todo_file(next)));
  return next;
}

} // namespace skillrt::core
