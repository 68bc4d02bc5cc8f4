// Session: one connected client. The lifecycle state machine (initialize
// first, ping always), the method table, logging levels and the
// notifications the client receives.
#include <algorithm>
#include <array>
#include <exception>
#include <iostream>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "core/limits.hpp"
#include "core/files/path_within.hpp"
#include "mcp/revision_2026.hpp"
#include "mcp/server_state.hpp"

namespace skillrt::mcp {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 8> k_log_levels{"debug",    "info",     "notice", "warning",
                                                       "error",    "critical", "alert",  "emergency"};

constexpr std::string_view k_server_version = "0.1.0";
constexpr std::string_view k_skills_extension = "io.modelcontextprotocol/skills";

Json capabilities() {
  Json caps = Json::object();
  caps["logging"] = Json::object();
  caps["completions"] = Json::object();
  caps["prompts"] = Json{{"listChanged", true}};
  caps["resources"] = Json{{"subscribe", true}, {"listChanged", true}};
  // The four tools never change while the server runs.
  caps["tools"] = Json{{"listChanged", false}};
  Json extensions = Json::object();
  // directoryRead: the extension's optional resources/directory/read.
  extensions[std::string(k_skills_extension)] = Json{{"directoryRead", true}};
  caps["extensions"] = std::move(extensions);
  return caps;
}

std::string instructions(const std::string& transport) {
  return "skillrt serves the skills of one skills home (" + transport +
         "). Call skills_list to see what exists, skill_view(name) to load a skill's instructions and "
         "skill_view(name, file_path) for one of its linked files, skills_search(query) to find relevant "
         "skills, and skill_manage to create or change skills. Every skill file is also a skill:// resource, "
         "and every slash command a prompt.";
}

MethodResult initialize(Session::Impl& session, const Json& params) {
  auto requested = string_param(params, "protocolVersion", true);
  if (!requested) {
    return tl::unexpected(requested.error());
  }
  if (const auto caps = params.find("capabilities"); caps != params.end() && !caps->is_object()) {
    return tl::unexpected(invalid_params("Invalid params: \"capabilities\" must be an object"));
  }
  if (const auto info = params.find("clientInfo"); info != params.end() && !info->is_object()) {
    return tl::unexpected(invalid_params("Invalid params: \"clientInfo\" must be an object"));
  }
  const auto& versions = supported_protocol_versions();
  const std::string version =
      std::find(versions.begin(), versions.end(), **requested) != versions.end() ? **requested : versions.front();
  {
    std::lock_guard lock(session.mutex);
    if (session.initialized) {
      return tl::unexpected(RpcError{rpc_code::invalid_request, "Invalid request: the session is already initialized",
                                     std::nullopt});
    }
    session.initialized = true;
    session.protocol_version = version;
    if (const auto caps = params.find("capabilities"); caps != params.end()) {
      session.client_capabilities = *caps;
    }
    ++session.state_version;
  }
  Json result = Json::object();
  result["protocolVersion"] = version;
  result["capabilities"] = capabilities();
  result["serverInfo"] = Json{{"name", "skillrt"}, {"version", std::string(k_server_version)}};
  result["instructions"] = instructions(session.server->options.transport);
  return result;
}

MethodResult ping(Session::Impl& /*session*/, const Json& /*params*/) { return Json::object(); }

MethodResult set_log_level(Session::Impl& session, const Json& params) {
  auto level = string_param(params, "level", true);
  if (!level) {
    return tl::unexpected(level.error());
  }
  const int rank = log_level_rank(**level);
  if (rank < 0) {
    return tl::unexpected(invalid_params(
        "Invalid params: \"level\" must be one of debug, info, notice, warning, error, critical, alert, emergency"));
  }
  std::lock_guard lock(session.mutex);
  session.log_level = rank;
  ++session.state_version;
  return Json::object();
}

MethodResult list_tools(Session::Impl& /*session*/, const Json& /*params*/) {
  Json result = Json::object();
  result["tools"] = tool_definitions();
  return result;
}

using Handler = MethodResult (*)(Session::Impl&, const Json&);

const std::unordered_map<std::string_view, Handler>& method_table() {
  static const std::unordered_map<std::string_view, Handler> k_methods{
      {"ping", &ping},
      {"logging/setLevel", &set_log_level},
      {"tools/list", &list_tools},
      {"tools/call", &call_tool},
      {"prompts/list", &list_prompts},
      {"prompts/get", &get_prompt},
      {"resources/list", &list_resources},
      {"resources/templates/list", &list_resource_templates},
      {"resources/read", &read_resource},
      {"resources/subscribe", &subscribe_resource},
      {"resources/unsubscribe", &unsubscribe_resource},
      {"skills/list", &list_skills_extension},
      {"skills/get", &get_skill_extension},
      {"resources/directory/read", &read_skill_directory},
      {"completion/complete", &complete},
  };
  return k_methods;
}

MethodResult dispatch(Session::Impl& session, const RpcCall& call) {
  static const Json k_no_params = Json::object();
  const Json* params = &call.params;
  if (!call.params_are_object) {
    if (!call.params.is_null()) {
      return tl::unexpected(invalid_params("Invalid params: \"params\" must be an object"));
    }
    params = &k_no_params;  // "params": null reads as no params
  }
  if (call.method == "initialize") {
    return initialize(session, *params);
  }
  const auto& table = method_table();
  const auto handler = table.find(call.method);
  if (call.method != "ping") {
    std::lock_guard lock(session.mutex);
    if (!session.initialized) {
      return tl::unexpected(RpcError{rpc_code::invalid_request,
                                     "Invalid request: the session is not initialized (send initialize first)",
                                     std::nullopt});
    }
  }
  if (handler == table.end()) {
    return tl::unexpected(RpcError{rpc_code::method_not_found, "Method not found: " + call.method, std::nullopt});
  }
  return handler->second(session, *params);
}

// The methods of the 2026-07-28 revision: the 2025 table less initialize,
// ping, logging/setLevel and resources/(un)subscribe, which it removed, plus
// server/discover (subscriptions/listen is handled by Session::Impl::listen).
MethodResult discover(Session::Impl& session, const Json& /*params*/) {
  return rev2026::discover_result(capabilities(), instructions(session.server->options.transport));
}

const std::unordered_map<std::string_view, Handler>& modern_method_table() {
  static const std::unordered_map<std::string_view, Handler> k_methods = [] {
    std::unordered_map<std::string_view, Handler> methods = method_table();
    for (const std::string_view removed : {"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}) {
      methods.erase(removed);
    }
    methods.emplace("server/discover", &discover);
    return methods;
  }();
  return k_methods;
}

// The answer text for a refusal of a 2026-07-28 request.
StatelessAnswer refused(const Json& id, const RpcError& error, int http_status) {
  return StatelessAnswer{error_response(id, rev2026::as_modern_error(error)), http_status, false};
}

}  // namespace

int log_level_rank(std::string_view level) {
  const auto found = std::find(k_log_levels.begin(), k_log_levels.end(), level);
  return found == k_log_levels.end() ? -1 : static_cast<int>(found - k_log_levels.begin());
}

Session::Impl::Impl(std::shared_ptr<Server::Impl> owner, Caller who, MessageSink out)
    : server(std::move(owner)), caller(std::move(who)), ctx(server->context_for(caller)) {
  if (out) {
    sink = std::make_shared<const MessageSink>(std::move(out));
  }
}

void Session::Impl::stop_events() {
  std::lock_guard lock(events_mutex);
  events.reset();
}

void Session::Impl::send(std::string text) {
  std::shared_ptr<const MessageSink> target;
  {
    std::lock_guard lock(sink_mutex);
    target = sink;
  }
  {
    std::lock_guard lock(mutex);
    if (closed) {
      return;
    }
  }
  if (!target || !*target) {
    return;
  }
  try {
    (*target)(std::move(text));
  } catch (const std::exception& error) {
    // A transport that cannot deliver drops the message; the session goes on.
    std::cerr << "skillrt mcp: notification dropped: " << error.what() << '\n';
  }
}

void Session::Impl::log(int level, std::string_view level_name, const std::string& text) {
  {
    std::lock_guard lock(mutex);
    if ((!initialized && !modern) || log_level < 0 || level < log_level) {
      return;
    }
  }
  Json params = Json::object();
  params["level"] = std::string(level_name);
  params["logger"] = "skillrt";
  params["data"] = text;
  send(notification("notifications/message", std::move(params)));
}

std::string Session::Impl::notification(std::string_view method, std::optional<Json> params) const {
  std::optional<Json> listen_id;
  {
    std::lock_guard lock(mutex);
    if (listening) {
      listen_id = listening->id;
    }
  }
  if (listen_id) {
    return notification_message(method, rev2026::tag_notification_params(std::move(params), *listen_id));
  }
  return notification_message(method, std::move(params));
}

void Session::Impl::skills_changed(const std::vector<fs::path>& paths) {
  std::vector<std::string> updated;
  std::optional<Listening> filter;
  {
    std::lock_guard lock(mutex);
    if ((!initialized && !listening) || closed) {
      return;
    }
    filter = listening;
    for (const auto& subscription : subscriptions) {
      const fs::path file = subscription.second.lexically_normal();
      const bool touched =
          paths.empty() || std::any_of(paths.begin(), paths.end(), [&](const fs::path& changed) {
            return changed.is_absolute() && core::is_within(file, changed.lexically_normal());
          });
      if (touched) {
        updated.push_back(subscription.first);
      }
    }
  }
  // A listen stream gets only what its filter asked for (the tools never change).
  if (!filter || filter->resources) {
    send(notification("notifications/resources/list_changed", std::nullopt));
  }
  if (!filter || filter->prompts) {
    send(notification("notifications/prompts/list_changed", std::nullopt));
  }
  for (std::string& uri : updated) {
    send(notification("notifications/resources/updated", Json{{"uri", std::move(uri)}}));
  }
}

StatelessAnswer Session::Impl::handle_stateless(const StatelessRequest& request) {
  Json id = nullptr;
  try {
    if (request.body.size() > limits::k_max_mcp_message_bytes) {
      return refused(nullptr,
                     RpcError{rpc_code::invalid_request,
                              "Invalid request: the message is larger than " +
                                  std::to_string(limits::k_max_mcp_message_bytes) + " bytes",
                              std::nullopt},
                     400);
    }
    ParsedMessage parsed = parse_message(request.body);
    if (std::holds_alternative<RpcReply>(parsed)) {
      return StatelessAnswer{std::nullopt, 202, false};
    }
    if (auto* invalid = std::get_if<RpcInvalid>(&parsed)) {
      return refused(invalid->id, invalid->error, 400);
    }
    const auto& call = std::get<RpcCall>(parsed);
    id = call.id;
    return handle_modern(call, request);
  } catch (const std::exception& error) {
    return refused(id, RpcError{rpc_code::internal_error, std::string("Internal error: ") + error.what(), std::nullopt},
                   500);
  } catch (...) {
    return refused(id, RpcError{rpc_code::internal_error, "Internal error", std::nullopt}, 500);
  }
}

StatelessAnswer Session::Impl::handle_modern(const RpcCall& call, const StatelessRequest& request) {
  if (call.is_notification) {
    // notifications/cancelled naming the open listen ends it (stdio's way
    // of closing a stream); nothing else from the client needs an answer.
    if (call.method == "notifications/cancelled" && call.params_are_object) {
      const auto request_id = call.params.find("requestId");
      std::lock_guard lock(mutex);
      if (request_id != call.params.end() && listening && listening->id == *request_id) {
        listening.reset();
        subscriptions.clear();
      }
    }
    return StatelessAnswer{std::nullopt, 202, false};
  }
  if (auto mismatch = rev2026::check_version_header(call, request)) {
    return refused(call.id, mismatch->error, mismatch->http_status);
  }
  auto envelope = rev2026::read_envelope(call);
  if (!envelope) {
    return refused(call.id, envelope.error().error, envelope.error().http_status);
  }
  if (auto mismatch = rev2026::check_standard_headers(call, *envelope, request)) {
    return refused(call.id, mismatch->error, mismatch->http_status);
  }
  {
    std::lock_guard lock(mutex);
    modern = true;
    log_level = envelope->log_level;
    client_capabilities = envelope->client_capabilities;
  }
  if (call.method == "subscriptions/listen") {
    return listen(call);
  }
  const auto& table = modern_method_table();
  const auto handler = table.find(call.method);
  if (handler == table.end()) {
    const RpcError unknown{rpc_code::method_not_found, "Method not found: " + call.method, std::nullopt};
    return refused(call.id, unknown, rev2026::http_status_for_dispatch_error(unknown));
  }
  MethodResult result = handler->second(*this, call.params);
  if (!result) {
    return refused(call.id, result.error(), rev2026::http_status_for_dispatch_error(result.error()));
  }
  const bool caller_specific = caller.user_id.has_value();
  if (result->serialized) {
    rev2026::stamp_result_text(call.method, *result->serialized, caller_specific);
    return StatelessAnswer{result_response_text(call.id, *result->serialized), 200, false};
  }
  if (!result->value.is_object()) {
    result->value = Json::object();
  }
  rev2026::stamp_result(call.method, result->value, caller_specific);
  return StatelessAnswer{result_response(call.id, std::move(result->value)), 200, false};
}

StatelessAnswer Session::Impl::listen(const RpcCall& call) {
  auto filter = rev2026::read_listen_filter(call.params);
  if (!filter) {
    return refused(call.id, filter.error(), 200);
  }
  {
    std::lock_guard lock(mutex);
    if (listening) {
      return refused(call.id,
                     RpcError{rpc_code::invalid_request,
                              "Invalid request: a subscriptions/listen is already open here; cancel it first",
                              std::nullopt},
                     200);
    }
  }
  for (const std::string& uri : filter->resource_uris) {
    if (MethodResult subscribed = subscribe_resource(*this, Json{{"uri", uri}}); !subscribed) {
      std::lock_guard lock(mutex);
      subscriptions.clear();
      return refused(call.id, subscribed.error(), 200);
    }
  }
  {
    std::lock_guard lock(mutex);
    listening = Listening{call.id, filter->tools, filter->prompts, filter->resources};
  }
  bool needs_events = false;
  {
    // Not under `mutex`: stop_events holds events_mutex while it waits for
    // a delivery, which takes `mutex`.
    std::lock_guard events_lock(events_mutex);
    needs_events = !events_attached;
  }
  if (needs_events) {
    server->attach_events(shared_from_this());
  }
  Json params = Json::object();
  params["notifications"] = filter->as_sent;
  return StatelessAnswer{notification("notifications/subscriptions/acknowledged", std::move(params)), 200, true};
}

std::optional<std::string> Session::Impl::handle(std::string_view message) {
  Json id = nullptr;
  try {
    if (message.size() > limits::k_max_mcp_message_bytes) {
      return error_response(nullptr, RpcError{rpc_code::invalid_request,
                                              "Invalid request: the message is larger than " +
                                                  std::to_string(limits::k_max_mcp_message_bytes) + " bytes",
                                              std::nullopt});
    }
    ParsedMessage parsed = parse_message(message);
    if (std::holds_alternative<RpcReply>(parsed)) {
      return std::nullopt;  // we send no requests, so no reply is awaited
    }
    if (auto* invalid = std::get_if<RpcInvalid>(&parsed)) {
      return error_response(invalid->id, invalid->error);
    }
    auto& call = std::get<RpcCall>(parsed);
    // A notification carries no envelope: it belongs to the 2026 revision
    // when the client spoke it before (the lock only for notifications, so
    // a 2025 request does not pay for it).
    const auto speaks_modern = [&] {
      std::lock_guard lock(mutex);
      return modern;
    };
    if (rev2026::claims_modern(call) || (call.is_notification && speaks_modern())) {
      // The 2026-07-28 revision (stdio has no headers to check). A listen
      // is acknowledged with a notification and gets no response.
      StatelessAnswer answer = handle_modern(call, StatelessRequest{message, false, {}, {}, {}});
      if (answer.listening && answer.text) {
        send(std::move(*answer.text));
        return std::nullopt;
      }
      return std::move(answer.text);
    }
    if (call.is_notification) {
      // notifications/initialized, notifications/cancelled, …: nothing to answer.
      return std::nullopt;
    }
    id = call.id;
    MethodResult result = dispatch(*this, call);
    if (!result) {
      return error_response(id, result.error());
    }
    if (result->serialized) {
      return result_response_text(id, *result->serialized);
    }
    return result_response(id, std::move(result->value));
  } catch (const std::exception& error) {
    return error_response(id, RpcError{rpc_code::internal_error, std::string("Internal error: ") + error.what(),
                                       std::nullopt});
  } catch (...) {
    return error_response(id, RpcError{rpc_code::internal_error, "Internal error", std::nullopt});
  }
}

// --- the public wrapper -------------------------------------------------------

Session::Session(std::shared_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Session::~Session() { close(); }

std::optional<std::string> Session::handle(std::string_view message) { return m_impl->handle(message); }

StatelessAnswer Session::handle_stateless(const StatelessRequest& request) {
  return m_impl->handle_stateless(request);
}

bool Session::initialized() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->initialized;
}

std::string Session::protocol_version() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->protocol_version;
}

SessionState Session::state() const {
  std::lock_guard lock(m_impl->mutex);
  SessionState state;
  state.protocol_version = m_impl->protocol_version;
  state.log_level = m_impl->log_level;
  for (const auto& [uri, file] : m_impl->subscriptions) {
    state.subscriptions.emplace_back(uri, file.string());
  }
  return state;
}

std::uint64_t Session::state_version() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->state_version;
}

const Caller& Session::caller() const { return m_impl->caller; }

void Session::resync() { m_impl->skills_changed({}); }

void Session::set_sink(MessageSink sink) {
  auto shared = sink ? std::make_shared<const MessageSink>(std::move(sink)) : nullptr;
  std::lock_guard lock(m_impl->sink_mutex);
  m_impl->sink = std::move(shared);
}

void Session::close() {
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->closed = true;
  }
  // Waits for a delivery in flight on another thread, so no notification
  // reaches the sink after close() returns (except one this thread is making).
  m_impl->stop_events();
}

}  // namespace skillrt::mcp
