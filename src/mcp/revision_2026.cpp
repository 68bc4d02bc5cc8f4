#include "mcp/revision_2026.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "mcp/server_state.hpp"

namespace skillrt::mcp::rev2026 {
namespace {

constexpr std::string_view k_server_name = "skillrt";
constexpr std::string_view k_server_version = "0.1.0";

// How long a client may keep a result before asking again. The skill lists
// change whenever anyone writes, and a client that wants to know at once
// keeps a subscriptions/listen stream open; a second is what a replica set
// promises for a change to reach every replica anyway. The tool definitions
// and the resource template do not change while the server runs.
constexpr std::int64_t k_live_ttl_ms = 1000;
constexpr std::int64_t k_static_ttl_ms = 3'600'000;

Refusal invalid_envelope(std::string message) {
  return Refusal{RpcError{rpc_code::invalid_params, std::move(message), std::nullopt}, 400};
}

Refusal header_mismatch(std::string message) {
  return Refusal{RpcError{k_header_mismatch, std::move(message), std::nullopt}, 400};
}

// RFC 9110 §5.5: a field value is read without the whitespace around it.
std::string_view trim_ows(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
    value.remove_prefix(1);
  }
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) {
    value.remove_suffix(1);
  }
  return value;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') {
    return c - 'A';
  }
  if (c >= 'a' && c <= 'z') {
    return c - 'a' + 26;
  }
  if (c >= '0' && c <= '9') {
    return c - '0' + 52;
  }
  if (c == '+') {
    return 62;
  }
  if (c == '/') {
    return 63;
  }
  return -1;
}

// Standard base64 with its padding; nullopt for anything else.
std::optional<std::string> decode_base64(std::string_view text) {
  if (text.size() % 4 != 0) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::array<int, 4> digits{};
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        digits[k] = 0;
        ++padding;
        continue;
      }
      if (padding > 0) {
        return std::nullopt;  // '=' only at the very end
      }
      digits[k] = base64_digit(c);
      if (digits[k] < 0) {
        return std::nullopt;
      }
    }
    const std::uint32_t bits = (static_cast<std::uint32_t>(digits[0]) << 18) |
                               (static_cast<std::uint32_t>(digits[1]) << 12) |
                               (static_cast<std::uint32_t>(digits[2]) << 6) | static_cast<std::uint32_t>(digits[3]);
    out.push_back(static_cast<char>((bits >> 16) & 0xFF));
    if (padding < 2) {
      out.push_back(static_cast<char>((bits >> 8) & 0xFF));
    }
    if (padding < 1) {
      out.push_back(static_cast<char>(bits & 0xFF));
    }
  }
  return out;
}

// A header value as SEP-2243 encodes it: trimmed, and `=?base64?X?=` read
// as the base64 text X (how non-ASCII and edge-whitespace values travel).
std::optional<std::string> decode_header_value(std::string_view raw) {
  const std::string_view value = trim_ows(raw);
  constexpr std::string_view prefix = "=?base64?";
  constexpr std::string_view suffix = "?=";
  if (value.size() >= prefix.size() + suffix.size() && value.starts_with(prefix) && value.ends_with(suffix)) {
    return decode_base64(value.substr(prefix.size(), value.size() - prefix.size() - suffix.size()));
  }
  return std::string(value);
}

// Which body field Mcp-Name mirrors for `method` (nullptr: none).
const char* name_source(std::string_view method) {
  if (method == "tools/call" || method == "prompts/get") {
    return "name";
  }
  if (method == "resources/read") {
    return "uri";
  }
  return nullptr;
}

bool is_cacheable(std::string_view method) {
  // The core revision's cacheable results, and the Skills extension's three
  // (SEP-2640 gives its results the same cache fields).
  return method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
         method == "resources/templates/list" || method == "resources/read" || method == "server/discover" ||
         method == "skills/list" || method == "skills/get" || method == "resources/directory/read";
}

// Results the same for every caller (so a shared cache may keep them).
bool is_caller_independent(std::string_view method) {
  return method == "tools/list" || method == "resources/templates/list" || method == "server/discover";
}

Json server_info() { return Json{{"name", std::string(k_server_name)}, {"version", std::string(k_server_version)}}; }

}  // namespace

bool is_modern_version(std::string_view version) { return is_stateless_protocol_version(version); }

bool claims_modern(const RpcCall& call) {
  if (call.method == "server/discover" || call.method == "subscriptions/listen") {
    return true;
  }
  if (!call.params_are_object) {
    return false;
  }
  const auto meta = call.params.find("_meta");
  return meta != call.params.end() && meta->is_object() && meta->contains(k_protocol_version_key);
}

