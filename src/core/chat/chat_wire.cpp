#include "core/chat/chat_wire.hpp"

#include <cmath>
#include <cstdint>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/utf8.hpp"
#include "core/util/utf8_prefix.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

using Json = nlohmann::json;
// Written with the keys in the order OpenAI documents them, so a request log
// reads like the API reference.
using OrderedJson = nlohmann::ordered_json;

// How a wrong value is named in an error: "a number", "null", ...
const char* kind_of(const Json& value) {
  switch (value.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::object:
    return "an object";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
  case Json::value_t::number_float:
    return "a number";
  case Json::value_t::binary:
  case Json::value_t::discarded:
    break;
  }
  return "not a JSON value";
}

tl::unexpected<Error> wrong_type(const std::string& path, const Json& value, const char* expected) {
  return fail(ErrorCode::parse_error, path + " is " + kind_of(value) + ", expected " + expected);
}

// One document under the core's JSON policy (strict_json): valid UTF-8, no
// member twice, nesting bounded before nlohmann builds anything (copying a
// deep value recurses once per level).
Result<Json> parse_strict(std::string_view text, const char* what) {
  if (auto strict = check_strict_json(text, limits::k_chat_json_max_depth); !strict) {
    return fail(ErrorCode::parse_error, std::string(what) + " is not valid JSON: " + strict.error().message);
  }
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    return fail(ErrorCode::parse_error, std::string(what) + " is not valid JSON");
  }
  return doc;
}

// The member `key` of `object`, nullptr when absent or JSON null: every
// optional field of the wire format may be either.
const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

Result<std::optional<std::string>> optional_string(const Json& object, const char* key, const std::string& path) {
  const Json* value = member(object, key);
  if (value == nullptr) {
    return std::optional<std::string>();
  }
  if (!value->is_string()) {
    return wrong_type(path + "." + key, *value, "a string");
  }
  return std::optional<std::string>(value->get<std::string>());
}

// A part type as a placeholder word: "[image]", "[audio]", "[file]", or the
// part's own type when it is a plain identifier.
Result<std::string> part_placeholder(const std::string& type, const std::string& path) {
  if (type == "image_url" || type == "image" || type == "input_image") {
    return std::string("[image]");
  }
  if (type == "input_audio" || type == "audio") {
    return std::string("[audio]");
  }
  if (type == "file" || type == "input_file") {
    return std::string("[file]");
  }
  const bool identifier = !type.empty() && type.size() <= 32 &&
                          type.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
  if (!identifier) {
    return fail(ErrorCode::parse_error, path + ".type is not a content part type");
  }
  return "[" + type + "]";
}

Result<std::optional<std::string>> read_content(const Json& message, const std::string& path) {
  const Json* value = member(message, "content");
  const std::string where = path + ".content";
  if (value == nullptr) {
    return std::optional<std::string>();
  }
  if (value->is_string()) {
    return std::optional<std::string>(value->get<std::string>());
  }
  if (!value->is_array()) {
    return wrong_type(where, *value, "a string, an array of parts or null");
  }
  std::string text;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& part = (*value)[i];
    const std::string part_path = where + "[" + std::to_string(i) + "]";
    if (part.is_string()) {
      text += part.get<std::string>();
      continue;
    }
    if (!part.is_object()) {
      return wrong_type(part_path, part, "an object");
    }
    const Json* type = member(part, "type");
    if (type == nullptr || !type->is_string()) {
      return fail(ErrorCode::parse_error, part_path + " has no \"type\" string");
    }
    const std::string& type_name = type->get_ref<const std::string&>();
    if (type_name == "text" || type_name == "input_text" || type_name == "output_text" || type_name == "refusal") {
      const char* key = type_name == "refusal" ? "refusal" : "text";
      const Json* part_text = member(part, key);
      if (part_text == nullptr || !part_text->is_string()) {
        return fail(ErrorCode::parse_error, part_path + " has no \"" + key + "\" string");
      }
      text += part_text->get_ref<const std::string&>();
      continue;
    }
    SKILLRT_TRY_ASSIGN(const std::string placeholder, part_placeholder(type_name, part_path));
    text += placeholder;
  }
  return std::optional<std::string>(std::move(text));
}

