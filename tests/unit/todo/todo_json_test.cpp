#include "protocol/todo_json.hpp"
#include "protocol/error_json.hpp"

#include <gtest/gtest.h>

namespace skillrt::protocol {
namespace {

TEST(TodoJson, ListShape) {
  const std::vector<core::TodoItem> items = {{"1", "a", core::TodoStatus::pending},
                                             {"2", "b", core::TodoStatus::completed}};
  const Json json = todo_list_json(items);
  EXPECT_EQ(json["success"], true);
  ASSERT_EQ(json["todos"].size(), 2u);
  EXPECT_EQ(json["todos"][1]["status"], "completed");
  std::vector<std::string> keys;
  for (const auto& [key, value] : json["todos"][0].items()) {
    keys.push_back(key);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "content", "status"}));
  EXPECT_EQ(json["summary"]["total"], 2);
  EXPECT_EQ(json["summary"]["pending"], 1);
  EXPECT_EQ(json["summary"]["in_progress"], 0);
  EXPECT_EQ(json["summary"]["completed"], 1);
  EXPECT_EQ(json["summary"]["cancelled"], 0);
}

TEST(TodoJson, ErrorShape) {
  const Json json = error_result_json(Error{ErrorCode::refused, "todo needs a user (--user)", {}});
  EXPECT_EQ(json["success"], false);
  EXPECT_EQ(json["error"], "todo needs a user (--user)");
  EXPECT_EQ(json["code"], "refused");
}

TEST(TodoJson, ParsesItemsArrayOrToolObject) {
  auto updates =
      parse_todo_updates(R"([{"id":"a","content":"x","status":"in_progress"},{"id":3,"status":"completed"}])");
  ASSERT_TRUE(updates) << updates.error().message;
  ASSERT_EQ(updates->size(), 2u);
  EXPECT_EQ((*updates)[0].status, core::TodoStatus::in_progress);
  EXPECT_EQ((*updates)[1].id, "3");
  EXPECT_FALSE((*updates)[1].content.has_value());
  auto wrapped = parse_todo_updates(R"({"todos":[{"id":"a","content":"x"}]})");
  ASSERT_TRUE(wrapped);
  EXPECT_FALSE((*wrapped)[0].status.has_value());
}

TEST(TodoJson, RefusesBadItems) {
  for (const char* bad :
       {"not json", "{}", "\"x\"", "[1]", R"([{"content":"x"}])", R"([{"id":true}])", R"([{"id":"1","content":2}])",
        R"([{"id":"1","status":"done"}])", R"([{"id":"1","status":1}])"}) {
    EXPECT_FALSE(parse_todo_updates(bad)) << bad;
  }
  auto not_json = parse_todo_updates("[");
  ASSERT_FALSE(not_json);
  EXPECT_EQ(not_json.error().code, ErrorCode::parse_error);
}

} // namespace
} // namespace skillrt::protocol
