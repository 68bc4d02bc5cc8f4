#include "net/proxy_rules.hpp"

#include <algorithm>
#include <array>

#include "net/http_rules.hpp"

namespace skillrt::net {
namespace {

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower_ascii(x) == lower_ascii(y); });
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}


// RFC 9110 §7.6.1 and the de-facto ones (Keep-Alive, Proxy-Connection).
constexpr std::array<std::string_view, 8> k_hop_by_hop = {"connection", "keep-alive", "proxy-authenticate",
                                                          "proxy-authorization", "proxy-connection", "te",
                                                          "trailer", "upgrade"};

bool is_hop_by_hop(std::string_view name) {
  return std::any_of(k_hop_by_hop.begin(), k_hop_by_hop.end(), [&](std::string_view hop) { return iequals(name, hop); });
}

}  // namespace

Result<UpstreamUrl> parse_upstream_url(std::string_view url) {
  const std::string shown(url);
  if (istarts_with(url, "https://")) {
    return fail(ErrorCode::invalid_argument,
                "the upstream must be an http:// URL (the proxy does not speak TLS yet; put a local "
                "forwarder in front of an https endpoint): " +
                    shown);
  }
  if (!istarts_with(url, "http://")) {
    return fail(ErrorCode::invalid_argument, "the upstream must be an http:// URL, not '" + shown + "'");
  }
  std::string_view rest = url.substr(7);
  const std::size_t path_at = rest.find('/');
  const std::string_view authority = rest.substr(0, path_at);
  std::string_view path = path_at == std::string_view::npos ? std::string_view{} : rest.substr(path_at);
  if (rest.find_first_of("?#") != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, "the upstream URL may not carry a query or fragment: " + shown);
  }
  // The path goes into the request line: visible ASCII only.
  if (!std::all_of(path.begin(), path.end(), [](char c) { return c > 0x20 && c < 0x7f; })) {
    return fail(ErrorCode::invalid_argument, "the upstream path must be visible ASCII without spaces: " + shown);
  }
  if (authority.find('@') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument,
                "the upstream URL may not carry user info; give the key with --upstream-key-env: " + shown);
  }
  std::string_view host = authority;
  std::string_view port;
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos || close == 1) {
      return fail(ErrorCode::invalid_argument, "malformed IPv6 host in the upstream URL: " + shown);
    }
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return fail(ErrorCode::invalid_argument, "malformed host in the upstream URL: " + shown);
      }
      port = after.substr(1);
      has_port = true;
    }
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    has_port = true;
    if (host.find(':') != std::string_view::npos) {
      return fail(ErrorCode::invalid_argument, "an IPv6 upstream host needs brackets: " + shown);
    }
  }
  // The host goes into the Host header and the resolver: names and addresses only.
  const bool host_ok = !host.empty() && host.size() <= 253 && std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == '_' || c == ':';
  });
  if (!host_ok) {
    return fail(ErrorCode::invalid_argument, "the upstream URL has no valid host: " + shown);
  }
  unsigned long number = 80;
  if (has_port) {
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return fail(ErrorCode::invalid_argument, "bad port in the upstream URL: " + shown);
    }
    number = 0;
    for (const char c : port) {
      number = number * 10 + static_cast<unsigned long>(c - '0');
    }
    if (number == 0 || number > 65535) {
      return fail(ErrorCode::invalid_argument, "bad port in the upstream URL: " + shown);
    }
  }
  UpstreamUrl out;
  out.host = std::string(host);
  std::transform(out.host.begin(), out.host.end(), out.host.begin(), lower_ascii);
  out.port = static_cast<std::uint16_t>(number);
  const std::string bracketed = out.host.find(':') != std::string::npos ? "[" + out.host + "]" : out.host;
  out.authority = out.port == 80 ? bracketed : bracketed + ":" + std::to_string(out.port);
  while (!path.empty() && path.back() == '/') {
    path.remove_suffix(1);
  }
  out.base_path = std::string(path);
  return out;
}

std::string upstream_target(const UpstreamUrl& upstream, std::string_view client_target) {
  // The caller's "/v1" prefix is replaced by the upstream's base path.
  constexpr std::string_view k_prefix = "/v1";
  if (client_target.starts_with(k_prefix)) {
    client_target.remove_prefix(k_prefix.size());
  }
  return upstream.base_path + std::string(client_target);
}

bool forwarded_request_header(std::string_view name) {
  static constexpr std::array<std::string_view, 11> k_dropped = {
      "host",       "authorization",   "cookie",        "api-key",
      "content-length", "transfer-encoding", "expect",  "accept-encoding",
      "openai-organization", "openai-project", "origin"};
  if (is_hop_by_hop(name) || istarts_with(name, "x-skillrt-")) {
    return false;
  }
  return std::none_of(k_dropped.begin(), k_dropped.end(), [&](std::string_view dropped) { return iequals(name, dropped); });
}

bool relayed_response_header(std::string_view name) {
  static constexpr std::array<std::string_view, 5> k_dropped = {"content-length", "transfer-encoding", "set-cookie",
                                                                "www-authenticate", "alt-svc"};
  if (is_hop_by_hop(name)) {
    return false;
  }
  return std::none_of(k_dropped.begin(), k_dropped.end(), [&](std::string_view dropped) { return iequals(name, dropped); });
}

std::chrono::milliseconds keep_alive_reuse_window(std::optional<std::string_view> keep_alive,
                                                  std::chrono::milliseconds fallback) {
  if (!keep_alive) {
    return fallback;
  }
  std::string_view params = *keep_alive;
  while (!params.empty()) {
    const std::size_t comma = params.find(',');
    const std::string_view param = trim_http_whitespace(params.substr(0, comma));
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 1);
    if (!istarts_with(param, "timeout=")) {
      continue;
    }
    const std::string_view value = trim_http_whitespace(param.substr(8));
    if (value.empty() || value.size() > 6 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return fallback;
    }
    long seconds = 0;
    for (const char c : value) {
      seconds = seconds * 10 + (c - '0');
    }
    return std::max(std::chrono::milliseconds(500), std::chrono::milliseconds(seconds * 1000 - 1000));
  }
  return fallback;
}

bool is_event_stream(std::string_view content_type) {
  const std::string_view type = trim_http_whitespace(content_type.substr(0, content_type.find(';')));
  return iequals(type, "text/event-stream");
}

void append_http_chunk(std::string& out, std::string_view payload) {
  if (payload.empty()) {
    return;
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  char size[sizeof(std::size_t) * 2];
  std::size_t length = 0;
  std::size_t value = payload.size();
  do {
    size[sizeof size - 1 - length] = k_hex[value & 0x0f];
    value >>= 4;
    ++length;
  } while (value != 0);
  out.append(size + sizeof size - length, length);
  out += "\r\n";
  out += payload;
  out += "\r\n";
}

}  // namespace skillrt::net