// A function's arguments: the JSON text the model wrote. A few servers send
// an object instead of its text; it is written back as text.
Result<std::string> read_arguments(const Json& function, const std::string& path) {
  const Json* value = member(function, "arguments");
  if (value == nullptr) {
    return std::string();
  }
  if (value->is_string()) {
    return value->get<std::string>();
  }
  if (value->is_object()) {
    return value->dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return wrong_type(path + ".arguments", *value, "a string");
}

Result<ChatToolCall> read_function(const Json& function, std::string id, const std::string& path) {
  if (!function.is_object()) {
    return wrong_type(path, function, "an object");
  }
  const Json* name = member(function, "name");
  if (name == nullptr) {
    return fail(ErrorCode::parse_error, path + " has no \"name\"");
  }
  if (!name->is_string()) {
    return wrong_type(path + ".name", *name, "a string");
  }
  if (name->get_ref<const std::string&>().empty()) {
    return fail(ErrorCode::parse_error, path + ".name is empty");
  }
  SKILLRT_TRY_ASSIGN(std::string arguments, read_arguments(function, path));
  return ChatToolCall{std::move(id), name->get<std::string>(), std::move(arguments)};
}

Result<std::vector<ChatToolCall>> read_tool_calls(const Json& message, const std::string& path) {
  std::vector<ChatToolCall> calls;
  if (const Json* list = member(message, "tool_calls"); list != nullptr) {
    if (!list->is_array()) {
      return wrong_type(path + ".tool_calls", *list, "an array");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Json& call = (*list)[i];
      const std::string call_path = path + ".tool_calls[" + std::to_string(i) + "]";
      if (!call.is_object()) {
        return wrong_type(call_path, call, "an object");
      }
      SKILLRT_TRY_ASSIGN(std::optional<std::string> type, optional_string(call, "type", call_path));
      if (type && *type != "function") {
        return fail(ErrorCode::parse_error, call_path + ".type is \"" + utf8_prefix(*type, 40) +
                                                "\", only \"function\" tool calls are supported");
      }
      SKILLRT_TRY_ASSIGN(std::optional<std::string> id, optional_string(call, "id", call_path));
      const Json* function = member(call, "function");
      if (function == nullptr) {
        return fail(ErrorCode::parse_error, call_path + " has no \"function\"");
      }
      SKILLRT_TRY_ASSIGN(ChatToolCall parsed, read_function(*function, id.value_or(""), call_path + ".function"));
      calls.push_back(std::move(parsed));
    }
  }
  // The legacy single function call (before tool_calls) is the same thing
  // without an id.
  if (const Json* legacy = member(message, "function_call"); legacy != nullptr) {
    SKILLRT_TRY_ASSIGN(ChatToolCall parsed, read_function(*legacy, std::string(), path + ".function_call"));
    calls.push_back(std::move(parsed));
  }
  return calls;
}

ChatRole role_from_name(const std::string& name) {
  if (name == "user") {
    return ChatRole::user;
  }
  if (name == "assistant") {
    return ChatRole::assistant;
  }
  if (name == "tool" || name == "function") {
    return ChatRole::tool;
  }
  // "system", "developer" (OpenAI's newer name for it) and anything a
  // client invented: instructions, never the user's or the model's words.
  return ChatRole::system;
}

Result<ChatMessage> read_message(const Json& value, const std::string& path) {
  if (!value.is_object()) {
    return wrong_type(path, value, "an object");
  }
  const Json* role = member(value, "role");
  if (role == nullptr) {
    return fail(ErrorCode::parse_error, path + " has no \"role\"");
  }
  if (!role->is_string()) {
    return wrong_type(path + ".role", *role, "a string");
  }
  ChatMessage message;
  message.role = role_from_name(role->get_ref<const std::string&>());
  SKILLRT_TRY_ASSIGN(message.content, read_content(value, path));
  SKILLRT_TRY_ASSIGN(message.tool_calls, read_tool_calls(value, path));
  SKILLRT_TRY_ASSIGN(message.tool_call_id, optional_string(value, "tool_call_id", path));
  SKILLRT_TRY_ASSIGN(message.name, optional_string(value, "name", path));
  return message;
}

Result<std::uint64_t> read_count(const Json& usage, const char* key) {
  const Json* value = member(usage, key);
  if (value == nullptr) {
    return std::uint64_t{0};
  }
  if (value->is_number_unsigned()) {
    return value->get<std::uint64_t>();
  }
  if (value->is_number_integer() && value->get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(value->get<std::int64_t>());
  }
  return wrong_type(std::string("usage.") + key, *value, "a non-negative integer");
}

Result<ChatUsage> read_usage(const Json& reply) {
  const Json* usage = member(reply, "usage");
  ChatUsage counts;
  if (usage == nullptr) {
    return counts;
  }
  if (!usage->is_object()) {
    return wrong_type("usage", *usage, "an object");
  }
  SKILLRT_TRY_ASSIGN(counts.prompt_tokens, read_count(*usage, "prompt_tokens"));
  SKILLRT_TRY_ASSIGN(counts.completion_tokens, read_count(*usage, "completion_tokens"));
  SKILLRT_TRY_ASSIGN(counts.total_tokens, read_count(*usage, "total_tokens"));
  if (member(*usage, "total_tokens") == nullptr) {
    counts.total_tokens = counts.prompt_tokens + counts.completion_tokens;
  }
  return counts;
}

OrderedJson message_json(const ChatMessage& message) {
  OrderedJson out = OrderedJson::object();
  out["role"] = chat_role_name(message.role);
  out["content"] = message.content ? OrderedJson(*message.content) : OrderedJson(nullptr);
  if (message.name) {
    out["name"] = *message.name;
  }
  if (!message.tool_calls.empty()) {
    OrderedJson calls = OrderedJson::array();
    for (const ChatToolCall& call : message.tool_calls) {
      OrderedJson function = OrderedJson::object();
      function["name"] = call.name;
      function["arguments"] = call.arguments;
      OrderedJson item = OrderedJson::object();
      item["id"] = call.id;
      item["type"] = "function";
      item["function"] = std::move(function);
      calls.push_back(std::move(item));
    }
    out["tool_calls"] = std::move(calls);
  }
  if (message.tool_call_id) {
    out["tool_call_id"] = *message.tool_call_id;
  }
  return out;
}

// A tool's schema as a JSON object (an empty text: a tool without
// parameters); invalid_argument naming the tool when it is not one.
Result<OrderedJson> tool_parameters(const ChatTool& tool) {
  if (tool.parameters_json.empty()) {
    return OrderedJson{{"type", "object"}, {"properties", OrderedJson::object()}};
  }
  if (auto strict = check_strict_json(tool.parameters_json, limits::k_chat_json_max_depth); !strict) {
    return fail(ErrorCode::invalid_argument, "the parameters of tool \"" + utf8_prefix(sanitize_utf8(tool.name), 64) +
                                                 "\" are not valid JSON: " + strict.error().message);
  }
  OrderedJson schema = OrderedJson::parse(tool.parameters_json, nullptr, false);
  if (schema.is_discarded() || !schema.is_object()) {
    return fail(ErrorCode::invalid_argument, "the parameters of tool \"" + utf8_prefix(sanitize_utf8(tool.name), 64) +
                                                 "\" are not a JSON object (a JSON Schema)");
  }
  return schema;
}

std::string dump(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

} // namespace

Result<void> check_chat_request(const ChatRequest& request) {
  for (const ChatTool& tool : request.tools) {
    if (tool.name.empty()) {
      return fail(ErrorCode::invalid_argument, "a tool offered to the model has no name");
    }
    if (auto parameters = tool_parameters(tool); !parameters) {
      return tl::unexpected(parameters.error());
    }
  }
  return {};
}

std::string chat_request_json(const ChatRequest& request, bool stream) {
  OrderedJson body = OrderedJson::object();
  body["model"] = request.model;
  OrderedJson messages = OrderedJson::array();
  for (const ChatMessage& message : request.messages) {
    messages.push_back(message_json(message));
  }
  body["messages"] = std::move(messages);
  if (!request.tools.empty()) {
    OrderedJson tools = OrderedJson::array();
    for (const ChatTool& tool : request.tools) {
      OrderedJson function = OrderedJson::object();
      function["name"] = tool.name;
      function["description"] = tool.description;
      auto parameters = tool_parameters(tool);
      function["parameters"] =
          parameters ? std::move(*parameters) : OrderedJson{{"type", "object"}, {"properties", OrderedJson::object()}};
      tools.push_back(OrderedJson{{"type", "function"}, {"function", std::move(function)}});
    }
    body["tools"] = std::move(tools);
  }
  // JSON has no NaN or infinity: such a temperature is left out, not sent as null.
  if (request.temperature && std::isfinite(*request.temperature)) {
    body["temperature"] = *request.temperature;
  }
  if (request.max_tokens) {
    body["max_tokens"] = *request.max_tokens;
  }
  if (stream) {
    body["stream"] = true;
    body["stream_options"] = OrderedJson{{"include_usage", true}};
  }
  return dump(body);
}

Result<ChatReply> parse_chat_reply(std::string_view body) {
  SKILLRT_TRY_ASSIGN(const Json reply, parse_strict(body, "the reply"));
  if (!reply.is_object()) {
    return wrong_type("the reply", reply, "an object");
  }
  if (member(reply, "error") != nullptr) {
    const std::optional<std::string> text = chat_error_message(body);
    return fail(ErrorCode::io_error, "the server answered with an error: " + text.value_or("(no message)"));
  }
  const Json* choices = member(reply, "choices");
  if (choices == nullptr) {
    return fail(ErrorCode::parse_error, "the reply has no \"choices\"");
  }
  if (!choices->is_array()) {
    return wrong_type("choices", *choices, "an array");
  }
  if (choices->empty()) {
    return fail(ErrorCode::parse_error, "the reply's \"choices\" are empty");
  }
  const Json& choice = (*choices)[0];
  if (!choice.is_object()) {
    return wrong_type("choices[0]", choice, "an object");
  }
  const Json* message = member(choice, "message");
  if (message == nullptr) {
    return fail(ErrorCode::parse_error, "choices[0] has no \"message\"");
  }
  if (!message->is_object()) {
    return wrong_type("choices[0].message", *message, "an object");
  }
  if (const Json* role = member(*message, "role"); role != nullptr && !role->is_string()) {
    return wrong_type("choices[0].message.role", *role, "a string");
  }
  ChatReply out;
  out.message.role = ChatRole::assistant;
  SKILLRT_TRY_ASSIGN(out.message.content, read_content(*message, "choices[0].message"));
  SKILLRT_TRY_ASSIGN(out.message.tool_calls, read_tool_calls(*message, "choices[0].message"));
  SKILLRT_TRY_ASSIGN(out.message.name, optional_string(*message, "name", "choices[0].message"));
  SKILLRT_TRY_ASSIGN(std::optional<std::string> finish, optional_string(choice, "finish_reason", "choices[0]"));
  out.finish_reason = finish.value_or("");
  SKILLRT_TRY_ASSIGN(out.usage, read_usage(reply));
  return out;
}

Result<std::vector<ChatMessage>> parse_chat_messages(std::string_view json) {
  if (json.size() > limits::k_transcript_max_bytes) {
    return fail(ErrorCode::limit_exceeded, "the transcript is " + std::to_string(json.size()) +
                                               " bytes, more than the limit of " +
                                               std::to_string(limits::k_transcript_max_bytes));
  }
  SKILLRT_TRY_ASSIGN(const Json doc, parse_strict(json, "the transcript"));
  const Json* list = &doc;
  if (doc.is_object()) {
    list = member(doc, "messages");
    if (list == nullptr) {
      return fail(ErrorCode::parse_error, "the transcript is an object without \"messages\"");
    }
    if (!list->is_array()) {
      return wrong_type("messages", *list, "an array");
    }
  } else if (!doc.is_array()) {
    return wrong_type("the transcript", doc, "an array of messages or an object with \"messages\"");
  }
  if (list->size() > limits::k_transcript_max_messages) {
    return fail(ErrorCode::limit_exceeded, "the transcript has " + std::to_string(list->size()) +
                                               " messages, more than the limit of " +
                                               std::to_string(limits::k_transcript_max_messages));
  }
  std::vector<ChatMessage> messages;
  messages.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    SKILLRT_TRY_ASSIGN(ChatMessage message, read_message((*list)[i], "messages[" + std::to_string(i) + "]"));
    messages.push_back(std::move(message));
  }
  return messages;
}