RpcError unsupported_version(std::string_view requested) {
  Json data = Json::object();
  data["supported"] = all_protocol_versions();
  data["requested"] = std::string(requested);
  return RpcError{k_unsupported_version,
                  "Unsupported protocol version " + std::string(requested) +
                      " (this server speaks 2026-07-28, 2025-11-25, 2025-06-18 and 2025-03-26)",
                  std::move(data)};
}

tl::expected<Envelope, Refusal> read_envelope(const RpcCall& call) {
  if (!call.params_are_object) {
    return tl::unexpected(invalid_envelope("Invalid params: \"params\" must be an object carrying _meta"));
  }
  const auto meta = call.params.find("_meta");
  if (meta == call.params.end()) {
    return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta is missing (the 2026-07-28 revision "
                                                       "needs ") +
                                           k_protocol_version_key + " and " + k_client_capabilities_key +
                                           " on every request)"));
  }
  if (!meta->is_object()) {
    return tl::unexpected(invalid_envelope("Invalid params: _meta must be an object"));
  }
  const auto version = meta->find(k_protocol_version_key);
  if (version == meta->end()) {
    return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta is missing ") + k_protocol_version_key));
  }
  if (!version->is_string()) {
    return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta ") + k_protocol_version_key +
                                           " must be a string"));
  }
  const auto capabilities = meta->find(k_client_capabilities_key);
  if (capabilities == meta->end()) {
    return tl::unexpected(
        invalid_envelope(std::string("Invalid params: _meta is missing ") + k_client_capabilities_key));
  }
  if (!capabilities->is_object()) {
    return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta ") + k_client_capabilities_key +
                                           " must be an object"));
  }
  if (const auto info = meta->find(k_client_info_key); info != meta->end() && !info->is_object()) {
    return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta ") + k_client_info_key +
                                           " must be an object"));
  }
  Envelope envelope;
  if (const auto level = meta->find(k_log_level_key); level != meta->end()) {
    envelope.log_level = level->is_string() ? log_level_rank(level->get_ref<const std::string&>()) : -1;
    if (envelope.log_level < 0) {
      return tl::unexpected(invalid_envelope(std::string("Invalid params: _meta ") + k_log_level_key +
                                             " must be one of debug, info, notice, warning, error, critical, "
                                             "alert, emergency"));
    }
  }
  envelope.protocol_version = version->get<std::string>();
  if (!is_modern_version(envelope.protocol_version)) {
    return tl::unexpected(Refusal{unsupported_version(envelope.protocol_version), 400});
  }
  envelope.client_capabilities = *capabilities;
  return envelope;
}

std::optional<Refusal> check_version_header(const RpcCall& call, const StatelessRequest& request) {
  if (!request.http || !request.protocol_version || !call.params_are_object) {
    return std::nullopt;
  }
  const auto meta = call.params.find("_meta");
  if (meta == call.params.end() || !meta->is_object()) {
    return std::nullopt;
  }
  const auto version = meta->find(k_protocol_version_key);
  if (version == meta->end() || !version->is_string()) {
    return std::nullopt;
  }
  const std::string_view header = trim_ows(*request.protocol_version);
  if (header != version->get_ref<const std::string&>()) {
    return header_mismatch("Header mismatch: MCP-Protocol-Version " + std::string(header) + " differs from _meta " +
                           k_protocol_version_key + " " + version->get<std::string>());
  }
  return std::nullopt;
}

std::optional<Refusal> check_standard_headers(const RpcCall& call, const Envelope& envelope,
                                              const StatelessRequest& request) {
  if (!request.http || call.is_notification) {
    return std::nullopt;
  }
  if (!request.protocol_version) {
    return header_mismatch("Header mismatch: MCP-Protocol-Version is required on every request");
  }
  if (trim_ows(*request.protocol_version) != envelope.protocol_version) {
    return header_mismatch("Header mismatch: MCP-Protocol-Version " + std::string(trim_ows(*request.protocol_version)) +
                           " differs from _meta " + k_protocol_version_key + " " + envelope.protocol_version);
  }
  if (!request.method) {
    return header_mismatch("Header mismatch: Mcp-Method is required on every request");
  }
  if (trim_ows(*request.method) != call.method) {
    return header_mismatch("Header mismatch: Mcp-Method " + std::string(trim_ows(*request.method)) +
                           " differs from the body's method " + call.method);
  }
  const char* source = name_source(call.method);
  if (source == nullptr) {
    return std::nullopt;
  }
  const auto body_value = call.params.find(source);
  if (body_value == call.params.end() || !body_value->is_string()) {
    return std::nullopt;  // the handler refuses the params themselves
  }
  if (!request.name) {
    return header_mismatch(std::string("Header mismatch: Mcp-Name is required for ") + call.method);
  }
  const std::optional<std::string> name = decode_header_value(*request.name);
  if (!name) {
    return header_mismatch("Header mismatch: Mcp-Name is not valid =?base64?…?= text");
  }
  if (*name != body_value->get_ref<const std::string&>()) {
    return header_mismatch(std::string("Header mismatch: Mcp-Name differs from params.") + source);
  }
  return std::nullopt;
}

