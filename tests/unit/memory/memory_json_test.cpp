#include "protocol/memory_json.hpp"
#include "protocol/error_json.hpp"

#include <gtest/gtest.h>

namespace skillrt::protocol {
namespace {

TEST(MemoryJson, ResultShape) {
  core::MemoryResult result;
  result.target = core::MemoryTarget::user;
  result.stores.user = {"likes tea", "é"};
  result.message = "Entry added to user.";
  const Json json = memory_result_json(result);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) {
    keys.push_back(key);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"success", "target", "entries", "usage", "message"}));
  EXPECT_EQ(json["success"], true);
  EXPECT_EQ(json["target"], "user");
  EXPECT_EQ(json["entries"].size(), 2u);
  EXPECT_EQ(json["usage"], "10/1375");
}

TEST(MemoryJson, OverviewHasBothTargets) {
  core::MemoryStores stores;
  stores.memory = {"abc"};
  const Json json = memory_overview_json(stores);
  EXPECT_EQ(json["targets"]["memory"]["usage"], "3/2200");
  EXPECT_EQ(json["targets"]["user"]["usage"], "0/1375");
  EXPECT_TRUE(json["targets"]["user"]["entries"].empty());
}

TEST(MemoryJson, ErrorShape) {
  const Json json = error_result_json(Error{ErrorCode::ambiguous, "be more specific", {}});
  EXPECT_EQ(json["success"], false);
  EXPECT_EQ(json["error"], "be more specific");
  EXPECT_EQ(json["code"], "ambiguous");
}

TEST(MemoryJson, RequestFromToolArguments) {
  auto request = memory_request_from_json(
      Json::parse(R"({"action":"replace","target":"user","old_text":"tea","content":"coffee"})"));
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->action, core::MemoryAction::replace);
  EXPECT_EQ(request->target, core::MemoryTarget::user);
  EXPECT_EQ(request->old_text, "tea");
  EXPECT_EQ(request->content, "coffee");
  EXPECT_FALSE(memory_request_from_json(Json::parse(R"({"action":"add"})"))); // no content
  EXPECT_FALSE(memory_request_from_json(Json::parse(R"({"action":"remove","target":"memory"})")));
  EXPECT_FALSE(memory_request_from_json(Json::parse(R"({"action":"drop"})")));
  EXPECT_FALSE(memory_request_from_json(Json::parse(R"({"action":"list","target":"other"})")));
  EXPECT_FALSE(memory_request_from_json(Json::parse(R"({"action":"add","content":5})")));
  EXPECT_FALSE(memory_request_from_json(Json::parse("[]")));
}

} // namespace
} // namespace skillrt::protocol
