// URL splitting and the fetchable-URL rule (see url.hpp).
#include "sources/url.hpp"

#include <algorithm>
#include <cctype>

namespace skillrt::sources {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_scheme_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

bool is_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
}

bool is_ipv6_literal_char(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '.';
}

} // namespace

std::string UrlParts::full() const {
  std::string out = scheme + "://";
  if (!userinfo.empty()) {
    out += userinfo + "@";
  }
  out += host;
  if (!port.empty()) {
    out += ":" + port;
  }
  return out + path;
}

std::string UrlParts::without_credentials() const {
  UrlParts copy = *this;
  copy.userinfo.clear();
  return copy.full();
}

std::string_view UrlParts::path_only() const {
  const std::string_view view(path);
  return view.substr(0, view.find('?'));
}

Result<UrlParts> parse_url(std::string_view url) {
  for (const char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f) {
      return fail(ErrorCode::invalid_argument, "a URL may not contain spaces or control characters");
    }
  }
  const std::size_t colon = url.find("://");
  if (colon == std::string_view::npos || colon == 0 || std::isalpha(static_cast<unsigned char>(url[0])) == 0 ||
      !std::all_of(url.begin(), url.begin() + static_cast<std::ptrdiff_t>(colon), is_scheme_char)) {
    return fail(ErrorCode::invalid_argument, "not a URL (scheme://host/path): " + std::string(url));
  }
  UrlParts parts;
  parts.scheme = lower(url.substr(0, colon));
  std::string_view rest = url.substr(colon + 3);
  rest = rest.substr(0, rest.find('#'));
  const std::size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  parts.path = authority_end == std::string_view::npos ? std::string() : std::string(rest.substr(authority_end));
  // The last '@' ends the credentials: a password may itself hold '@'.
  const std::size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    parts.userinfo = std::string(authority.substr(0, at));
    authority.remove_prefix(at + 1);
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return fail(ErrorCode::invalid_argument, "unterminated IPv6 literal in URL host");
    }
    host = authority.substr(0, close + 1);
    const std::string_view inner = host.substr(1, host.size() - 2);
    if (inner.empty() || !std::all_of(inner.begin(), inner.end(), is_ipv6_literal_char)) {
      return fail(ErrorCode::invalid_argument, "invalid IPv6 literal in URL host: " + std::string(host));
    }
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return fail(ErrorCode::invalid_argument, "invalid URL host: " + std::string(authority));
      }
      port = after.substr(1);
    }
  } else {
    const std::size_t port_colon = authority.rfind(':');
    if (port_colon != std::string_view::npos) {
      host = authority.substr(0, port_colon);
      port = authority.substr(port_colon + 1);
    }
    if (!std::all_of(host.begin(), host.end(), is_host_char)) {
      return fail(ErrorCode::invalid_argument, "invalid URL host: " + std::string(host));
    }
  }
  if (!std::all_of(port.begin(), port.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }) ||
      port.size() > 5) {
    return fail(ErrorCode::invalid_argument, "invalid URL port: " + std::string(port));
  }
  parts.host = lower(host);
  parts.port = std::string(port);
  return parts;
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "[::1]") {
    return true;
  }
  // 127.a.b.c, four decimal octets of at most three digits each, each <= 255.
  int octets = 0;
  std::size_t start = 0;
  bool first_is_127 = false;
  while (start <= host.size()) {
    std::size_t end = host.find('.', start);
    if (end == std::string_view::npos) {
      end = host.size();
    }
    const std::string_view octet = host.substr(start, end - start);
    if (octet.empty() || octet.size() > 3 ||
        !std::all_of(octet.begin(), octet.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    const int value = std::stoi(std::string(octet));
    if (value > 255) {
      return false;
    }
    if (octets == 0) {
      first_is_127 = value == 127;
    }
    ++octets;
    start = end + 1;
  }
  return octets == 4 && first_is_127;
}

Result<void> check_fetchable(const UrlParts& url) {
  if (url.host.empty()) {
    return fail(ErrorCode::invalid_argument, "the URL has no host: " + url.without_credentials());
  }
  if (url.scheme == "https") {
    return {};
  }
  if (url.scheme == "http") {
    if (is_loopback_host(url.host)) {
      return {};
    }
    return fail(ErrorCode::refused,
                "http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for " +
                    url.host);
  }
  return fail(ErrorCode::refused, "unsupported URL scheme \"" + url.scheme + "://\" (use https://)");
}

} // namespace skillrt::sources
