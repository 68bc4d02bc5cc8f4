// JSON-RPC 2.0 framing: classification of every kind of message, ids echoed
// exactly, and the error answers of malformed input.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "core/limits.hpp"
#include "mcp/jsonrpc.hpp"

namespace skillrt::mcp {
namespace {

RpcInvalid invalid(std::string_view text) {
  ParsedMessage parsed = parse_message(text);
  EXPECT_TRUE(std::holds_alternative<RpcInvalid>(parsed)) << text;
  return std::holds_alternative<RpcInvalid>(parsed) ? std::get<RpcInvalid>(parsed) : RpcInvalid{};
}

RpcCall call(std::string_view text) {
  ParsedMessage parsed = parse_message(text);
  EXPECT_TRUE(std::holds_alternative<RpcCall>(parsed)) << text;
  return std::holds_alternative<RpcCall>(parsed) ? std::get<RpcCall>(parsed) : RpcCall{};
}

TEST(JsonRpc, RequestWithIntegerOrStringId) {
  RpcCall numeric = call(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_FALSE(numeric.is_notification);
  EXPECT_EQ(numeric.method, "ping");
  EXPECT_EQ(numeric.id, Json(7));
  EXPECT_TRUE(numeric.params.is_object());
  RpcCall text = call(R"({"jsonrpc":"2.0","id":"abc-1","method":"tools/list","params":{"cursor":"x"}})");
  EXPECT_EQ(text.id, Json("abc-1"));
  EXPECT_EQ(text.params["cursor"], "x");
}

TEST(JsonRpc, NotificationHasNoId) {
  RpcCall note = call(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_TRUE(note.is_notification);
  EXPECT_TRUE(note.id.is_null());
}

TEST(JsonRpc, RepliesFromTheClientAreRecognised) {
  EXPECT_TRUE(std::holds_alternative<RpcReply>(parse_message(R"({"jsonrpc":"2.0","id":3,"result":{}})")));
  EXPECT_TRUE(std::holds_alternative<RpcReply>(
      parse_message(R"({"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}})")));
}

TEST(JsonRpc, MalformedJsonIsAParseErrorWithNullId) {
  for (const char* text : {"", "{", "{\"jsonrpc\":", "nul", "{\"a\":1}x", "\xff\xfe"}) {
    RpcInvalid bad = invalid(text);
    EXPECT_EQ(bad.error.code, rpc_code::parse_error) << text;
    EXPECT_TRUE(bad.id.is_null());
  }
}

TEST(JsonRpc, BatchesAndNonObjectsAreInvalidRequests) {
  RpcInvalid batch = invalid(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_EQ(batch.error.code, rpc_code::invalid_request);
  EXPECT_NE(batch.error.message.find("batch"), std::string::npos);
  EXPECT_EQ(invalid("42").error.code, rpc_code::invalid_request);
  EXPECT_EQ(invalid("\"ping\"").error.code, rpc_code::invalid_request);
}

TEST(JsonRpc, WrongVersionIsInvalidAndEchoesTheId) {
  RpcInvalid old = invalid(R"({"jsonrpc":"1.0","id":5,"method":"ping"})");
  EXPECT_EQ(old.error.code, rpc_code::invalid_request);
  EXPECT_EQ(old.id, Json(5));
  EXPECT_EQ(invalid(R"({"id":"a","method":"ping"})").id, Json("a"));
  EXPECT_EQ(invalid(R"({"jsonrpc":2.0,"id":1,"method":"ping"})").error.code, rpc_code::invalid_request);
}

TEST(JsonRpc, BadIdsAndMethodsAreInvalid) {
  RpcInvalid null_id = invalid(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  EXPECT_EQ(null_id.error.code, rpc_code::invalid_request);
  EXPECT_TRUE(null_id.id.is_null());
  EXPECT_EQ(invalid(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})").error.code, rpc_code::invalid_request);
  EXPECT_EQ(invalid(R"({"jsonrpc":"2.0","id":{},"method":"ping"})").error.code, rpc_code::invalid_request);
  EXPECT_EQ(invalid(R"({"jsonrpc":"2.0","id":1,"method":3})").error.code, rpc_code::invalid_request);
  EXPECT_EQ(invalid(R"({"jsonrpc":"2.0","id":1})").error.code, rpc_code::invalid_request);
}

TEST(JsonRpc, NonObjectParamsAreFlagged) {
  RpcCall with_array = call(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})");
  EXPECT_FALSE(with_array.params_are_object);
}

TEST(JsonRpc, ResponsesEchoIdsExactly) {
  const Json big = Json::parse("18446744073709551615");
  EXPECT_EQ(Json::parse(result_response(big, Json::object()))["id"].dump(), "18446744073709551615");
  EXPECT_EQ(result_response(Json(-3), Json::object()), R"({"jsonrpc":"2.0","id":-3,"result":{}})");
  EXPECT_EQ(result_response(Json("x"), Json::object()), R"({"jsonrpc":"2.0","id":"x","result":{}})");
  const std::string error = error_response(nullptr, RpcError{rpc_code::resource_not_found, "nope", Json{{"uri", "u"}}});
  EXPECT_EQ(error, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32002,"message":"nope","data":{"uri":"u"}}})");
  EXPECT_EQ(notification_message("notifications/prompts/list_changed", std::nullopt),
            R"({"jsonrpc":"2.0","method":"notifications/prompts/list_changed"})");
}

TEST(JsonRpc, DumpReplacesInvalidUtf8) {
  const std::string dumped = dump_json(Json(std::string("a\xff" "b")));
  EXPECT_TRUE(Json::accept(dumped));
}

TEST(JsonRpc, MessageLimitIsFourMebibytes) { EXPECT_EQ(limits::k_max_mcp_message_bytes, 4u * 1024u * 1024u); }

TEST(JsonRpc, DeepNestingIsRefusedBeforeParsing) {
  // A copy of a deeply nested value recurses per level: 20,000 levels
  // followed by another key overflowed the stack before this check.
  const std::size_t limit = limits::k_max_json_depth;
  auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" + nested(20000) + R"(,"b":1}})";
  RpcInvalid refused = invalid(deep);
  EXPECT_EQ(refused.error.code, rpc_code::invalid_request);
  EXPECT_TRUE(refused.id.is_null());
  // The message object and params count as two levels.
  const std::string at_limit =
      R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" + nested(limit - 2) + R"(,"b":1}})";
  EXPECT_EQ(call(at_limit).method, "ping");
  const std::string over_limit =
      R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" + nested(limit - 1) + R"(,"b":1}})";
  EXPECT_EQ(invalid(over_limit).error.code, rpc_code::invalid_request);
  // Brackets inside strings (escaped quotes included) are text, not nesting.
  const std::string in_string =
      R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\")" + std::string(500, '[') + R"("}})";
  EXPECT_EQ(call(in_string).method, "ping");
}

}  // namespace
}  // namespace skillrt::mcp
