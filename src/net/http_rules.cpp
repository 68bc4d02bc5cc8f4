#include "net/http_rules.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/util/random_hex.hpp"
#include "mcp/server.hpp"

namespace skillrt::net {
namespace {

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lower_ascii);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower_ascii(a[i]) != lower_ascii(b[i])) {
      return false;
    }
  }
  return true;
}


bool all_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "q=0", "q=0.0", "q=0.000" mean "not acceptable" (RFC 9110 §12.4.2).
bool zero_quality(std::string_view params) {
  while (!params.empty()) {
    const std::size_t semi = params.find(';');
    std::string_view param = trim_http_whitespace(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    if (param.size() >= 2 && lower_ascii(param[0]) == 'q' && param[1] == '=') {
      std::string_view value = trim_http_whitespace(param.substr(2));
      if (value.empty() || value[0] != '0') {
        return false;
      }
      return value.find_first_not_of("0.", 0) == std::string_view::npos;
    }
  }
  return false;
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string name = to_lower(host);
  if (name == "localhost" || name == "::1" || name == "[::1]") {
    return true;
  }
  // 127.0.0.0/8 in dotted-quad form.
  if (name.rfind("127.", 0) != 0) {
    return false;
  }
  int parts = 0;
  std::string_view rest = name;
  while (true) {
    const std::size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    if (part.empty() || part.size() > 3 || !all_digits(part) || std::stoi(std::string(part)) > 255) {
      return false;
    }
    ++parts;
    if (dot == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(dot + 1);
  }
  return parts == 4;
}

std::string host_of_authority(std::string_view authority) {
  authority = trim_http_whitespace(authority);
  if (authority.empty() || authority.find_first_of("/@?# ") != std::string_view::npos) {
    return {};
  }
  std::string_view host = authority;
  std::string_view port;
  if (authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return {};
    }
    host = authority.substr(0, close + 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return {};
      }
      port = after.substr(1);
    }
  } else {
    const std::size_t colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
  }
  if (host.empty() || port.size() > 5 || !all_digits(port)) {
    return {};
  }
  return to_lower(host);
}

bool host_name_allowed(std::string_view name, const std::vector<std::string>& allowed_hosts) {
  if (name.empty()) {
    return false;
  }
  if (is_loopback_host(name)) {
    return true;
  }
  return std::any_of(allowed_hosts.begin(), allowed_hosts.end(),
                     [&](const std::string& allowed) { return iequals(allowed, name); });
}

bool request_origin_allowed(std::string_view host_header, std::optional<std::string_view> origin_header,
                            bool loopback_listener, const std::vector<std::string>& allowed_hosts) {
  const std::string host = host_of_authority(host_header);
  if (host.empty()) {
    return false;
  }
  const bool host_open = !loopback_listener && allowed_hosts.empty();
  if (!host_open && !host_name_allowed(host, allowed_hosts)) {
    return false;
  }
  if (!origin_header) {
    return true;
  }
  std::string_view origin = trim_http_whitespace(*origin_header);
  std::string_view authority;
  if (origin.size() > 7 && iequals(origin.substr(0, 7), "http://")) {
    authority = origin.substr(7);
  } else if (origin.size() > 8 && iequals(origin.substr(0, 8), "https://")) {
    authority = origin.substr(8);
  } else {
    return false;  // "null", other schemes, garbage
  }
  // An Origin is scheme://authority with no path; tolerate one trailing slash.
  if (!authority.empty() && authority.back() == '/') {
    authority.remove_suffix(1);
  }
  const std::string origin_host = host_of_authority(authority);
  if (origin_host.empty()) {
    return false;
  }
  return origin_host == host || host_name_allowed(origin_host, allowed_hosts);
}

bool accept_allows(std::string_view accept, std::string_view mime) {
  accept = trim_http_whitespace(accept);
  if (accept.empty()) {
    return true;
  }
  const std::size_t slash = mime.find('/');
  const std::string_view type = mime.substr(0, slash);
  while (!accept.empty()) {
    const std::size_t comma = accept.find(',');
    const std::string_view item = trim_http_whitespace(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    const std::size_t semi = item.find(';');
    const std::string_view range = trim_http_whitespace(item.substr(0, semi));
    const std::string_view params = semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1);
    bool matches = iequals(range, mime) || range == "*/*";
    if (!matches && range.size() == type.size() + 2 && range.substr(type.size()) == "/*") {
      matches = iequals(range.substr(0, type.size()), type);
    }
    if (matches && !zero_quality(params)) {
      return true;
    }
  }
  return false;
}

bool header_lists_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (iequals(trim_http_whitespace(value.substr(0, comma)), token)) {
      return true;
    }
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
  }
  return false;
}

bool is_json_content_type(std::string_view content_type) {
  const std::size_t semi = content_type.find(';');
  return iequals(trim_http_whitespace(content_type.substr(0, semi)), "application/json");
}

std::optional<std::string> bearer_token(std::string_view authorization) {
  authorization = trim_http_whitespace(authorization);
  if (authorization.size() < 7 || !iequals(authorization.substr(0, 6), "bearer") || authorization[6] != ' ') {
    return std::nullopt;
  }
  const std::string_view token = trim_http_whitespace(authorization.substr(7));
  if (token.empty() || token.find_first_of(" \t") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::string(token);
}

std::optional<std::string> new_session_id() { return core::random_hex(16); }

bool is_initialize_request(std::string_view body) {
  const nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) {
    return false;
  }
  const auto method = message.find("method");
  return method != message.end() && method->is_string() && method->get_ref<const std::string&>() == "initialize" &&
         message.contains("id");
}

std::string jsonrpc_error_body(int code, std::string_view message) {
  nlohmann::ordered_json body;
  body["jsonrpc"] = "2.0";
  body["error"] = {{"code", code}, {"message", std::string(message)}};
  body["id"] = nullptr;
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string sse_event(std::string_view message, std::string_view id) {
  std::string frame;
  frame.reserve(message.size() + id.size() + 40);
  if (!id.empty()) {
    frame += "id: ";
    frame += id;
    frame += '\n';
  }
  frame += "event: message\n";
  while (true) {
    const std::size_t newline = message.find('\n');
    std::string_view line = message.substr(0, newline);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    frame += "data: ";
    frame += line;
    frame += '\n';
    if (newline == std::string_view::npos) {
      break;
    }
    message.remove_prefix(newline + 1);
  }
  frame += '\n';
  return frame;
}

bool protocol_version_supported(std::string_view version) {
  const std::vector<std::string>& versions = mcp::supported_protocol_versions();
  return std::find(versions.begin(), versions.end(), version) != versions.end();
}

std::string_view trim_http_whitespace(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace skillrt::net
