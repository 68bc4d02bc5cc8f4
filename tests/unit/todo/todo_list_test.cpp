#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"
#include "core/todo/todo.hpp"

namespace skillrt::core {
namespace {

TodoUpdate item(std::string id, std::optional<std::string> content, std::optional<TodoStatus> status = std::nullopt) {
  return TodoUpdate{std::move(id), std::move(content), status};
}

std::vector<std::string> ids_of(const std::vector<TodoItem>& items) {
  std::vector<std::string> ids;
  for (const auto& entry : items) {
    ids.push_back(entry.id);
  }
  return ids;
}

TEST(TodoStatus, NamesRoundTrip) {
  for (const TodoStatus status :
       {TodoStatus::pending, TodoStatus::in_progress, TodoStatus::completed, TodoStatus::cancelled}) {
    EXPECT_EQ(parse_todo_status(todo_status_name(status)), status);
  }
  EXPECT_FALSE(parse_todo_status("done"));
  EXPECT_FALSE(parse_todo_status("Pending"));
}

TEST(TodoWrite, ReplaceMakesTheWholeList) {
  std::vector<TodoItem> current = {{"old", "old task", TodoStatus::pending}};
  auto next = apply_todo_write(current, {item("1", "first"), item("2", " second ", TodoStatus::in_progress)}, false);
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(ids_of(*next), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ((*next)[0].status, TodoStatus::pending); // default
  EXPECT_EQ((*next)[1].content, "second");           // trimmed
  EXPECT_EQ((*next)[1].status, TodoStatus::in_progress);
}

TEST(TodoWrite, ReplaceWithNothingClears) {
  auto next = apply_todo_write({{"a", "x", TodoStatus::pending}}, {}, false);
  ASSERT_TRUE(next);
  EXPECT_TRUE(next->empty());
}

TEST(TodoWrite, MergeUpdatesGivenFieldsAndAppendsNewIds) {
  std::vector<TodoItem> current = {{"1", "first", TodoStatus::pending}, {"2", "second", TodoStatus::pending}};
  auto next = apply_todo_write(current, {item("2", std::nullopt, TodoStatus::completed), item("3", "third")}, true);
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(ids_of(*next), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ((*next)[1].content, "second"); // untouched field
  EXPECT_EQ((*next)[1].status, TodoStatus::completed);
  auto renamed = apply_todo_write(*next, {item("1", "first, reworded")}, true);
  ASSERT_TRUE(renamed);
  EXPECT_EQ((*renamed)[0].content, "first, reworded");
  EXPECT_EQ((*renamed)[0].status, TodoStatus::pending);
}

TEST(TodoWrite, NewItemsNeedContent) {
  auto replace = apply_todo_write({}, {item("1", std::nullopt, TodoStatus::pending)}, false);
  ASSERT_FALSE(replace);
  EXPECT_EQ(replace.error().code, ErrorCode::invalid_argument);
  EXPECT_FALSE(apply_todo_write({}, {item("new", std::nullopt)}, true));
  EXPECT_FALSE(apply_todo_write({}, {item("1", "   ")}, false));
}

TEST(TodoWrite, IdsUniqueAndNonEmpty) {
  auto duplicate = apply_todo_write({}, {item("1", "a"), item(" 1 ", "b")}, false);
  ASSERT_FALSE(duplicate);
  EXPECT_NE(duplicate.error().message.find("'1'"), std::string::npos);
  EXPECT_FALSE(apply_todo_write({}, {item("", "a")}, false));
  EXPECT_FALSE(apply_todo_write({}, {item(" \t", "a")}, true));
  EXPECT_FALSE(apply_todo_write({}, {item("bad\xff", "a")}, true));
}

TEST(TodoWrite, SizesAreBounded) {
  std::vector<TodoUpdate> many;
  for (std::size_t i = 0; i <= limits::k_max_todo_items; ++i) {
    many.push_back(item(std::to_string(i), "task"));
  }
  auto too_many = apply_todo_write({}, many, false);
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().code, ErrorCode::limit_exceeded);
  many.pop_back();
  auto full = apply_todo_write({}, many, false);
  ASSERT_TRUE(full);
  auto merged_over = apply_todo_write(*full, {item("one-more", "task")}, true);
  ASSERT_FALSE(merged_over);
  EXPECT_EQ(merged_over.error().code, ErrorCode::limit_exceeded);
  EXPECT_FALSE(apply_todo_write({}, {item(std::string(limits::k_max_todo_id_chars + 1, 'i'), "x")}, false));
  EXPECT_TRUE(apply_todo_write({}, {item(std::string(limits::k_max_todo_id_chars, 'i'), "x")}, false));
  EXPECT_FALSE(apply_todo_write({}, {item("1", std::string(limits::k_max_todo_content_chars + 1, 'c'))}, false));
  // Characters, not bytes.
  std::string wide;
  for (std::size_t i = 0; i < limits::k_max_todo_content_chars; ++i) {
    wide += "é";
  }
  EXPECT_TRUE(apply_todo_write({}, {item("1", wide)}, false));
}

TEST(TodoSummary, CountsByStatus) {
  const std::vector<TodoItem> items = {{"1", "a", TodoStatus::pending},
                                       {"2", "b", TodoStatus::in_progress},
                                       {"3", "c", TodoStatus::completed},
                                       {"4", "d", TodoStatus::completed},
                                       {"5", "e", TodoStatus::cancelled}};
  const TodoSummary s = summarize_todos(items);
  EXPECT_EQ(s.total, 5u);
  EXPECT_EQ(s.pending, 1u);
  EXPECT_EQ(s.in_progress, 1u);
  EXPECT_EQ(s.completed, 2u);
  EXPECT_EQ(s.cancelled, 1u);
}

TEST(TodoFile, RoundTripAndRefusals) {
  const std::vector<TodoItem> items = {{"1", "write \"tests\"\nnow", TodoStatus::in_progress},
                                       {"é", "😀", TodoStatus::cancelled}};
  auto decoded = decode_todo_file(encode_todo_file(items));
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].content, items[0].content);
  EXPECT_EQ((*decoded)[1].status, TodoStatus::cancelled);
  EXPECT_TRUE(decode_todo_file(encode_todo_file({})));
  for (
      const char* bad :
      {"{}", R"({"version":1,"todos":{}})", R"({"version":1,"todos":[{"id":"1","content":"x"}]})",
       R"({"version":1,"todos":[{"id":"1","content":"x","status":"done"}]})",
       R"({"version":1,"todos":[{"id":"1","content":"x","status":"pending"},{"id":"1","content":"y","status":"pending"}]})",
       R"({"version":1,"todos":[{"id":"","content":"x","status":"pending"}]})"}) {
    EXPECT_FALSE(decode_todo_file(bad)) << bad;
  }
}

} // namespace
} // namespace skillrt::core
