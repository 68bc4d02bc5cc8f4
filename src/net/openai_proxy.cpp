#include "net/openai_proxy.hpp"

#include <nlohmann/json.hpp>

#include "core/chat/chat_wire.hpp"

namespace skillrt::net {

Result<ProxyCall> read_proxy_call(std::string_view body) {
  // parse_chat_messages reads the "messages" of a request object with the
  // transcript limits; model and stream are read from the same bytes here.
  auto messages = core::parse_chat_messages(body);
  if (!messages) {
    return tl::unexpected(messages.error());
  }
  // Only the top level's "model" and "stream" are kept: the messages are not
  // built a second time.
  const nlohmann::json::parser_callback_t top_level = [](int depth, nlohmann::json::parse_event_t event,
                                                         nlohmann::json& parsed) {
    if (depth == 1 && event == nlohmann::json::parse_event_t::key) {
      return parsed == "model" || parsed == "stream";
    }
    return true;
  };
  const nlohmann::json doc = nlohmann::json::parse(body, top_level, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return fail(ErrorCode::parse_error, "the request body is not a JSON object");
  }
  ProxyCall call;
  call.messages = std::move(*messages);
  if (const auto model = doc.find("model"); model != doc.end() && model->is_string()) {
    call.model = model->get<std::string>();
  }
  if (const auto stream = doc.find("stream"); stream != doc.end() && stream->is_boolean()) {
    call.stream = stream->get<bool>();
  }
  call.user_turn = !call.messages.empty() && call.messages.back().role == core::ChatRole::user;
  return call;
}

std::string openai_error_body(std::string_view message, std::string_view type, std::string_view code) {
  nlohmann::ordered_json error;
  error["message"] = std::string(message);
  error["type"] = std::string(type);
  error["param"] = nullptr;
  if (code.empty()) {
    error["code"] = nullptr;
  } else {
    error["code"] = std::string(code);
  }
  nlohmann::ordered_json body;
  body["error"] = std::move(error);
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace skillrt::net