std::string chat_messages_json(const std::vector<ChatMessage>& messages) {
  OrderedJson out = OrderedJson::array();
  for (const ChatMessage& message : messages) {
    out.push_back(message_json(message));
  }
  return dump(out);
}

std::optional<std::string> chat_error_message(std::string_view body) {
  if (!check_strict_json(body, limits::k_chat_json_max_depth)) {
    return std::nullopt;
  }
  const Json doc = Json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return std::nullopt;
  }
  const Json* text = nullptr;
  if (const Json* error = member(doc, "error"); error != nullptr) {
    if (error->is_string()) {
      text = error;
    } else if (error->is_object()) {
      text = member(*error, "message");
    }
  }
  if (text == nullptr) {
    text = member(doc, "message");
  }
  if (text == nullptr || !text->is_string() || text->get_ref<const std::string&>().empty()) {
    return std::nullopt;
  }
  const std::string& full = text->get_ref<const std::string&>();
  std::string cut = utf8_prefix(full, limits::k_chat_error_text_max_chars);
  if (cut.size() < full.size()) {
    cut += "...";
  }
  return cut;
}

Result<std::string> append_to_last_user_message(std::string_view body, std::string_view note) {
  if (body.size() > limits::k_transcript_max_bytes) {
    return fail(ErrorCode::limit_exceeded, "the request body is larger than " +
                                               std::to_string(limits::k_transcript_max_bytes) + " bytes");
  }
  if (auto strict = check_strict_json(body, limits::k_chat_json_max_depth); !strict) {
    return fail(ErrorCode::parse_error, "the request body is not strict JSON: " + strict.error().message);
  }
  OrderedJson doc = OrderedJson::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return fail(ErrorCode::parse_error, "the request body is not a JSON object");
  }
  const auto messages = doc.find("messages");
  if (messages == doc.end() || !messages->is_array() || messages->empty()) {
    return fail(ErrorCode::parse_error, "the request has no messages");
  }
  OrderedJson& last = messages->back();
  if (!last.is_object() || last.value("role", OrderedJson()) != "user") {
    return fail(ErrorCode::parse_error, "the last message is not the user's");
  }
  const std::string text = find_invalid_utf8(note).has_value() ? sanitize_utf8(note) : std::string(note);
  OrderedJson& content = last["content"];
  if (content.is_string()) {
    content = content.get<std::string>() + "\n\n" + text;
  } else if (content.is_array()) {
    content.push_back(OrderedJson{{"type", "text"}, {"text", text}});
  } else if (content.is_null()) {
    content = text;
  } else {
    return fail(ErrorCode::parse_error, "the user's content is neither text nor parts");
  }
  return doc.dump();
}

} // namespace skillrt::core