void stamp_result(std::string_view method, Json& result, bool caller_specific) {
  // A handler that needs the user's input first (MRTR) says so itself; such
  // an answer is never cached.
  const bool input_required = result.contains("resultType") && result["resultType"] == "input_required";
  if (!input_required) {
    result["resultType"] = "complete";
  }
  if (!input_required && is_cacheable(method)) {
    const bool shared = is_caller_independent(method);
    result["ttlMs"] = shared ? k_static_ttl_ms : k_live_ttl_ms;
    result["cacheScope"] = shared || !caller_specific ? "public" : "private";
  }
  Json& meta = result["_meta"];
  if (!meta.is_object()) {
    meta = Json::object();
  }
  meta[k_server_info_key] = server_info();
}

void stamp_result_text(std::string_view method, std::string& result, bool caller_specific) {
  Json extra = Json::object();
  stamp_result(method, extra, caller_specific);
  // A handler's serialized result is an object without these keys; splice
  // them in before its closing brace.
  const std::size_t close = result.rfind('}');
  if (close == std::string::npos) {
    return;
  }
  std::string fields = dump_json(extra);  // {"resultType":…}
  fields.pop_back();
  const bool empty = result.find_first_not_of(" \t\r\n", result.find('{') + 1) == close;
  if (empty) {
    fields.erase(0, 1);
  } else {
    fields.front() = ',';
  }
  result.insert(close, fields);
}

RpcError as_modern_error(RpcError error) {
  if (error.code == rpc_code::resource_not_found) {
    error.code = rpc_code::invalid_params;
  }
  return error;
}

int http_status_for_dispatch_error(const RpcError& error) {
  return error.code == rpc_code::method_not_found ? 404 : 200;
}

Json discover_result(const Json& capabilities, const std::string& instructions) {
  Json result = Json::object();
  result["supportedVersions"] = all_protocol_versions();
  result["capabilities"] = capabilities;
  result["instructions"] = instructions;
  return result;
}

tl::expected<ListenFilter, RpcError> read_listen_filter(const Json& params) {
  const auto notifications = params.find("notifications");
  if (notifications == params.end() || !notifications->is_object()) {
    return tl::unexpected(invalid_params("Invalid params: \"notifications\" must be an object"));
  }
  ListenFilter filter;
  const auto flag = [&](const char* key, bool& out) -> std::optional<RpcError> {
    const auto it = notifications->find(key);
    if (it == notifications->end()) {
      return std::nullopt;
    }
    if (!it->is_boolean()) {
      return invalid_params(std::string("Invalid params: notifications.") + key + " must be a boolean");
    }
    out = it->get<bool>();
    return std::nullopt;
  };
  for (const auto& [key, out] : {std::pair<const char*, bool*>{"toolsListChanged", &filter.tools},
                                 {"promptsListChanged", &filter.prompts},
                                 {"resourcesListChanged", &filter.resources}}) {
    if (auto error = flag(key, *out)) {
      return tl::unexpected(std::move(*error));
    }
  }
  if (const auto uris = notifications->find("resourceSubscriptions"); uris != notifications->end()) {
    if (!uris->is_array() || !std::all_of(uris->begin(), uris->end(), [](const Json& u) { return u.is_string(); })) {
      return tl::unexpected(invalid_params("Invalid params: notifications.resourceSubscriptions must be an array of "
                                           "URIs"));
    }
    for (const Json& uri : *uris) {
      filter.resource_uris.push_back(uri.get<std::string>());
    }
  }
  filter.as_sent = *notifications;
  return filter;
}

Json tag_notification_params(std::optional<Json> params, const Json& id) {
  Json out = params && params->is_object() ? std::move(*params) : Json::object();
  Json& meta = out["_meta"];
  if (!meta.is_object()) {
    meta = Json::object();
  }
  meta[k_subscription_id_key] = id;
  return out;
}

}  // namespace skillrt::mcp::rev2026
